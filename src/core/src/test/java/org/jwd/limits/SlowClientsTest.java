package org.jwd.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.jwd.config.ConfigException;
import org.jwd.config.SectionFixture;
import org.junit.jupiter.api.Test;

class SlowClientsTest {
    private static final String SERVER = "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n";

    private static SlowClients read(String extra) throws ConfigException {
        return SectionFixture.read(SERVER + extra, Path.of(""), (keys, core) -> SlowClients.read(keys));
    }

    @Test
    void defaultsBufferABodyOf64KilobytesAndCutOffBodiesSlowerThanAKilobyteASecond() throws ConfigException {
        SlowClients slow = read("");

        assertThat(slow.requestBufferSize()).isEqualTo(64 * 1024);
        assertThat(slow.buffersBodies()).isTrue();
        assertThat(slow.minRequestDataRate()).isEqualTo(1024);
    }

    @Test
    void readsSizesAndRatesWithTheirUnits() throws ConfigException {
        SlowClients slow = read("""
                jwd.request_buffer_size=1MB
                jwd.min_request_data_rate=2KB/s
                """);

        assertThat(slow).isEqualTo(new SlowClients(1024 * 1024, 2048));
    }

    @Test
    void zeroStreamsEveryBodyAtOnceAndTurnsTheRateOff() throws ConfigException {
        SlowClients slow = read("""
                jwd.request_buffer_size=0
                jwd.min_request_data_rate=0
                """);

        assertThat(slow.buffersBodies()).isFalse();
        assertThat(slow.minRequestDataRate()).isZero();
    }

    @Test
    void badValuesAreNamedWithTheirKeyAndWhatIsExpected() {
        assertThatThrownBy(() -> read("""
                jwd.request_buffer_size=17MB
                jwd.min_request_data_rate=2048MB/s
                """)).isInstanceOf(ConfigException.class).satisfies(e -> assertThat(((ConfigException) e).problems())
                .containsExactlyInAnyOrder(
                        "jwd.request_buffer_size = '17MB': expected a size up to 16MB: bytes, or a number with a unit"
                                + " (16KB, 1MB); 0 streams every body at once",
                        "jwd.min_request_data_rate = '2048MB/s': expected bytes per second up to 1GB/s, a number or"
                                + " with a unit (512, 1KB/s, 1MB/s); 0 for none"));
    }
}
