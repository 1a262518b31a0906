package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class WrkResultTest {
    @Test
    void readsRateLatencyPercentilesAndRequests() {
        WrkResult jwd = WrkResult.parse(Recorded.text("wrk-jwd-no-cookies.txt")).orElseThrow();

        assertThat(jwd).isEqualTo(new WrkResult(637.03, 58.02, 459.82, 1330, 0));
    }

    @Test
    void readsSubMillisecondAndThousandsFormsAsWrkPrintsThem() {
        WrkResult nginx = WrkResult.parse(Recorded.text("wrk-nginx-hash-sticky.txt")).orElseThrow();
        assertThat(nginx).isEqualTo(new WrkResult(21299.75, 1.94, 58.58, 43979, 0));

        WrkResult socketErrors = WrkResult.parse(Recorded.text("wrk-socket-errors.txt")).orElseThrow();
        assertThat(socketErrors.p50Millis()).isCloseTo(0.299, within(1e-9));
    }

    @Test
    void countsAnswersThatAreNeither2xxNor3xxAsErrors() {
        assertThat(WrkResult.parse(Recorded.text("wrk-non-2xx.txt")).orElseThrow().errors()).isEqualTo(1370);
    }

    @Test
    void countsEverySocketError() {
        assertThat(WrkResult.parse(Recorded.text("wrk-socket-errors.txt")).orElseThrow().errors()).isEqualTo(4);
        String all = Recorded.text("wrk-socket-errors.txt").replace("connect 0, read 4, write 0, timeout 0",
                "connect 1, read 20, write 300, timeout 4000");
        assertThat(WrkResult.parse(all).orElseThrow().errors()).isEqualTo(4321);
    }

    @Test
    void aRunThatCouldNotConnectHasNoResult() {
        assertThat(WrkResult.parse(Recorded.text("wrk-refused.txt"))).isEmpty();
        assertThat(WrkResult.parse("")).isEmpty();
    }

    @Test
    void aRunCutShortBeforeItsSummaryHasNoResult() {
        String output = Recorded.text("wrk-jwd-no-cookies.txt");
        String cut = output.substring(0, output.indexOf("Requests/sec:"));

        assertThat(WrkResult.parse(cut)).isEmpty();
    }

    @Test
    void latenciesInEveryUnitWrkUses() {
        assertThat(WrkResult.millis("805.00us")).isCloseTo(0.805, within(1e-9));
        assertThat(WrkResult.millis("1.20ms")).isEqualTo(1.2);
        assertThat(WrkResult.millis("1.05s")).isEqualTo(1050);
        assertThat(WrkResult.millis("2.00m")).isEqualTo(120_000);
        assertThat(WrkResult.millis("1.00h")).isEqualTo(3_600_000);
        assertThatThrownBy(() -> WrkResult.millis("12parsecs")).hasMessageContaining("'12parsecs'");
    }
}
