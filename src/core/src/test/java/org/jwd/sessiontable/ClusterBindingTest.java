package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClusterBindingTest {
    private static final long T = 4_000; // SessionTableTimeout; R = T/4 = 1 s

    @Test
    void encodesTheServerAndTheStampOfTheLastWrite() {
        ClusterBinding binding = new ClusterBinding("j2ee-1", 1_700_000_000_123L);

        assertThat(binding.encode()).isEqualTo("j2ee-1|1700000000123");
        assertThat(ClusterBinding.decode("j2ee-1|1700000000123")).isEqualTo(binding);
    }

    @Test
    void treatsAValueOfAnotherFormAsAbsent() {
        assertThat(ClusterBinding.decode(null)).isNull();
        assertThat(ClusterBinding.decode("j2ee1")).isNull();
        assertThat(ClusterBinding.decode("|123")).isNull();
        assertThat(ClusterBinding.decode("j2ee1|")).isNull();
        assertThat(ClusterBinding.decode("j2ee1|soon")).isNull();
    }

    @Test
    void refusesAServerIdWithTheSeparator() {
        assertThatThrownBy(() -> new ClusterBinding("a|b", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClusterBinding("|b", 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void isDueForARewriteAQuarterOfTheTimeoutAfterItsLastWrite() {
        ClusterBinding written = new ClusterBinding("a", 10_000);

        assertThat(written.isDue(10_000, T)).isFalse();
        assertThat(written.isDue(10_999, T)).isFalse();
        assertThat(written.isDue(11_000, T)).isTrue();
    }

    @Test
    void livesAtLeastTheTimeoutAfterTheLastUseAndAtMostAQuarterMore() {
        // Written at 10 s; a use at 10.9 s is not due, so the stamp stays 10 s: live until 15 s = 10.9 s + 4.1 s.
        ClusterBinding written = new ClusterBinding("a", 10_000);

        assertThat(written.isLive(14_999, T)).isTrue();
        assertThat(written.isLive(15_000, T)).isFalse();
        assertThat(ClusterBinding.liveFor(T)).isEqualTo(5_000);
        assertThat(ClusterBinding.storedFor(T)).as("the server keeps it until no node may call it live")
                .isEqualTo(6_000);
    }

    @Test
    void aStampAheadOfThisNodesClockCountsAsFresh() {
        ClusterBinding fromAFastNode = new ClusterBinding("a", 20_000);

        assertThat(fromAFastNode.isLive(19_000, T)).isTrue();
        assertThat(fromAFastNode.isDue(19_000, T)).isFalse();
    }
}
