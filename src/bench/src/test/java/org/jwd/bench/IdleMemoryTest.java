package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class IdleMemoryTest {

    @Test
    void hasSettledOnceFiveSecondsOfSamplesLieWithinOnePercent() {
        assertThat(IdleMemory.settled(List.of(100_000L, 150_000L, 200_000L, 200_500L, 201_000L, 201_500L, 201_900L),
                5, 0.01)).as("the first of the last six is 1.2 % below").isFalse();
        assertThat(IdleMemory.settled(List.of(100_000L, 200_000L, 200_500L, 201_000L, 201_500L, 201_900L, 200_100L),
                5, 0.01)).isTrue();
        assertThat(IdleMemory.settled(List.of(200_000L, 200_000L, 200_000L, 200_000L, 200_000L), 5, 0.01))
                .as("five samples span four seconds").isFalse();
    }

    @Test
    void reportsTheMedianPerCountAndWhatAThousandConnectionsCostOverTheBaseline() {
        List<IdleMemory> lines = List.of(
                new IdleMemory(1, "jwd", 0, 0, 0, 0, 300 * 1024, 20 * 1024),
                new IdleMemory(2, "jwd", 0, 0, 0, 0, 310 * 1024, 22 * 1024),
                new IdleMemory(3, "jwd", 0, 0, 0, 0, 305 * 1024, 21 * 1024),
                new IdleMemory(1, "jwd", 10_000, 10_000, 0, 0, 405 * 1024, 71 * 1024),
                new IdleMemory(2, "jwd", 10_000, 9_990, 10, 0, 425 * 1024, 71 * 1024),
                new IdleMemory(3, "jwd", 10_000, 10_000, 0, 0, 415 * 1024, 72 * 1024),
                new IdleMemory(1, "nginx-hash", 0, 0, 0, 0, 10 * 1024, -1),
                new IdleMemory(1, "nginx-hash", 10_000, 10_000, 0, 0, 40 * 1024, -1));

        assertThat(IdleMemory.report(lines, List.of("jwd", "nginx-hash"))).isEqualTo("""

                | target | connections | held (fewest) | RSS MB (range) | MB per 1,000 over 0 | live heap MB | live MB per 1,000 |
                |---|---:|---:|---:|---:|---:|---:|
                | jwd | 0 | 0 | 305.0 (300.0-310.0) | - | 21.0 | - |
                | jwd | 10000 | 9990 | 415.0 (405.0-425.0) | 11.0 | 71.0 | 5.0 |
                | nginx-hash | 0 | 0 | 10.0 | - | - | - |
                | nginx-hash | 10000 | 10000 | 40.0 | 3.0 | - | - |
                """);
    }

    @Test
    void recordsTheCountsAtTheSampleAndTheClosesUntilTheEnd() {
        IdleCounts atSample = new IdleCounts(1000, 1000, 998, 0, 0, 2, 0, 0);
        IdleCounts atEnd = new IdleCounts(1000, 1000, 995, 0, 0, 2, 0, 3);

        IdleMemory memory = IdleMemory.of(2, "jwd", 400 * 1024, atSample, atEnd, 30 * 1024);

        assertThat(memory).isEqualTo(new IdleMemory(2, "jwd", 1000, 998, 2, 3, 400 * 1024, 30 * 1024));
        assertThat(IdleMemory.parse(memory.toTsv())).isEqualTo(memory);
        assertThat(memory.summary()).isEqualTo("jwd@1000, round 2: 998 of 1000 held, 2 failed, 3 closed while idle;"
                + " RSS 400.0 MB, live heap 30.0 MB");
        assertThatThrownBy(() -> IdleMemory.parse("1\tjwd\t1000")).hasMessageContaining("not a line of idle.tsv");
    }

    @Test
    void readsTheLiveHeapFromTheClassHistogramsTotal() {
        String histogram = """
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:         12345        1048576  [B (java.base@17.0.15)
                Total        234567       52428800
                """;

        assertThat(IdleMemory.liveKilobytes(histogram)).isEqualTo(51_200);
        assertThatThrownBy(() -> IdleMemory.liveKilobytes("12345: Connection refused"))
                .hasMessageContaining("no 'Total <instances> <bytes>' line");
    }

    @Test
    void failsATargetThatHeldFewerThanItsShareOrMissedARound() {
        List<IdleMemory> lines = List.of(
                new IdleMemory(1, "jwd", 10_000, 9_900, 100, 0, 1, -1),
                new IdleMemory(2, "jwd", 10_000, 9_899, 0, 101, 1, -1),
                new IdleMemory(1, "nginx-hash", 10_000, 10_000, 0, 0, 1, -1));

        assertThat(RunVerdict.idleProblems(lines, 2, 99, List.of("jwd@10000", "nginx-hash@10000"))).containsExactly(
                "jwd@10000: round 2: 9899 of 10000 connections held (0 failed, 101 closed while idle), below 99 %",
                "nginx-hash@10000: round 2 not measured");
        assertThatThrownBy(() -> RunVerdict.idleProblems(lines, 1, 99, List.of("jwd")))
                .hasMessageContaining("expected TARGET@CONNECTIONS");
    }
}
