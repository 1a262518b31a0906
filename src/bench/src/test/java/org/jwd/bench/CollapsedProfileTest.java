package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.Test;

class CollapsedProfileTest {
    /** The 12 heaviest stacks and 3 with jwd's frames of a real CPU profile of jwd under src/bench/run's sticky load. */
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
    void ownCodeIsTheDeepestLibraryFrameWithTheJdkAndKernelBelowIt() {
        CollapsedProfile profile = CollapsedProfile.parse("""
                java/lang/Thread.run;org/jwd/proxy/DispatcherServlet.service;java/util/HashMap.get 5
                java/lang/Thread.run;org/jwd/proxy/DispatcherServlet.service;org/eclipse/jetty/client/HttpClient.send 3
                java/lang/Thread.run;org/jwd/affinity/SessionTable.bind;org/ehcache/core/Ehcache.putIfAbsent 1
                java/lang/Thread.run;org/jwd/proxy/DispatcherServlet.service;writev_[k] 1
                start_thread;thread_native_entry 2
                """);

        assertThat(profile.shareOwnedBy(frame -> frame.startsWith("org/jwd/"))).isEqualTo(6.0 / 12);
        assertThat(profile.shareOwnedBy(frame -> frame.startsWith("org/ehcache/"))).isEqualTo(1.0 / 12);
        assertThat(profile.shareWith(frame -> frame.startsWith("org/jwd/"))).isEqualTo(10.0 / 12);
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
