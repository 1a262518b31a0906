package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code /jwd/health/live} and {@code /jwd/health/ready} as a load balancer in front of jwd probes them, on every
 * listener by default and without credentials: ready while a server is up, 503 naming every server's state while
 * none is, ready again when one comes back; live throughout.
 */
@Timeout(120)
class HealthUrlsIT {
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private static HttpResponse<String> get(JwdProcess jwd, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(jwd.uri(path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void readyWhileAServerIsUpNotReadyNamingWhyWhileNoneIsLiveThroughout() throws Exception {
        DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
        int portA = a.port();
        try (JwdProcess jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                server.b.url=%s
                server.b.type=j2ee
                health.interval=300ms
                health.fall=1
                health.rise=1
                """.formatted(a.url(), b.url()))) {
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                HttpResponse<String> ready = get(jwd, "/jwd/health/ready");
                assertThat(ready.statusCode()).isEqualTo(200);
                assertThat(ready.body()).isEqualTo("ready: 2 of 2 servers up\n");
            });
            assertThat(get(jwd, "/jwd/health/ready").headers().firstValue("Cache-Control")).hasValue("no-store");

            a.stop();
            b.stop();
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                HttpResponse<String> ready = get(jwd, "/jwd/health/ready");
                assertThat(ready.statusCode()).isEqualTo(503);
                assertThat(ready.body()).isEqualTo("no server is up (2 servers: a down, b down)\n");
            });
            HttpResponse<String> live = get(jwd, "/jwd/health/live");
            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(live.body()).isEqualTo("live\n");
            assertThat(get(jwd, "/jwd/health/other").statusCode()).isEqualTo(404);

            DemoBackend back = DemoBackend.start(a.options().withPort(portA));
            try {
                await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                    HttpResponse<String> ready = get(jwd, "/jwd/health/ready");
                    assertThat(ready.statusCode()).isEqualTo(200);
                    assertThat(ready.body()).isEqualTo("ready: 1 of 2 servers up\n");
                });
            } finally {
                back.close();
            }
        } finally {
            a.close();
            b.close();
        }
    }
}
