package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class ResultTableTest {
    private static final List<String> TARGETS =
            List.of("direct", "nginx-rr", "nginx-hash", "haproxy-rr", "haproxy-stick", "balancer", "jwd");
    private static final ResultTable BENCH_RUN = new ResultTable(TARGETS,
            List.of("no cookies", "sticky clients, 10000 sessions (JSESSIONID)"), List.of("nginx-rr", "nginx-hash"));

    @Test
    void printsWhatTheAwkReportPrintedForTheSameResults() {
        List<Measurement> results = Recorded.text("results-3-rounds.tsv").lines().skip(1).map(Measurement::parse)
                .toList();

        assertThat(BENCH_RUN.render(results)).isEqualTo(Recorded.text("table-3-rounds.md"));
    }

    @Test
    void mediansOfOddAndEvenCountsAndOfNothing() {
        assertThat(ResultTable.median(new double[] {3, 1, 2})).hasValue(2);
        assertThat(ResultTable.median(new double[] {4, 1, 3, 2})).hasValue(2.5);
        assertThat(ResultTable.median(new double[] {7})).hasValue(7);
        assertThat(ResultTable.median(new double[0])).isEmpty();
    }

    @Test
    void aTargetWithoutAnyResultShowsDashesAndItsErrors() {
        ResultTable table = new ResultTable(List.of("direct", "jwd"), List.of("no cookies"), List.of("direct"));
        List<Measurement> results = List.of(
                new Measurement(1, 1, "direct", OptionalDouble.of(1000), OptionalDouble.of(1), OptionalDouble.of(2),
                        OptionalDouble.empty(), 10_000, 0),
                Measurement.failed(1, 1, "jwd"), Measurement.failed(2, 1, "jwd"));

        assertThat(table.render(results)).endsWith("| direct | 1000 | 1.00 | 2.00 | - | 1.00 | 1.00 | 0 |\n"
                + "| jwd | - | - | - | - | - | - | 2 |\n");
    }

    @Test
    void leavesOutATargetNotMeasuredInAScenario() {
        // the gateway is measured without cookies only: no row of dashes for it among the sticky ones
        ResultTable table = new ResultTable(List.of("gateway", "jwd"), List.of("no cookies", "sticky"),
                List.of("gateway", "jwd"));
        Measurement gateway = new Measurement(1, 1, "gateway", OptionalDouble.of(1000), OptionalDouble.of(1),
                OptionalDouble.of(2), OptionalDouble.of(80), 10_000, 0);
        Measurement jwd = new Measurement(1, 2, "jwd", OptionalDouble.of(2000), OptionalDouble.of(1),
                OptionalDouble.of(2), OptionalDouble.of(60), 20_000, 0);

        String rendered = table.render(List.of(gateway, jwd));

        assertThat(rendered.lines().filter(line -> line.startsWith("| gateway |"))).hasSize(1);
        assertThat(rendered.lines().filter(line -> line.startsWith("| jwd |"))).hasSize(1);
    }

    @Test
    void leavesOutAScenarioNothingWasMeasuredIn() {
        List<Measurement> stickyOnly = Recorded.text("results-3-rounds.tsv").lines().skip(1).map(Measurement::parse)
                .filter(m -> m.scenario() == 2).toList();

        String table = BENCH_RUN.render(stickyOnly);

        assertThat(table).doesNotContain("Scenario 1").startsWith("\n### Scenario 2: sticky clients");
        assertThat(table.lines().filter(line -> line.startsWith("| jwd |"))).hasSize(1);
    }
}
