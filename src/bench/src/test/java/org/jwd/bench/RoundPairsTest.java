package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class RoundPairsTest {
    @Test
    void eachRoundsRatioThenTheMedianAndRangeOverTheRounds() {
        // The machine was fast in round 2 and slow in round 1. The medians (1,800 and 1,800) make the two level,
        // while jwd ran 1.20, 1.25 and 1.00 times the balancer's rate round by round.
        List<Measurement> results = List.of(
                measured(1, "balancer", 1000, 4, 60), measured(1, "jwd", 1200, 3, 45),
                measured(2, "balancer", 2000, 2, 50), measured(2, "jwd", 2500, 2, 40),
                measured(3, "balancer", 1800, 3, 55), measured(3, "jwd", 1800, 6, 55));

        assertThat(RoundPairs.render(results, List.of("balancer", "jwd"))).isEqualTo("""

                #### Scenario 2, round by round: each round's ratio, the median over the rounds [its bootstrap 95 % interval] \
                (lowest-highest); (±>5 %): an interval wider than ±5 % of its median

                | ratio | rounds | req/s | p99 | proxy CPU µs/req |
                |---|---:|---:|---:|---:|
                | jwd / balancer | 3 | 1.20 [1.00-1.25] (1.00-1.25) (±>5 %) | 1.00 [0.75-2.00] (0.75-2.00) (±>5 %) \
                | 0.80 [0.75-1.00] (0.75-1.00) (±>5 %) |
                """);
    }

    @Test
    void everyPairInTheTablesOrderOnlyOverTheRoundsBothWereMeasuredIn() {
        List<Measurement> results = List.of(
                measured(1, "nginx", 4000, 1, 20), measured(1, "balancer", 1000, 4, 60),
                measured(1, "jwd", 2000, 2, 50), Measurement.failed(2, 2, "jwd"),
                measured(2, "nginx", 4000, 1, 20), measured(2, "balancer", 2000, 2, 50));

        assertThat(RoundPairs.render(results, List.of("nginx", "balancer", "jwd")).lines()
                .filter(line -> line.startsWith("| ") && !line.startsWith("| ratio")))
                .containsExactly("| balancer / nginx | 2 | 0.38 [0.25-0.50] (0.25-0.50) (±>5 %) | 3.00 [2.00-4.00] (2.00-4.00) (±>5 %)"
                                + " | 2.75 [2.50-3.00] (2.50-3.00) (±>5 %) |",
                        "| jwd / nginx | 1 | 0.50 [0.50-0.50] (0.50-0.50) | 2.00 [2.00-2.00] (2.00-2.00) | 2.50 [2.50-2.50] (2.50-2.50) |",
                        "| jwd / balancer | 1 | 2.00 [2.00-2.00] (2.00-2.00) | 0.50 [0.50-0.50] (0.50-0.50) | 0.83 [0.83-0.83] (0.83-0.83) |");
    }

    @Test
    void aTargetWithoutAProxyProcessHasNoCpuRatioAndAScenarioWithOneTargetNoTable() {
        Measurement direct = new Measurement(1, 1, "direct", OptionalDouble.of(5000), OptionalDouble.of(1),
                OptionalDouble.of(2), OptionalDouble.empty(), 50_000, 0);
        Measurement jwd = new Measurement(1, 1, "jwd", OptionalDouble.of(2500), OptionalDouble.of(2),
                OptionalDouble.of(5), OptionalDouble.of(40), 25_000, 0);

        assertThat(RoundPairs.render(List.of(direct, jwd), List.of("direct", "jwd")))
                .endsWith("| jwd / direct | 1 | 0.50 [0.50-0.50] (0.50-0.50) | 2.50 [2.50-2.50] (2.50-2.50) | - |\n");
        assertThat(RoundPairs.render(List.of(jwd), List.of("direct", "jwd"))).isEmpty();
    }

    private static Measurement measured(int round, String target, double rate, double p99, double cpu) {
        return new Measurement(round, 2, target, OptionalDouble.of(rate), OptionalDouble.of(p99 / 2),
                OptionalDouble.of(p99), OptionalDouble.of(cpu), (long) rate * 10, 0);
    }
}
