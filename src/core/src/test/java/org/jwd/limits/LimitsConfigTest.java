package org.jwd.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.jwd.config.ConfigException;
import org.jwd.config.SectionFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LimitsConfigTest {
    private static final String SERVERS = """
            server.a.url=http://127.0.0.1:1
            server.a.type=j2ee
            server.b.url=http://127.0.0.1:2
            server.b.type=j2ee
            """;

    private static LimitsConfig limits(String extra) throws ConfigException {
        return SectionFixture.read(SERVERS + extra, Path.of(""), LimitsConfig::read);
    }

    @Test
    void defaultsAreJettysHeaderBoundSapsBodyBoundAndNoConnectionLimit() throws ConfigException {
        LimitsConfig limits = limits("jwd.request_timeout=20s\n");

        assertThat(limits.maxHeaderSize()).isEqualTo(8192);
        assertThat(limits.maxRequestBytes()).isEqualTo(102_400L * 1024);
        assertThat(limits.queueTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(limits.servers()).isEmpty();
    }

    @Test
    void readsEveryLimitKey() throws ConfigException {
        LimitsConfig limits = limits("""
                jwd.max_header_size=16KB
                icm/HTTP/max_request_size_KB=10
                jwd.queue_timeout=3s
                server.a.max_connections=2
                server.a.max_queue=3
                server.b.max_connections=5
                """);

        assertThat(limits.maxHeaderSize()).isEqualTo(16 * 1024);
        assertThat(limits.maxRequestBytes()).isEqualTo(10 * 1024);
        assertThat(limits.queueTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(limits.servers()).containsEntry("a", new LimitsConfig.ServerLimit(2, 3))
                .containsEntry("b", new LimitsConfig.ServerLimit(5, LimitsConfig.ServerLimit.UNBOUNDED));
    }

    @Test
    void minusOneAndZeroTurnTheBodyLimitOffAsInSap() throws ConfigException {
        assertThat(limits("icm/HTTP/max_request_size_KB=-1\n").limitsBody()).isFalse();
        assertThat(limits("icm/HTTP/max_request_size_KB=0\n").limitsBody()).isFalse();
    }

    @Test
    void badValuesAreNamedWithTheirKeyAndWhatIsExpected() {
        assertThatThrownBy(() -> limits("""
                jwd.max_header_size=10
                icm/HTTP/max_request_size_KB=lots
                jwd.queue_timeout=0
                server.a.max_connections=0
                server.b.max_queue=2
                """)).isInstanceOf(ConfigException.class).satisfies(e -> assertThat(((ConfigException) e).problems())
                .containsExactlyInAnyOrder(
                        "jwd.max_header_size = '10': expected a size from 1024 bytes to 1 MB: bytes, or a number"
                                + " with a unit (16KB, 1MB)",
                        "icm/HTTP/max_request_size_KB = 'lots': expected kilobytes from 1 to 1073741824, or -1"
                                + " (or 0) for no limit",
                        "jwd.queue_timeout = '0': expected a positive duration: a number with a"
                                + " unit (500ms, 30s, 10m, 1h)",
                        "server.a.max_connections = '0': expected a positive integer",
                        "server.b.max_queue = '2': expected only with server.b.max_connections (requests queue"
                                + " for a connection slot)"));
    }
}
