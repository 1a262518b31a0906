package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

/** On wrk timelines recorded by src/bench/run cold on the loaded 2-CPU machine (2026-12-01, 30 s of sticky load). */
class ColdStartTest {
    /** jwd with its AppCDS archive: a few hundred requests per second for 15 s while C2 compiles, then ~1,700-2,600. */
    private static final String APPCDS = Recorded.text("cold/cold-appcds.txt");
    /** jwd with -XX:TieredStopAtLevel=1 (C1 only): ~4,500 req/s from its fifth second on. */
    private static final String C1_ONLY = Recorded.text("cold/cold-c1.txt");

    @Test
    void measuresFromReadyToTheFirstSecondAfterWhichTheRateHolds() {
        // Ready half a second before wrk's first whole second; the JVM was launched 11.5 s before.
        double ready = 1796107894.5;

        ColdStart start = ColdStart.of(1, "appcds", ready - 11.5, ready, APPCDS);

        assertThat(start.startToReady()).isEqualTo(11.5);
        // The median of the last 10 of the 30 whole seconds; the first 5 s: 67 218 108 117 130.
        assertThat(start.steadyRate()).isEqualTo(1687);
        assertThat(start.firstFiveRate()).isEqualTo(128);
        assertThat(start.readyTo90()).hasValue(15.5);
    }

    @Test
    void aSlowSecondLaterDoesNotUndoIt() {
        double ready = 1796107978.5;

        ColdStart start = ColdStart.of(1, "c1", ready - 2.9, ready, C1_ONLY);

        // Seconds 27-29 fall to 4,398 and 4,287 (under 90 % of 5,553.5), but no 5-second window does.
        assertThat(start.steadyRate()).isEqualTo(5553.5);
        assertThat(start.readyTo90()).hasValue(6.5);
    }

    @Test
    void aRateThatNeverHoldsIsNotReached() {
        String falling = "timeline 100 1000\ntimeline 101 1000\ntimeline 102 1000\ntimeline 103 1000\n"
                + "timeline 104 1000\ntimeline 105 1000\ntimeline 106 1000\ntimeline 107 1000\ntimeline 108 1000\n"
                + "timeline 109 1000\ntimeline 110 100\ntimeline 111 1000\ntimeline 112 1000\ntimeline 113 10\n";

        // The median of the last 4 whole seconds is 1,000; the last window (108-112) has a mean of 820.
        assertThat(ColdStart.of(1, "x", 99, 99.5, falling).readyTo90()).isEmpty();
    }

    @Test
    void aSecondWithoutRequestsCountsAsZero() {
        assertThat(ColdStart.timeline("timeline 5 10\ntimeline 7 30\n"))
                .containsExactly(new ColdStart.Second(5, 10), new ColdStart.Second(6, 0), new ColdStart.Second(7, 30));
    }

    @Test
    void tooShortATimelineIsNamed() {
        assertThatThrownBy(() -> ColdStart.of(1, "x", 0, 1, "timeline 5 10\ntimeline 6 10\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 11 seconds")
                .hasMessageContaining("got 2");
    }

    @Test
    void readsBackWhatItWritesAndReportsMedians() {
        ColdStart reached = new ColdStart(1, "appcds", 10.5, OptionalDouble.of(16), 2400, 240);
        ColdStart missed = new ColdStart(2, "appcds", 9.5, OptionalDouble.empty(), 3200, 350);

        assertThat(ColdStart.parse(reached.toTsv())).isEqualTo(reached);
        assertThat(ColdStart.parse(missed.toTsv())).isEqualTo(missed);
        assertThat(ColdStart.report(List.of(reached, missed), List.of("appcds", "no-appcds"))).isEqualTo("""

                | variant | start to ready s | ready to 90 % s | steady req/s | first 5 s req/s | rounds not reaching 90 % |
                |---|---:|---:|---:|---:|---:|
                | appcds | 10.0 | 16 | 2800 | 295 | 1 of 2 |
                | no-appcds | - | - | - | - | 0 of 0 |
                """);
    }
}
