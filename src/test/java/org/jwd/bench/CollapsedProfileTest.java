package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.Test;

class CollapsedProfileTest {
    /** The 12 heaviest stacks and 3 with jwd's frames of a real CPU profile of jwd under bench/run's sticky load. */
    private final CollapsedProfile cpu = CollapsedProfile.parse(Recorded.text("profiles/jwd-cpu.collapsed"));

    @Test
    void sumsTheWeightsOfEveryStack() {
        assertThat(cpu.stacks()).hasSize(15);
        assertThat(cpu.total()).isEqualTo(35);
    }

    @Test
    void sharesCountAStackOnceWhereverTheFrameIs() {
        assertThat(cpu.shareEndingIn(frame -> frame.endsWith("_[k]"))).isEqualTo(15.0 / 35);
        assertThat(cpu.shareWith(frame -> frame.startsWith("org/jwd/"))).isEqualTo(3.0 / 35);
        assertThat(cpu.shareWith(frame -> frame.startsWith("CompileBroker::"))).isEqualTo(17.0 / 35);
        assertThat(cpu.shareWith(frame -> frame.startsWith("no/such/"))).isZero();
    }

    @Test
    void heaviestLeavesAddUpEveryStackEndingThere() {
        assertThat(cpu.heaviestLeaves(3)).containsExactly(entry("finish_task_switch.isra.0_[k]", 13L),
                entry("PhaseChaitin::Split", 3L), entry("PhaseChaitin::interfere_with_live", 3L));
    }

    @Test
    void anEmptyProfileHasNoShares() {
        CollapsedProfile empty = CollapsedProfile.parse("\n");

        assertThat(empty.total()).isZero();
        assertThat(empty.shareWith(frame -> true)).isZero();
        assertThat(empty.heaviestLeaves(5)).isEmpty();
    }

    @Test
    void aLineWithoutWeightIsNamed() {
        assertThatThrownBy(() -> CollapsedProfile.parse("java/lang/Thread.run;Foo.bar 3\njava/lang/Thread.run;Foo.baz"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a collapsed stack").hasMessageContaining("'java/lang/Thread.run;Foo.baz'");
    }
}
