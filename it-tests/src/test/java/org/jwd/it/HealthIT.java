package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * jwd notices failed servers by itself: active checks mark a stopped server down within {@code fall} checks and
 * bring it back after {@code rise} good ones; requests that time out mark it down after {@code fall} of them.
 */
@Timeout(120)
class HealthIT {
    @Test
    void aStoppedServerIsMarkedDownByItsChecksAndComesBackAfterRiseChecks() {
        DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
        int port = b.port();
        try (JwdProcess jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                server.b.url=%s
                server.b.type=j2ee
                server.b.health_path=/health
                health.interval=300ms
                health.timeout=1s
                health.fall=2
                health.rise=3
                """.formatted(a.url(), b.url()) + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);
            await().atMost(Duration.ofSeconds(10)).until(() -> b.requestCount("/health") >= 1);
            assertThat(admin.server("b")).containsEntry("state", "up").containsEntry("health_path", "/health");
            assertThat((String) admin.server("b").get("last_check")).endsWith("/health: 200");

            b.stop();
            // no request goes there meanwhile: only the active checks can notice; fall 2 x 300 ms + a timeout
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                    .until(() -> "down".equals(admin.server("b").get("state")));
            assertThat((String) admin.server("b").get("last_check")).contains("/health");
            assertThat((Boolean) admin.server("b").get("healthy")).isFalse();
            for (int i = 0; i < 6; i++) {
                assertThat(admin.through("/irj/while-down").headers().firstValue("X-Served-By")).hasValue("a");
            }

            DemoBackend restarted = DemoBackend.start(b.options().withPort(port));
            try {
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                        .until(() -> "up".equals(admin.server("b").get("state")));
                assertThat(restarted.requestCount("/health")).as("rise = 3 good checks").isGreaterThanOrEqualTo(3);
                await().atMost(Duration.ofSeconds(10)).until(() -> "b".equals(
                        admin.through("/irj/back").headers().firstValue("X-Served-By").orElse("")));
            } finally {
                restarted.stop();
            }
        } finally {
            a.close();
            b.close();
        }
    }

    @Test
    void requestsThatTimeOutMarkTheServerDownAfterFallOfThem() {
        DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        DemoBackend slow = DemoBackend.start(DemoBackend.Options.j2ee("slow"));
        try (JwdProcess jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                server.slow.url=%s
                server.slow.type=j2ee
                jwd.request_timeout=500ms
                health.interval=1h
                health.fall=2
                """.formatted(a.url(), slow.url()) + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);
            // slow only once its first check is back: only the requests' timeouts count here, however long a
            // loaded machine takes to start jwd (a first check timing out would count as one failure more)
            await().atMost(Duration.ofSeconds(30)).until(() -> admin.get("/jwd/health/ready").statusCode() == 200);
            slow.setDelayMillis(3000);
            int timeouts = 0;
            for (int i = 0; i < 10 && timeouts < 2; i++) {
                if (admin.through("/irj/t" + i).statusCode() == 504) {
                    timeouts++;
                    if (timeouts == 1) {
                        assertThat(admin.server("slow")).as("one timeout is not yet fall = 2")
                                .containsEntry("state", "up");
                    }
                }
            }
            assertThat(timeouts).isEqualTo(2);
            Map<String, Object> s = admin.server("slow");
            assertThat(s).containsEntry("state", "down");
            assertThat((String) s.get("last_check")).startsWith("request failed");
            assertThat((Long) s.get("errors")).isEqualTo(2L);
            for (int i = 0; i < 4; i++) {
                assertThat(admin.through("/irj/after").headers().firstValue("X-Served-By")).hasValue("a");
            }
        } finally {
            a.close();
            slow.close();
        }
    }
}
