package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;

/** A session whose server stops moves to another server, and stays there. */
class FailoverIT {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void theNextRequestOfASessionWhoseServerStoppedIsServedElsewhereAndStaysThere() throws Exception {
        Map<String, DemoBackend> backends = new HashMap<>();
        backends.put("a", DemoBackend.start(DemoBackend.Options.j2ee("a")));
        backends.put("b", DemoBackend.start(DemoBackend.Options.j2ee("b")));
        backends.put("c", DemoBackend.start(DemoBackend.Options.j2ee("c")));
        try (JwdProcess jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                server.b.url=%s
                server.b.type=j2ee
                server.c.url=%s
                server.c.type=j2ee
                SessionTableTimeout=60s
                jwd.debug_headers=true
                """.formatted(backends.get("a").url(), backends.get("b").url(), backends.get("c").url()))) {
            String cookie = "JSESSIONID=failover-session-1";
            String bound = send(jwd, cookie).headers().firstValue("X-Served-By").orElseThrow();
            backends.get(bound).stop();

            // The request that meets the stopped server may fail (it was bound there and in flight);
            // from then on the session must live elsewhere.
            String moved = null;
            for (int i = 0; i < 3 && moved == null; i++) {
                HttpResponse<String> r = send(jwd, cookie);
                if (r.statusCode() == 200) {
                    moved = r.headers().firstValue("X-Served-By").orElseThrow();
                }
            }
            assertThat(moved).isNotNull().isNotEqualTo(bound);
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> r = send(jwd, cookie);
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.headers().firstValue("X-Served-By")).hasValue(moved);
            }
        } finally {
            backends.values().forEach(DemoBackend::close);
        }
    }

    private HttpResponse<String> send(JwdProcess jwd, String cookie) throws Exception {
        return http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
