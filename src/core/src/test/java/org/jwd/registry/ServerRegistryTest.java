package org.jwd.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.config.ServerConfig;
import org.jwd.config.ServerType;
import org.junit.jupiter.api.Test;

class ServerRegistryTest {
    private final AtomicLong now = new AtomicLong();
    private final ServerRegistry registry = new ServerRegistry(Duration.ofMillis(2200), now::get);

    private static ServerConfig server(String id, int capacity) {
        return new ServerConfig(id, URI.create("http://127.0.0.1:9000"), null, ServerType.J2EE, capacity, Set.of(),
                id, id, null, "/");
    }

    private void advance(long millis) {
        now.addAndGet(Duration.ofMillis(millis).toNanos());
    }

    @Test
    void aFirstReportRegistersAndARepeatedOneIsAHeartbeat() {
        assertThat(registry.report(server("n1", 1))).isEqualTo(ServerRegistry.Outcome.REGISTERED);
        assertThat(registry.report(server("n1", 1))).isEqualTo(ServerRegistry.Outcome.RENEWED);
        assertThat(registry.report(server("n1", 2))).isEqualTo(ServerRegistry.Outcome.CHANGED);
        assertThat(registry.servers()).containsExactly(server("n1", 2));
    }

    @Test
    void aServerExpiresWhenItsHeartbeatsStop() {
        registry.report(server("n1", 1));
        registry.report(server("n2", 1));
        java.util.List<String> expired = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            advance(1000);
            registry.report(server("n1", 1));
            expired.addAll(registry.expire());
        }

        assertThat(expired).as("n2 reported last at 0, n1 every second").containsExactly("n2");
        assertThat(registry.servers()).extracting(ServerConfig::id).containsExactly("n1");

        advance(2199);
        assertThat(registry.expire()).isEmpty();
        assertThat(registry.expiresIn("n1")).isEqualTo(Duration.ofMillis(1));
        advance(1);
        assertThat(registry.expire()).containsExactly("n1");
        assertThat(registry.servers()).isEmpty();
        assertThat(registry.expiresIn("n1")).isNull();
    }

    @Test
    void aServersSystemIsPartOfItsReport() {
        assertThat(registry.report(server("n1", 1), "ERP")).isEqualTo(ServerRegistry.Outcome.REGISTERED);
        assertThat(registry.report(server("n1", 1), "ERP")).isEqualTo(ServerRegistry.Outcome.RENEWED);
        advance(500);
        assertThat(registry.report(server("n1", 1), "PRT")).as("the same server in another system")
                .isEqualTo(ServerRegistry.Outcome.CHANGED);

        ServerRegistry.Registration r = registry.registration("n1");
        assertThat(r.system()).isEqualTo("PRT");
        assertThat(r.registeredAt()).as("registered once").isZero();
        assertThat(registry.registrations()).containsExactly(r);
        assertThat(registry.report(server("n2", 1)).changesTopology()).isTrue();
        assertThat(registry.registration("n2").system()).as("the implicit system").isNull();
    }

    @Test
    void aServerMayLeaveAtOnce() {
        registry.report(server("n1", 1));

        assertThat(registry.remove("n1")).isTrue();
        assertThat(registry.remove("n1")).isFalse();
        assertThat(registry.servers()).isEmpty();
    }
}
