package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class FeatureCostTest {
    @Test
    void eachFeatureAgainstPlainJwdRoundByRound() {
        // round 2 ran on a machine twice as slow: the ratios within each round stay put
        List<Measurement> results = List.of(
                measured(1, "jwd", 20_000, 50, 2.0, 8), measured(1, "jwd-accesslog", 19_000, 53, 2.1, 9),
                measured(1, "jwd-cluster", 16_000, 65, 3.0, 12),
                measured(2, "jwd", 10_000, 100, 4.0, 16), measured(2, "jwd-accesslog", 9_700, 104, 4.1, 16),
                measured(2, "jwd-cluster", 8_600, 120, 5.5, 20),
                measured(3, "jwd", 20_000, 50, 2.0, 8), measured(3, "jwd-accesslog", 19_600, 51, 2.0, 8));

        assertThat(FeatureCost.render(results, 2, "jwd", List.of("jwd-accesslog", "jwd-cluster", "jwd-systems")))
                .isEqualTo("""

                        | feature | rounds | req/s vs jwd | proxy CPU µs/req vs jwd | CPU µs/req added | p50 ms added \
                        | p99 vs jwd |
                        |---|---:|---:|---:|---:|---:|---:|
                        | jwd-accesslog | 3 | 0.97 [0.95-0.98] (0.95-0.98) | 1.04 [1.02-1.06] (1.02-1.06) | 3.0 [1.0 to 4.0] (1.0 to 4.0) \
                        | 0.100 [0.000 to 0.100] (0.000 to 0.100) | 1.00 [1.00-1.13] (1.00-1.13) (±>5 %) |
                        | jwd-cluster | 2 | 0.83 [0.80-0.86] (0.80-0.86) | 1.25 [1.20-1.30] (1.20-1.30) | 17.5 [15.0 to 20.0] (15.0 to 20.0) \
                        | 1.250 [1.000 to 1.500] (1.000 to 1.500) | 1.38 [1.25-1.50] (1.25-1.50) (±>5 %) |
                        | jwd-systems | 0 | - | - | - | - | - |
                        """);
    }

    private static Measurement measured(int round, String target, double rate, double cpu, double p50, double p99) {
        return new Measurement(round, 2, target, OptionalDouble.of(rate), OptionalDouble.of(p50),
                OptionalDouble.of(p99), OptionalDouble.of(cpu), (long) rate * 10, 0);
    }
}
