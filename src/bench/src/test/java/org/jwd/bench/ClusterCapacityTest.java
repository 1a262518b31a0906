package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class ClusterCapacityTest {
    private static final String METRICS = """
            # HELP jwd_session_table_bindings_total New bindings of a session to a server
            # TYPE jwd_session_table_bindings_total counter
            jwd_session_table_bindings_total 1000.0
            jwd_session_table_full 0.0
            jwd_session_table_cluster_writes_total 2000.0
            jwd_session_table_cluster_write_seconds_total 0.5
            """;

    @Test
    void readsTheSuitesSeriesFromAScrapeAndNamesOneMissing() {
        assertThat(ClusterCapacity.Scrape.parse(METRICS)).isEqualTo(new ClusterCapacity.Scrape(1000, 2000, 0.5,
                false));
        assertThat(ClusterCapacity.Scrape.parse(METRICS.replace("full 0.0", "full 1.0")).full()).isTrue();
        assertThatThrownBy(() -> ClusterCapacity.Scrape.parse("jwd_session_table_bindings_total 1.0\n"))
                .hasMessage("metrics: no series jwd_session_table_cluster_writes_total");
    }

    @Test
    void aStepAddsBothNodesDeltasAndTakesTheSlowerNodesLatencies() {
        ClusterCapacity.Scrape before = new ClusterCapacity.Scrape(1000, 2000, 0.5, false);
        // node 1: 3,000 bindings, 6,000 writes in 1.2 s; node 2: 1,000 bindings, 2,000 writes in 0.4 s
        List<ClusterCapacity.Scrape> after = List.of(new ClusterCapacity.Scrape(4000, 8000, 1.7, false),
                new ClusterCapacity.Scrape(2000, 4000, 0.9, false));
        List<WrkResult> wrk = List.of(new WrkResult(300, 1.5, 9, 3000, 0), new WrkResult(100, 2.5, 7, 1000, 2));

        ClusterCapacity step = ClusterCapacity.of(2, 4, 10, List.of(before, before), after, wrk, 400_000_000L,
                600_000_000L, 200_000_000L, 10_000);

        assertThat(step).isEqualTo(new ClusterCapacity(2, 4, 10, 3000, 1000, 2, 4000, 8000, 1_600_000_000L,
                400_000_000L, 600_000_000L, 200_000_000L, 10_000, 2.5, 9, false));
        assertThat(step.bindingsPerSecond()).isEqualTo(400);
        assertThat(step.bindingsPerRequest()).isEqualTo(1);
        assertThat(step.writesPerBinding()).isEqualTo(2);
        assertThat(step.writeMicros()).isEqualTo(200);
        assertThat(step.serverCpuMicrosPerBinding()).isEqualTo(100);
        assertThat(step.serverCpus()).isEqualTo(0.04);
        assertThat(step.nodesCpus()).isEqualTo(0.08);
        assertThat(step.node1CpuMicrosPerRequest()).isEqualTo(200);
        assertThat(step.node2CpuMicrosPerRequest()).isEqualTo(200);
        assertThat(step.summary()).isEqualTo("round 2, 4 connections per node: 400 new bindings/s (1.00 per request,"
                + " 2.00 writes each), write 200 µs, server CPU 100.0 µs/binding (0.04 CPUs), nodes 0.08 CPUs,"
                + " p99 9.00 ms");
        assertThat(ClusterCapacity.parse(step.toTsv())).isEqualTo(step);
    }

    @Test
    void theCpuSharesAreTakenOverTheTimeTheCpuWasReadOverNotTheRunsSeconds() {
        ClusterCapacity step = new ClusterCapacity(1, 1, 2, 100, 100, 0, 200, 400, 0, 500_000_000L, 500_000_000L,
                500_000_000L, 2_500, 1, 1, false);

        assertThat(step.serverCpus()).isEqualTo(0.2);
        assertThat(step.nodesCpus()).isEqualTo(0.4);
        assertThat(step.bindingsPerSecond()).as("over the run's seconds").isEqualTo(100);
    }

    @Test
    void aStepFromTheRecordedScrapesAndWrkOutputsOfASmokeRun() {
        // src/bench/run cluster-capacity, 2 s at 4 connections per node, on 2026-12-05 (the metrics cut to the
        // session table's series); that run's capacity.tsv had: 122 + 131 requests, 261 bindings, 517 writes
        List<ClusterCapacity.Scrape> before = List.of(scrape("node1.metrics-before"), scrape("node2.metrics-before"));
        List<ClusterCapacity.Scrape> after = List.of(scrape("node1.metrics-after"), scrape("node2.metrics-after"));
        List<WrkResult> wrk = List.of(WrkResult.parse(Recorded.text("capacity/node1.wrk.txt")).orElseThrow(),
                WrkResult.parse(Recorded.text("capacity/node2.wrk.txt")).orElseThrow());

        ClusterCapacity step = ClusterCapacity.of(1, 4, 2, before, after, wrk, 910_000_000L, 890_000_000L,
                1_610_000_000L, 2_600);

        assertThat(step.toTsv()).isEqualTo("1\t4\t2\t122\t131\t0\t261\t517\t8385851937\t910000000\t890000000"
                + "\t1610000000\t2600\t64.410\t166.200\t0");
        assertThat(step.writesPerBinding()).as("the binding and the no-binding marker").isCloseTo(1.98,
                org.assertj.core.api.Assertions.within(0.01));
    }

    private static ClusterCapacity.Scrape scrape(String name) {
        return ClusterCapacity.Scrape.parse(Recorded.text("capacity/" + name));
    }

    @Test
    void aLineThatIsNotOneOfTheFilesIsNamed() {
        assertThatThrownBy(() -> ClusterCapacity.parse("1\t4\t10"))
                .hasMessage("capacity line '1\t4\t10': expected 16 tab-separated fields");
    }
}
