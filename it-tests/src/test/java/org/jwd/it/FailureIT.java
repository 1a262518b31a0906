package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;

/** What a client sees when servers are down, slow, or missing: clear answers, never a hang. */
class FailureIT {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** Java servers a and b (demo backends) behind one dispatcher, with {@code extraKeys} in its configuration. */
    private record TwoServers(DemoBackend a, DemoBackend b, JwdProcess jwd) implements AutoCloseable {
        static TwoServers start(String extraKeys) {
            DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
            DemoBackend b = null;
            try {
                b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
                return new TwoServers(a, b, JwdProcess.start("""
                        server.a.url=%s
                        server.a.type=j2ee
                        server.b.url=%s
                        server.b.type=j2ee
                        """.formatted(a.url(), b.url()) + extraKeys));
            } catch (RuntimeException e) {
                if (b != null) {
                    b.close();
                }
                a.close();
                throw e;
            }
        }

        @Override
        public void close() {
            try {
                jwd.close();
            } finally {
                try {
                    b.close();
                } finally {
                    a.close();
                }
            }
        }
    }

    /** SAP's is/HTTP/show_detailed_errors=FALSE: the client learns the status, not the landscape. */
    @Test
    void withoutDetailedErrorsThe502And503NameNoServerNorGroup() throws Exception {
        try (DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
             JwdProcess jwd = JwdProcess.start("""
                     server.b.url=%s
                     server.b.type=j2ee
                     is/HTTP/show_detailed_errors = FALSE
                     """.formatted(b.url()))) {
            b.stop();
            HttpResponse<String> first = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> next = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(first.statusCode()).isEqualTo(502);
            assertThat(first.body()).isEqualTo("jwd: 502 Bad Gateway\n");
            assertThat(next.statusCode()).isEqualTo(503);
            assertThat(next.body()).isEqualTo("jwd: 503 Service Unavailable\n");
            assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                    .startsWith("text/plain"));
        }
    }

    @Test
    void aRequestToAStoppedServerIsRetriedOnTheLiveOneAndTheStoppedOneIsMarkedDown() throws Exception {
        try (TwoServers servers = TwoServers.start("")) {
            DemoBackend b = servers.b();
            JwdProcess jwd = servers.jwd();
            b.stop();
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.headers().firstValue("X-Served-By")).hasValue("a");
            }
            assertThat(jwd.log()).anyMatch(line -> line.contains("server b is down"));
        }
    }

    @Test
    void aStoppedServerWithNoAlternativeGives502NamingItThen503() throws Exception {
        try (DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
             JwdProcess jwd = JwdProcess.start("""
                     server.b.url=%s
                     server.b.type=j2ee
                     """.formatted(b.url()))) {
            b.stop();
            HttpResponse<String> first = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> next = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(first.statusCode()).isEqualTo(502);
            assertThat(first.body()).contains("server b", b.url(), "connection refused");
            assertThat(next.statusCode()).isEqualTo(503);
            assertThat(next.body()).contains("no j2ee server is active");
        }
    }

    @Test
    void anIdempotentRequestWhoseServerDroppedItUnansweredGoesOnceMoreElsewhereAndAPostDoesNot() throws Exception {
        try (TwoServers servers = TwoServers.start("health.fall=100\n")) {
            JwdProcess jwd = servers.jwd();
            // Round robin over a and b (a stays up: a dropped request is no refused connection, and the fall is
            // high): half of these meet a, which drops them without a byte.
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> get = http.send(HttpRequest.newBuilder(jwd.uri("/irj/vanish?on=a")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(get.statusCode()).as("GET %d", i).isEqualTo(200);
                assertThat(get.headers().firstValue("X-Served-By")).hasValue("b");
            }
            List<Integer> posts = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                posts.add(http.send(HttpRequest.newBuilder(jwd.uri("/irj/vanish?on=a"))
                        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString())
                        .statusCode());
            }
            // a POST may have had its effect before the server went: it is answered, never sent twice
            assertThat(posts).contains(502).contains(200).containsOnly(200, 502);
        }
    }

    @Test
    void aPostWithABodyIsNotReplayedButAnsweredWith502() throws Exception {
        try (TwoServers servers = TwoServers.start("")) {
            DemoBackend b = servers.b();
            JwdProcess jwd = servers.jwd();
            b.stop();
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                statuses.add(http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo"))
                        .POST(HttpRequest.BodyPublishers.ofString("payload")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode());
            }
            // One POST met b (502: its body may be half-sent, so it is not replayed); b is down after it.
            assertThat(statuses).containsExactlyInAnyOrder(502, 200);
            assertThat(http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo"))
                    .POST(HttpRequest.BodyPublishers.ofString("payload")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aServerPastTheRequestTimeoutGives504() throws Exception {
        try (DemoBackend slow = DemoBackend.start(DemoBackend.Options.j2ee("slow").withDelayMillis(5_000));
             JwdProcess jwd = JwdProcess.start("""
                     server.slow.url=%s
                     server.slow.type=j2ee
                     jwd.request_timeout=1s
                     """.formatted(slow.url()))) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(504);
            assertThat(response.body()).contains("server slow", "did not answer within 1s", "jwd.request_timeout");
        }
    }

    @Test
    void noConfiguredServerGives503() throws Exception {
        try (JwdProcess jwd = JwdProcess.start("# no servers\n")) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.body()).contains("no");
        }
    }
}
