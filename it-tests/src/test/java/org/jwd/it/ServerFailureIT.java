package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;

/**
 * Servers that break off their answers, and slow clients and servers against a dispatcher with few threads. (Refused
 * connections and timeouts: {@link FailureIT}.)
 */
class ServerFailureIT {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aServerThatBreaksOffItsAnswerAbortsTheClientsConnectionAndIsCounted() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     """.formatted(a.url()) + AdminClient.CONFIG)) {
            // Content-Length: the connection ends before the announced bytes.
            byte[] sized = LimitsIT.raw(jwd, "GET /irj/abort HTTP/1.1\r\nHost: x\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1);
            String head = head(sized);
            assertThat(head).startsWith("HTTP/1.1 200").contains("Content-Length: 1048576");
            assertThat(sized.length - head.length()).isGreaterThan(0).isLessThan(1024 * 1024);

            // Chunked: the connection ends without the last chunk.
            String chunked = LimitsIT.raw(jwd, "GET /irj/abort?chunked=1 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(head(chunked.getBytes(StandardCharsets.ISO_8859_1))).startsWith("HTTP/1.1 200")
                    .contains("Transfer-Encoding: chunked");
            assertThat(chunked).doesNotEndWith("\r\n0\r\n\r\n");

            // Nothing sent to the client yet: a 502 naming the server.
            HttpResponse<String> early = http.send(HttpRequest.newBuilder(jwd.uri("/irj/abort?sent=100")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(early.statusCode()).isEqualTo(502);
            assertThat(early.body()).contains("server a", "closed the connection before its answer was complete");

            assertThat(new AdminClient(jwd).get("/jwd/admin/metrics").body())
                    .contains("jwd_server_aborts_total{server=\"a\"} 3.0");
        }
    }

    @Test
    void twoHundredSlowRequestsHoldNoThreadOfADispatcherWithTwentyFour() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     jwd.min_request_data_rate=0
                     """.formatted(a.url()), Map.of("JWD_JETTY_ARGS", "jetty.threadPool.maxThreads=24"))) {
            // (no minimum rate: the bodies below are slow on purpose, and must be served, not cut off with 408)
            // Slow server: 200 requests wait in the server at once, which 24 threads held per request could not do.
            List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                slow.add(http.sendAsync(HttpRequest.newBuilder(jwd.uri("/irj/hold")).timeout(Duration.ofSeconds(60))
                        .build(), HttpResponse.BodyHandlers.ofString()));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> a.held() == 200);
            assertThat(http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo")).timeout(Duration.ofSeconds(20)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            a.release(200);
            for (CompletableFuture<HttpResponse<String>> r : slow) {
                assertThat(r.get().statusCode()).isEqualTo(200);
            }
            // The server writes each answer whole (Content-Length) before its thread leaves the request: a client can
            // have its answer while the server still counts the request in flight (a CI run saw 1 below).
            await().atMost(Duration.ofSeconds(10)).until(() -> a.inFlight() == 0);

            // Slow clients: 200 bodies begun and not finished; a new request is still served.
            List<Socket> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 200; i++) {
                    Socket s = new Socket("127.0.0.1", jwd.port());
                    s.setSoTimeout(30_000);
                    clients.add(s);
                    s.getOutputStream().write(("POST /irj/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
                            + "Connection: close\r\n\r\nA").getBytes(StandardCharsets.ISO_8859_1));
                    s.getOutputStream().flush();
                }
                // Each body is read into jwd's buffer (jwd.request_buffer_size) without a thread, and none takes a
                // server connection until it is whole: a new request is served meanwhile, and the server has none.
                assertThat(http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo")).timeout(Duration.ofSeconds(20)).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
                assertThat(a.inFlight()).isZero();
                for (String rest : List.of("B", "C", "D")) {
                    for (Socket s : clients) {
                        OutputStream out = s.getOutputStream();
                        out.write(rest.getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                    }
                }
                for (Socket s : clients) {
                    String answer = new String(LimitsIT.readToEnd(s.getInputStream()), StandardCharsets.ISO_8859_1);
                    assertThat(answer).startsWith("HTTP/1.1 200").contains("\"bytes\":4");
                }
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
            }
        }
    }

    /** The status line and headers, up to and with the blank line. */
    private static String head(byte[] answer) {
        String text = new String(answer, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        return end < 0 ? text : text.substring(0, end + 4);
    }
}
