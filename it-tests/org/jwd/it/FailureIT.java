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

    @Test
    void aStoppedServerGives502NamingItAndTheNextRequestGoesToTheLiveOne() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     server.b.url=%s
                     server.b.type=j2ee
                     """.formatted(a.url(), b.url()))) {
            b.stop();
            List<HttpResponse<String>> responses = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                responses.add(http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            int failed = -1;
            for (int i = 0; i < responses.size(); i++) {
                if (responses.get(i).statusCode() == 502) {
                    failed = i;
                    break;
                }
            }
            assertThat(failed).as("one of the requests met the stopped server").isBetween(0, 2);
            assertThat(responses.get(failed).body()).contains("server b", b.url(), "connection refused");
            HttpResponse<String> next = responses.get(failed + 1);
            assertThat(next.statusCode()).isEqualTo(200);
            assertThat(next.headers().firstValue("X-Served-By")).hasValue("a");
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
