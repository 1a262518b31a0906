package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class CapacityReportTest {
    /**
     * A step of 10 s: {@code rate} new bindings/s from as many requests, two writes each of {@code writeMicros}, the
     * server at 50 µs of CPU per binding, the nodes' CPU in CPUs.
     */
    private static ClusterCapacity step(int round, int connections, long rate, double writeMicros, double nodesCpus) {
        long bindings = rate * 10;
        long writes = 2 * bindings;
        long nodeNanos = (long) (nodesCpus * 10e9 / 2);
        return new ClusterCapacity(round, connections, 10, bindings / 2, bindings / 2, 0, bindings, writes,
                (long) (writes * writeMicros * 1_000), bindings * 50_000, nodeNanos, nodeNanos, 10_000, 1, 5, false);
    }

    @Test
    void theMediansOfEachStepInTheOrderOfItsConnections() {
        List<ClusterCapacity> rows = List.of(step(1, 4, 3000, 300, 0.9), step(1, 1, 1000, 200, 0.3),
                step(2, 1, 1200, 220, 0.3), step(3, 1, 800, 180, 0.3));

        List<CapacityReport.Step> steps = CapacityReport.steps(rows);

        assertThat(steps).extracting(CapacityReport.Step::connections).containsExactly(1, 4);
        assertThat(steps.get(0).rounds()).isEqualTo(3);
        assertThat(steps.get(0).bindingsPerSecond()).isEqualTo(1000);
        assertThat(steps.get(0).writeMicros()).isEqualTo(200);
        assertThat(CapacityReport.render(rows, 1)).contains("| 1 | 3 | 1000 | 1000 | 1.00 | 2.00 | 200 | 50.0 | 0.05"
                + " | 0.30 | 300.0 / 300.0 | 1.00 | 5.00 |\n");
    }

    @Test
    void whenTheNodesRunOutOfCpuFirstTheHighestRateIsTheVerdictAndTheLatencyDidNotDouble() {
        List<ClusterCapacity> rows = List.of(step(1, 1, 1000, 200, 0.3), step(1, 2, 2000, 250, 0.6),
                step(1, 4, 2900, 390, 0.95));

        assertThat(CapacityReport.verdict(CapacityReport.steps(rows), 1)).isEqualTo("Verdict: the server carries at"
                + " least 2900 new bindings/s from two nodes (4 connections per node) at 50.0 µs of its CPU each; its"
                + " write latency did not double (390 µs at the last step against 200 µs at the first), and the nodes'"
                + " CPU ran out (0.95 of their 1 CPUs at the last step).\nSizing: one CPU of the server makes about"
                + " 20000 new bindings/s (1e6 / 50.0 µs per binding).");
    }

    @Test
    void whenTheLatencyDoublesTheRateBeforeThatStepIsTheVerdict() {
        List<ClusterCapacity> rows = List.of(step(1, 1, 1000, 200, 0.2), step(1, 2, 2000, 300, 0.4),
                step(1, 4, 2100, 400, 0.5), step(1, 8, 2200, 900, 0.5));

        assertThat(CapacityReport.verdict(CapacityReport.steps(rows), 1)).startsWith("Verdict: the server carries at"
                + " least 2000 new bindings/s from two nodes (2 connections per node) at 50.0 µs of its CPU each; its"
                + " write latency doubled at step 3 (4 connections per node: 400 µs against 200 µs at the first); the"
                + " nodes' CPU did not run out (0.50 of their 1 CPUs at the last step)");
    }

    @Test
    void aStepThatMadeFewerBindingsThanRequestsIsWarnedOf() {
        List<ClusterCapacity> rows = new ArrayList<>(List.of(step(1, 1, 1000, 200, 0.2)));
        ClusterCapacity full = step(1, 2, 2000, 200, 0.4);
        rows.add(new ClusterCapacity(1, 2, 10, 20_000, 20_000, 0, full.bindings(), full.writes(), full.writeNanos(),
                full.serverCpuNanos(), full.node1CpuNanos(), full.node2CpuNanos(), 10_000, 1, 5, true));

        assertThat(CapacityReport.render(rows, 1)).contains("a node's table was FULL\n").contains("Warning: at 2"
                + " connections per node only 0.50 new bindings per request (a node's session table was full): that"
                + " step measures less than new sessions.\nVerdict:");
    }
}
