package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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
 * The limits of issue #10, through the Jetty distribution: header size (431), body size (413), and the
 * connection slots of a server (at most max_connections in flight, max_queue waiting, 503 beyond).
 */
class LimitsIT {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aHeaderOverJwdsLimitGets431NamingTheKeyAndOneOverJettysGets431FromJetty() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     """.formatted(a.url()))) {
            HttpResponse<String> under = get(jwd, "/irj/x", "X-Big", "x".repeat(7 * 1024));
            HttpResponse<String> over = get(jwd, "/irj/x", "X-Big", "x".repeat(9 * 1024));

            assertThat(under.statusCode()).isEqualTo(200);
            assertThat(over.statusCode()).isEqualTo(431);
            assertThat(over.body()).contains("more than the 8192 bytes allowed (jwd.max_header_size)");
            // Past the jetty-base's requestHeaderSize (64 KB) Jetty answers alone, with the same status.
            String status = raw(jwd, "GET /irj/x HTTP/1.1\r\nHost: x\r\nX-Big: " + "x".repeat(70 * 1024)
                    + "\r\nConnection: close\r\n\r\n").lines().findFirst().orElseThrow();
            assertThat(status).startsWith("HTTP/1.1 431");
            assertThat(a.requestCount("/irj/x")).isEqualTo(1);
        }
    }

    @Test
    void aLargerHeaderLimitLetsLargerHeadersThrough() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     jwd.max_header_size=32KB
                     """.formatted(a.url()))) {
            assertThat(get(jwd, "/irj/x", "X-Big", "x".repeat(20 * 1024)).statusCode()).isEqualTo(200);
            HttpResponse<String> over = get(jwd, "/irj/x", "X-Big", "x".repeat(40 * 1024));
            assertThat(over.statusCode()).isEqualTo(431);
            assertThat(over.body()).contains("32768 bytes allowed (jwd.max_header_size)");
        }
    }

    @Test
    void aDeclaredBodyOverTheLimitGets413BeforeAnyServerSeesIt() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     icm/HTTP/max_request_size_KB=2
                     """.formatted(a.url()) + AdminClient.CONFIG)) {
            HttpResponse<String> fits = http.send(HttpRequest.newBuilder(jwd.uri("/irj/upload"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[2048])).build(),
                    HttpResponse.BodyHandlers.ofString());
            String over = raw(jwd, "POST /irj/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2049\r\n\r\n");

            assertThat(fits.statusCode()).isEqualTo(200);
            assertThat(over).startsWith("HTTP/1.1 413").contains(
                    "jwd: the request body is larger than 2 KB (icm/HTTP/max_request_size_KB): Content-Length 2049");
            assertThat(a.requestCount("/irj/upload")).isEqualTo(1);
            assertThat(new AdminClient(jwd).get("/jwd/admin/metrics").body())
                    .contains("jwd_limit_rejections_total{limit=\"icm/HTTP/max_request_size_KB\"} 1.0");
        }
    }

    @Test
    void aChunkedBodyGrowingOverTheLimitIsCutOffWith413AndTheBindingStays() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     server.b.url=%s
                     server.b.type=j2ee
                     icm/HTTP/max_request_size_KB=4
                     SessionTableTimeout=10m
                     """.formatted(a.url(), b.url()) + AdminClient.CONFIG)) {
            HttpResponse<String> first = get(jwd, "/irj/echo", "Cookie", "JSESSIONID=limits-1");
            String bound = first.headers().firstValue("X-Served-By").orElseThrow();

            StringBuilder chunked = new StringBuilder("POST /irj/upload HTTP/1.1\r\nHost: x\r\n"
                    + "Cookie: JSESSIONID=limits-1\r\nTransfer-Encoding: chunked\r\n\r\n");
            for (int i = 0; i < 10; i++) {
                chunked.append("400\r\n").append("y".repeat(1024)).append("\r\n");
            }
            chunked.append("0\r\n\r\n");
            String answer = raw(jwd, chunked.toString());

            assertThat(answer).startsWith("HTTP/1.1 413")
                    .contains("jwd: the request body is larger than 4 KB (icm/HTTP/max_request_size_KB)");
            for (int i = 0; i < 3; i++) {
                assertThat(get(jwd, "/irj/echo", "Cookie", "JSESSIONID=limits-1").headers().firstValue("X-Served-By"))
                        .hasValue(bound);
            }
            String metrics = new AdminClient(jwd).get("/jwd/admin/metrics").body();
            assertThat(metrics).contains("jwd_limit_rejections_total{limit=\"icm/HTTP/max_request_size_KB\"} 1.0")
                    .contains("jwd_requests_total{group=\"!J2EE\",server=\"" + bound + "\",status_class=\"4xx\"} 1.0");
        }
    }

    @Test
    void atMostMaxConnectionsAreInFlightMaxQueueWaitAndTheRestGet503AtOnce() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     server.a.max_connections=2
                     server.a.max_queue=3
                     """.formatted(a.url()) + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);
            List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                held.add(hold(jwd));
                int sent = i + 1;
                // one at a time, so that the queue's order is the order they were sent in
                await().atMost(Duration.ofSeconds(20)).until(() -> a.held() + queued(admin) == sent);
            }
            assertThat(a.held()).isEqualTo(2);
            assertThat(connections(admin)).containsEntry("max_connections", 2L).containsEntry("max_queue", 3L)
                    .containsEntry("active", 2L).containsEntry("queued", 3L);

            List<CompletableFuture<HttpResponse<String>>> refused = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                refused.add(hold(jwd));
            }
            for (CompletableFuture<HttpResponse<String>> r : refused) {
                HttpResponse<String> response = r.get();
                assertThat(response.statusCode()).isEqualTo(503);
                assertThat(response.body()).contains("server a has all its connection slots taken and its queue full",
                        "server.a.max_connections 2", "server.a.max_queue 3");
            }
            assertThat(held).noneMatch(CompletableFuture::isDone);

            a.release(5);
            for (CompletableFuture<HttpResponse<String>> r : held) {
                assertThat(r.get().statusCode()).isEqualTo(200);
            }
            assertThat(a.maxHeld()).isEqualTo(2);
            assertThat(a.requestCount("/irj/hold")).isEqualTo(5);
            String metrics = admin.get("/jwd/admin/metrics").body();
            assertThat(metrics).contains("jwd_server_queue_rejected_total{reason=\"queue_full\",server=\"a\"} 3.0",
                    "jwd_server_max_connections{server=\"a\"} 2.0", "jwd_server_queue_length{server=\"a\"} 0.0");
        }
    }

    @Test
    void theClientOpensAtMostConnectionsPerServerToAServerAndTheRestWaitForOne() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     server.a.max_connections=4
                     jwd.connections_per_server=2
                     """.formatted(a.url()) + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);
            List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                held.add(hold(jwd));
            }
            // all four past jwd's own slots (max_connections 4), two at the server on the client's two connections:
            // the other two wait in the client's queue, neither refused nor failed
            await().atMost(Duration.ofSeconds(20)).until(() -> Long.valueOf(4).equals(connections(admin).get("active"))
                    && a.held() == 2);
            assertThat(held).noneMatch(CompletableFuture::isDone);

            a.release(4);
            for (CompletableFuture<HttpResponse<String>> r : held) {
                assertThat(r.get().statusCode()).isEqualTo(200);
            }
            assertThat(a.maxHeld()).isEqualTo(2);
            assertThat(a.requestCount("/irj/hold")).isEqualTo(4);
        }
    }

    @Test
    void aRequestQueuedPastTheQueueTimeoutGets503() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     server.a.max_connections=1
                     jwd.queue_timeout=1s
                     """.formatted(a.url()) + AdminClient.CONFIG)) {
            CompletableFuture<HttpResponse<String>> first = hold(jwd);
            await().atMost(Duration.ofSeconds(20)).until(() -> a.held() == 1);

            HttpResponse<String> queued = hold(jwd).get();

            assertThat(queued.statusCode()).isEqualTo(503);
            assertThat(queued.body()).contains("server a waited 1s (jwd.queue_timeout) in the queue for a connection"
                    + " slot", "server.a.max_connections 1");
            assertThat(first).isNotDone();
            a.release(1);
            assertThat(first.get().statusCode()).isEqualTo(200);
            assertThat(a.requestCount("/irj/hold")).isEqualTo(1);
            assertThat(new AdminClient(jwd).get("/jwd/admin/metrics").body())
                    .contains("jwd_server_queue_rejected_total{reason=\"queue_timeout\",server=\"a\"} 1.0");
        }
    }

    @Test
    void balancedRequestsGoToAMemberWithRoomWhileOneIsFull() throws Exception {
        // a's capacity would give it nine requests of ten; its one slot makes the balancer send them to b.
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     server.a.capacity=9
                     server.a.max_connections=1
                     server.b.url=%s
                     server.b.type=j2ee
                     """.formatted(a.url(), b.url()) + AdminClient.CONFIG)) {
            List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                held.add(hold(jwd));
                int sent = i + 1;
                // one after the other: each is routed knowing where the ones before it went
                await().atMost(Duration.ofSeconds(20)).until(() -> a.held() + b.held() == sent);
            }

            assertThat(a.held()).isEqualTo(1);
            assertThat(b.held()).isEqualTo(5);
            assertThat(connections(new AdminClient(jwd), "a")).containsEntry("queued", 0L);
            a.release(1);
            b.release(5);
            for (CompletableFuture<HttpResponse<String>> r : held) {
                assertThat(r.get().statusCode()).isEqualTo(200);
            }
        }
    }

    @Test
    void aBoundRequestWaitsForItsFullServer() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     server.a.max_connections=1
                     server.b.url=%s
                     server.b.type=j2ee
                     """.formatted(a.url(), b.url()) + AdminClient.CONFIG)) {
            String saplb = "saplb_*=" + a.saplbValue();
            CompletableFuture<HttpResponse<String>> first = hold(jwd, "Cookie", saplb);
            await().atMost(Duration.ofSeconds(20)).until(() -> a.held() == 1);
            CompletableFuture<HttpResponse<String>> second = hold(jwd, "Cookie", saplb);
            AdminClient admin = new AdminClient(jwd);
            await().atMost(Duration.ofSeconds(20)).until(() -> queued(admin) == 1);

            a.release(2);

            assertThat(first.get().headers().firstValue("X-Served-By")).hasValue("a");
            assertThat(second.get().headers().firstValue("X-Served-By")).hasValue("a");
            assertThat(b.requestCount("/irj/hold")).as("b is checked, but gets none of these").isZero();
            assertThat(a.maxHeld()).isEqualTo(1);
        }
    }

    private CompletableFuture<HttpResponse<String>> hold(JwdProcess jwd, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(jwd.uri("/irj/hold")).timeout(Duration.ofSeconds(60));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(JwdProcess jwd, String path, String... headers) throws Exception {
        return http.send(HttpRequest.newBuilder(jwd.uri(path)).headers(headers).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long queued(AdminClient admin) {
        return (Long) connections(admin).get("queued");
    }

    private static Map<String, Object> connections(AdminClient admin) {
        return connections(admin, "a");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> connections(AdminClient admin, String id) {
        return (Map<String, Object>) admin.server(id).get("connections");
    }

    /** Sends the bytes as they are and reads the answer to the end of the connection. */
    static String raw(JwdProcess jwd, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", jwd.port())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                // jwd may answer and close before the whole request is written: its answer is what counts
            }
            return new String(readToEnd(socket.getInputStream()), StandardCharsets.ISO_8859_1);
        }
    }

    static byte[] readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                bytes.write(buffer, 0, n);
            }
        } catch (java.net.SocketException e) {
            // a reset after the answer: what was read is the answer
        }
        return bytes.toByteArray();
    }
}
