package org.jwd.limits;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BodyPaceTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long START = 42 * SECOND;

    @Test
    void aBodyTricklingAFewBytesEveryFiveSecondsIsTooSlowAtItsSecondChunk() {
        BodyPace pace = new BodyPace(1024, START);

        assertThat(pace.arrived(20, START)).isTrue();
        pace.delivered(START);
        assertThat(pace.arrived(20, START + 5 * SECOND)).isFalse();
    }

    @Test
    void aSmallBodyInTwoPacketsWithinTheFirstSecondIsKept() {
        BodyPace pace = new BodyPace(1024, START);

        assertThat(pace.arrived(100, START)).isTrue();
        pace.delivered(START);
        assertThat(pace.arrived(100, START + 800_000_000L)).isTrue();
    }

    @Test
    void aBodyAtTheRateIsKeptAndOneJustBelowItIsNot() {
        BodyPace atRate = new BodyPace(1024, START);
        BodyPace below = new BodyPace(1024, START);

        assertThat(atRate.arrived(3 * 1024, START + 4 * SECOND)).isTrue();
        assertThat(below.arrived(3 * 1024 - 1, START + 4 * SECOND)).isFalse();
    }

    @Test
    void theTimeAChunkWaitsForASlowServerIsNotTheClients() {
        BodyPace pace = new BodyPace(1024, START);

        assertThat(pace.arrived(64 * 1024, START)).isTrue();
        pace.delivered(START + 60 * SECOND);
        assertThat(pace.arrived(64 * 1024, START + 60 * SECOND)).isTrue();
        pace.delivered(START + 120 * SECOND);
        // 128 KB in the 3 s jwd waited for the client, though 123 s passed
        assertThat(pace.arrived(10, START + 123 * SECOND)).isTrue();
    }

    @Test
    void aRateOfZeroKeepsEveryBody() {
        BodyPace pace = new BodyPace(0, START);

        assertThat(pace.arrived(1, START + 3600 * SECOND)).isTrue();
    }
}
