package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class ClusterTrafficTest {
    @Test
    void readsEachConnectionsCountersAndTakesAMissingOneAsZero() {
        // the second connection had sent nothing yet: ss leaves bytes_sent and data_segs_out out
        assertThat(ClusterTraffic.connections(Recorded.text("ss/before.txt"))).containsOnly(
                org.assertj.core.api.Assertions.entry("127.0.0.1:34514 127.0.0.1:37589",
                        new ClusterTraffic.Counters(3, 3, 300, 150)),
                org.assertj.core.api.Assertions.entry("127.0.0.1:34516 127.0.0.1:37589",
                        ClusterTraffic.Counters.NONE));
    }

    @Test
    void theTrafficBetweenTwoSnapshotsPerConnectionAConnectionOpenedMeanwhileFromZero() {
        // deltas: 10 + 4 + 2 segments out, 1000 + 400 + 200 bytes out; in: 10 + 4 + 2, 500 + 200 + 100
        ClusterTraffic traffic = ClusterTraffic.between(1, "jwd-cluster", 8, Recorded.text("ss/before.txt"),
                Recorded.text("ss/after.txt"), OptionalDouble.of(40_000));

        assertThat(traffic).isEqualTo(new ClusterTraffic(1, "jwd-cluster", 8, 3, 16, 16, 1600, 800,
                OptionalDouble.of(5)));
        assertThat(traffic.summary()).isEqualTo("round 1 jwd-cluster: to the Terracotta server 2.000 segments and 200"
                + " bytes per request, from it 2.000 and 100, over 3 connections; its CPU 5.00 us/req");
        assertThat(ClusterTraffic.parse(traffic.toTsv())).isEqualTo(traffic);
    }

    @Test
    void reportsTheMediansPerRequestOverTheRounds() {
        List<ClusterTraffic> rows = List.of(
                new ClusterTraffic(1, "jwd-cluster", 1000, 2, 100, 100, 20_000, 10_000, OptionalDouble.of(3)),
                new ClusterTraffic(2, "jwd-cluster", 1000, 2, 300, 300, 60_000, 30_000, OptionalDouble.of(9)),
                new ClusterTraffic(3, "jwd-cluster", 2000, 2, 400, 400, 80_000, 40_000, OptionalDouble.empty()));

        assertThat(ClusterTraffic.report(rows, List.of("jwd-cluster", "jwd"))).endsWith(
                "| jwd-cluster | 3 | 0.200 | 0.200 | 40 | 20 | 6.0 |\n");
    }

    @Test
    void aLineThatIsNotOneOfTheFilesIsNamed() {
        assertThatThrownBy(() -> ClusterTraffic.parse("1\tjwd-cluster\t8"))
                .hasMessageContaining("'1\tjwd-cluster\t8': expected 9 tab-separated fields");
        assertThatThrownBy(() -> ClusterTraffic.connections("\t bytes_sent:1"))
                .hasMessageContaining("before any connection");
    }
}
