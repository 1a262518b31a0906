package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class MeasurementTest {
    private static final WrkResult JWD = new WrkResult(637.03, 58.02, 459.82, 1330, 0);

    @Test
    void theProxysCpuIsSharedOutOverTheRequests() {
        // 1.07 s of CPU over 1330 requests: 804.51 µs each
        Measurement m = Measurement.of(1, 1, "jwd", JWD, OptionalDouble.of(1_070_000_000L));

        assertThat(m.toTsv()).isEqualTo("1\t1\tjwd\t637.03\t58.020\t459.820\t804.51\t1330\t0");
        assertThat(m.summary(3)).isEqualTo(
                "round 1/3 scenario 1 jwd                 637 req/s  p50  58.020 ms  p99 459.820 ms  CPU 804.51 us/req");
    }

    @Test
    void withoutAProxyProcessTheCpuIsADash() {
        Measurement m = Measurement.of(2, 2, "direct", new WrkResult(51120.01, 1.01, 10.09, 107016, 3),
                OptionalDouble.empty());

        assertThat(m.toTsv()).isEqualTo("2\t2\tdirect\t51120.01\t1.010\t10.090\t-\t107016\t3");
        assertThat(m.summary(3)).endsWith("CPU - us/req  ERRORS: 3");
    }

    @Test
    void aRunWithoutResultIsOneErrorAndReadsBackAsWritten() {
        Measurement failed = Measurement.failed(3, 2, "balancer");

        assertThat(failed.toTsv()).isEqualTo("3\t2\tbalancer\t-\t-\t-\t-\t-\t1");
        assertThat(Measurement.parse(failed.toTsv())).isEqualTo(failed);
        assertThat(failed.summary(3)).isEqualTo("round 3/3 scenario 2 balancer      wrk gave no result");
    }

    @Test
    void aLineOfTheRecordedResultsReadsBackToTheSameLine() {
        String line = "1\t2\thaproxy-stick\t28889.16\t1.450\t71.100\t20.46\t60602\t0";

        assertThat(Measurement.parse(line).toTsv()).isEqualTo(line);
    }

    @Test
    void aMalformedLineIsNamed() {
        assertThatThrownBy(() -> Measurement.parse("1\t2\tjwd")).hasMessageContaining("'1\t2\tjwd'")
                .hasMessageContaining("expected 9 tab-separated fields");
        assertThatThrownBy(() -> Measurement.parse("1\t2\tjwd\tfast\t-\t-\t-\t1\t0"))
                .hasMessageContaining("results.tsv line");
    }
}
