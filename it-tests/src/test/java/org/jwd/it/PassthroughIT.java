package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

import org.awaitility.Awaitility;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * End-to-end TLS ({@code wdisp/HTTPS/port}) through the real Jetty distribution: two HTTPS J2EE servers, a
 * (capacity 1, logon group ERP) and b (capacity 2), and an HTTPS ABAP server c (capacity 8), which SAP's rule leaves
 * out of the pool (PROT=ROUTER connections go to instances with a J2EE part). Clients are told apart by their address: each binds its
 * socket to its own loopback address (all of 127/8 is local on Linux), and the sticky mask is a /32, so every
 * address is its own client network. The last test stops b.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PassthroughIT {
    private static final Pattern SERVED_BY = Pattern.compile("(?im)^X-Served-By: *(\\S+)");
    private static TestPki pki;
    private static DemoBackend a;
    private static DemoBackend b;
    private static DemoBackend c;
    private static JwdProcess jwd;
    private static SSLSocketFactory tls;

    /** What a client got over one TLS connection. */
    private record Answer(String servedBy, X509Certificate certificate) {
        String subject() {
            return certificate.getSubjectX500Principal().getName();
        }
    }

    @BeforeAll
    static void start() {
        pki = TestPki.get();
        tls = pki.clientContext().getSocketFactory();
        DemoBackend.Tls serverCert = new DemoBackend.Tls(pki.keyStore("server"), TestPki.PASSWORD);
        a = DemoBackend.start(DemoBackend.Options.j2ee("a"), serverCert);
        b = DemoBackend.start(DemoBackend.Options.j2ee("b"), serverCert);
        c = DemoBackend.start(DemoBackend.Options.abap("c"), serverCert);
        jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.https_url=%s
                server.a.type=j2ee
                server.a.capacity=1
                server.a.logon_groups=ERP
                server.b.url=%s
                server.b.https_url=%s
                server.b.type=j2ee
                server.b.capacity=2
                server.c.url=%s
                server.c.https_url=%s
                server.c.type=abap
                server.c.capacity=8
                icf.url_prefixes=/sap/
                logon_group.ERP.url_prefixes=/erp
                jwd.ssl_keystore=%s
                jwd.ssl_keystore_password=%s
                wdisp/HTTPS/port=0
                wdisp/HTTPS/sticky_mask=255.255.255.255
                wdisp/HTTPS/dest_logon_group=erp.example=ERP
                """.formatted(a.url(), a.httpsUrl(), b.url(), b.httpsUrl(), c.url(), c.httpsUrl(), pki.keyStore("jwd"),
                        TestPki.PASSWORD),
                Map.of(), "--https-port", "0");
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        if (c != null) {
            c.close();
        }
    }

    @Test
    @Order(1)
    void theClientSeesTheServersCertificateNotJwds() throws Exception {
        Answer passthrough = get("127.0.3.1", null, jwd.passthroughPort());
        Answer terminated = get("127.0.3.1", null, jwd.httpsUri().getPort());

        assertThat(passthrough.subject()).isEqualTo("CN=server");
        assertThat(passthrough.servedBy()).isIn("a", "b");
        assertThat(terminated.subject()).isEqualTo("CN=jwd");
    }

    @Test
    @Order(2)
    void connectionsFromDifferentClientAddressesSpreadByCapacity() throws Exception {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 1; i <= 60; i++) {
            counts.merge(get("127.0.1." + i, null, jwd.passthroughPort()).servedBy(), 1, Integer::sum);
        }

        assertThat(counts.get("a")).as("%s", counts).isBetween(20 - 6, 20 + 6);
        assertThat(counts.get("b")).as("%s", counts).isBetween(40 - 6, 40 + 6);
        assertThat(counts).doesNotContainKey("c");
    }

    @Test
    @Order(2)
    void anAbapServerInAPoolWithJ2eeServersIsLeftOutAndNamedAtTheStart() {
        assertThat(c.requestCount("/irj/echo")).isZero();
        assertThat(jwd.log()).anySatisfy(line -> assertThat(line).contains("!ALL leaves out the ABAP servers [c]"));
    }

    @Test
    @Order(3)
    void oneClientAddressSticksToOneServerWhileOthersAreBalanced() throws Exception {
        String first = get("127.0.2.7", null, jwd.passthroughPort()).servedBy();
        Set<String> others = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            others.add(get("127.0.2." + (100 + i), null, jwd.passthroughPort()).servedBy());
            assertThat(get("127.0.2.7", null, jwd.passthroughPort()).servedBy()).isEqualTo(first);
        }

        assertThat(others).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    @Order(4)
    void theSniNameOfTheClientHelloPicksTheLogonGroup() throws Exception {
        Set<String> erp = new HashSet<>();
        for (int i = 1; i <= 6; i++) {
            erp.add(get("127.0.4." + i, "erp.example", jwd.passthroughPort()).servedBy());
        }

        assertThat(erp).containsExactly("a");
    }

    @Test
    @Order(5)
    void aServerThatIsDownIsSkippedAndItsClientsMoveOn() throws Exception {
        String onB = null;
        for (int i = 1; i <= 10 && onB == null; i++) {
            if (get("127.0.5." + i, null, jwd.passthroughPort()).servedBy().equals("b")) {
                onB = "127.0.5." + i;
            }
        }
        assertThat(onB).isNotNull();
        b.stop();

        assertThat(get(onB, null, jwd.passthroughPort()).servedBy()).isEqualTo("a");
        for (int i = 1; i <= 8; i++) {
            assertThat(get("127.0.6." + i, null, jwd.passthroughPort()).servedBy()).isEqualTo("a");
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(jwd.log())
                .anySatisfy(line -> assertThat(line).contains("jwd: server b is down for end-to-end TLS")));
    }

    /** One HTTPS request over its own TLS connection, from {@code localAddress}, to 127.0.0.1:{@code port}. */
    private static Answer get(String localAddress, String sni, int port) throws IOException {
        try (Socket raw = new Socket()) {
            raw.bind(new InetSocketAddress(localAddress, 0));
            raw.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            raw.setSoTimeout(15_000);
            // A fresh TLS context for an SNI name: the JDK would resume an earlier session, with its (absent) name.
            SSLSocketFactory factory = sni == null ? tls : pki.clientContext().getSocketFactory();
            try (SSLSocket socket = (SSLSocket) factory.createSocket(raw, "127.0.0.1", port, true)) {
                if (sni != null) {
                    SSLParameters parameters = socket.getSSLParameters();
                    parameters.setServerNames(List.of(new SNIHostName(sni)));
                    socket.setSSLParameters(parameters);
                }
                socket.startHandshake();
                OutputStream out = socket.getOutputStream();
                out.write("GET /irj/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                Matcher m = SERVED_BY.matcher(response);
                assertThat(m.find()).as("a response with X-Served-By: %s", response).isTrue();
                return new Answer(m.group(1), (X509Certificate) socket.getSession().getPeerCertificates()[0]);
            }
        }
    }
}
