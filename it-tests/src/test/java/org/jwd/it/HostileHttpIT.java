package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed and abusive HTTP, written on raw sockets: each gets a 4xx or a closed connection, never a 5xx,
 * and the dispatcher serves the next request as before.
 */
class HostileHttpIT {
    private static DemoBackend backend;
    private static JwdProcess jwd;

    @BeforeAll
    static void start() {
        backend = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        jwd = JwdProcess.start("server.a.url=" + backend.url() + "\nserver.a.type=j2ee\n");
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        backend.close();
    }

    static Stream<Arguments> hostileRequests() {
        String host = "Host: 127.0.0.1\r\n";
        StringBuilder cookies = new StringBuilder("Cookie: ");
        for (int i = 0; i < 1000; i++) {
            cookies.append(i == 0 ? "" : "; ").append("c").append(i).append("=v").append(i);
        }
        return Stream.of(
                Arguments.of("a 200 KB header",
                        "GET /irj/x HTTP/1.1\r\n" + host + "X-Big: " + "x".repeat(200 * 1024) + "\r\n\r\n"),
                Arguments.of("Content-Length and Transfer-Encoding",
                        "POST /irj/echo HTTP/1.1\r\n" + host + "Content-Length: 5\r\n"
                                + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
                Arguments.of("two Content-Lengths",
                        "POST /irj/echo HTTP/1.1\r\n" + host + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
                Arguments.of("a bad chunk size",
                        "POST /irj/echo HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"),
                Arguments.of("an invalid percent-encoding", "GET /irj/%zz HTTP/1.1\r\n" + host + "\r\n"),
                Arguments.of("a NUL in the path", "GET /irj/a%00b HTTP/1.1\r\n" + host + "\r\n"),
                Arguments.of("a raw NUL in the path", "GET /irj/a\0b HTTP/1.1\r\n" + host + "\r\n"),
                Arguments.of("1,000 cookies", "GET /irj/echo HTTP/1.1\r\n" + host + cookies + "\r\n\r\n"),
                Arguments.of("a path escaping the root", "GET /../../etc/passwd HTTP/1.1\r\n" + host + "\r\n"),
                Arguments.of("no Host header", "GET /irj/x HTTP/1.1\r\n\r\n"),
                Arguments.of("a header line without a colon", "GET /irj/x HTTP/1.1\r\n" + host + "Garbage\r\n\r\n"),
                Arguments.of("a space before a header's colon",
                        "GET /irj/x HTTP/1.1\r\n" + host + "Cookie : JSESSIONID=x\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileRequests")
    void getsA4xxOrAClosedConnectionAndTheNextRequestIsServed(String what, String request) throws Exception {
        String status = exchange(request);
        if (!status.isEmpty()) {
            int code = Integer.parseInt(status.split(" ")[1]);
            // 1,000 small cookies fit in Jetty's header limit and are a legal request: 200 is right for it.
            assertThat(code).as("%s answered %s", what, status).isLessThan(500);
        }

        String next = exchange("GET /irj/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        assertThat(next).as("the request after %s", what).startsWith("HTTP/1.1 200");
    }

    /** Sends raw bytes and returns the status line, or "" when the connection was closed without one. */
    private static String exchange(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", jwd.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (SocketException closedWhileWriting) {
                // The dispatcher may close the connection before reading all of a request it rejects.
            }
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            try {
                for (int c; (c = in.read()) != -1 && c != '\n'; ) {
                    line.write(c);
                }
            } catch (SocketException reset) {
                return "";
            }
            return line.toString(StandardCharsets.ISO_8859_1).strip();
        }
    }
}
