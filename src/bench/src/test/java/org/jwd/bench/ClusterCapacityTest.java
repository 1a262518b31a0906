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
                600_000_000L, 200_000_000L);

        assertThat(step).isEqualTo(new ClusterCapacity(2, 4, 10, 3000, 1000, 2, 4000, 8000, 1_600_000_000L,
                400_000_000L, 600_000_000L, 200_000_000L, 2.5, 9, false));
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
    void aLineThatIsNotOneOfTheFilesIsNamed() {
        assertThatThrownBy(() -> ClusterCapacity.parse("1\t4\t10"))
                .hasMessage("capacity line '1\t4\t10': expected 15 tab-separated fields");
    }
}
