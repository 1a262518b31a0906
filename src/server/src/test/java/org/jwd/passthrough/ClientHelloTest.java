package org.jwd.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import org.junit.jupiter.api.Test;

class ClientHelloTest {
    /** The first bytes the JDK's own TLS client sends, with or without a server name. */
    private static ByteBuffer clientHello(String serverName, String protocol) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(new String[] {protocol});
        parameters.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
        engine.setSSLParameters(parameters);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        return out.flip();
    }

    @Test
    void readsTheServerNameOfATls13ClientHello() throws Exception {
        ClientHello hello = ClientHello.parse(clientHello("erp.example.com", "TLSv1.3"));

        assertThat(hello.complete()).isTrue();
        assertThat(hello.serverName()).isEqualTo("erp.example.com");
    }

    @Test
    void readsTheServerNameOfATls12ClientHello() throws Exception {
        assertThat(ClientHello.parse(clientHello("portal.example", "TLSv1.2")).serverName()).isEqualTo("portal.example");
    }

    @Test
    void aClientHelloWithoutServerNameIsCompleteWithoutOne() throws Exception {
        ClientHello hello = ClientHello.parse(clientHello(null, "TLSv1.3"));

        assertThat(hello.complete()).isTrue();
        assertThat(hello.serverName()).isNull();
    }

    @Test
    void asksForMoreUntilTheWholeHelloIsThereAndLeavesTheBufferAlone() throws Exception {
        ByteBuffer whole = clientHello("erp.example.com", "TLSv1.3");
        for (int n : new int[] {0, 1, 4, 5, 40, whole.remaining() - 1}) {
            ByteBuffer part = whole.duplicate().limit(n);
            assertThat(ClientHello.parse(part)).as("the first %d bytes", n).isSameAs(ClientHello.INCOMPLETE);
            assertThat(part.position()).isZero();
        }
        assertThat(ClientHello.parse(whole.duplicate()).serverName()).isEqualTo("erp.example.com");
    }

    @Test
    void readsAClientHelloSplitOverTwoRecords() throws Exception {
        ByteBuffer whole = clientHello("erp.example.com", "TLSv1.3");
        byte[] bytes = new byte[whole.remaining()];
        whole.get(bytes);
        int fragment = bytes.length - 5;
        int first = 60;
        ByteBuffer split = ByteBuffer.allocate(bytes.length + 5);
        split.put(bytes, 0, 3).putShort((short) first).put(bytes, 5, first);
        split.put(bytes, 0, 3).putShort((short) (fragment - first)).put(bytes, 5 + first, fragment - first);
        split.flip();

        assertThat(ClientHello.parse(split).serverName()).isEqualTo("erp.example.com");
    }

    @Test
    void somethingElseThanTlsHasNoName() {
        ClientHello hello = ClientHello.parse(ByteBuffer.wrap("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));

        assertThat(hello.complete()).isTrue();
        assertThat(hello.serverName()).isNull();
    }
}
