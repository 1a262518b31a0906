package org.jwd.balancing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jwd.balancing.Fixtures.internal;
import static org.jwd.balancing.Fixtures.logon;
import static org.jwd.balancing.Fixtures.noRandom;
import static org.jwd.balancing.Fixtures.servers;

import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

import org.jwd.config.DispatcherConfig;
import org.junit.jupiter.api.Test;

class BalancersTest {
    @Test
    void choosesTheConfiguredStrategyForInternalGroups() {
        assertThat(Balancers.create(internal(servers(1, 2)), Fixtures.config(""), () -> 0L, noRandom()))
                .isInstanceOf(WeightedRoundRobin.class);
        assertThat(Balancers.create(internal(servers(1, 2)),
                Fixtures.strategy(DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN), () -> 0L, noRandom()))
                .isInstanceOf(SimpleWeightedRoundRobin.class);
    }

    @Test
    void choosesTheStrategyForALogonGroupByDefaultAndKeepsItsTypeBeside() {
        Balancer balancer = Balancers.create(Fixtures.logonByStrategy('B', true, Duration.ofSeconds(120), 200,
                servers(1, 2)), Fixtures.strategy(DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN), () -> 0L, noRandom());
        assertThat(balancer).isInstanceOf(LogonGroupByCapacity.class);
        assertThat(balancer.snapshot().strategy()).isEqualTo(DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN);
        assertThat(balancer.snapshot().qualityView().strategy()).isEqualTo("B");
        assertThat(Balancers.create(internal(servers(1)), Fixtures.config(""), () -> 0L, noRandom()).snapshot()
                .qualityView()).isNull();
    }

    @Test
    void choosesTheLogonGroupsTypeWhateverTheStrategyWhenTheGroupOptsIn() {
        DispatcherConfig simple = Fixtures.strategy(DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN);
        assertThat(Balancers.create(logon('B', true, Duration.ofSeconds(120), 200, servers(1)), simple,
                () -> 0L, noRandom())).isInstanceOf(BestQuality.class);
        assertThat(Balancers.create(logon('r', true, Duration.ofSeconds(120), 200, servers(1)), simple,
                () -> 0L, noRandom()).snapshot().strategy()).isEqualTo("R");
    }

    @Test
    void worksOnTheSystemClockToo() {
        Balancer balancer = Balancers.create(logon('B', true, Duration.ofSeconds(120), 200, servers(1, 1)),
                Fixtures.config(""));
        assertThat(balancer.pick()).isNotNull();
    }

    @Test
    void describesItselfForLogs() {
        assertThat(Balancers.create(logon('W', true, Duration.ofSeconds(120), 200, servers(1, 2)),
                Fixtures.config(""), () -> 0L, noRandom()).toString())
                .contains("logon group PUBLIC type W", "[a, b]", "refresh 2m or 200 dispatches",
                        "deltas [10000, 5000]");
        assertThat(Balancers.create(logon('B', true, Duration.ofSeconds(120), 200, servers(1, 2)),
                Fixtures.config(""), () -> 0L, noRandom()).toString())
                .contains("type B", "every 5m");
    }

    @Test
    void drawsUniformIndexesEvenFromNeighbouringSeeds() {
        int[] counts = new int[4];
        for (int seed = 0; seed < 4_000; seed++) {
            counts[Balancers.uniform(new Random(seed), 4)]++;
        }
        assertThat(Arrays.stream(counts).boxed()).allSatisfy(n -> assertThat(n).isBetween(850, 1_150));
        assertThat(Balancers.uniform(noRandom(), 7)).isZero();
    }

    @Test
    void scramblesWithTheSplitMix64Finalizer() {
        // SplitMix64 seeded with 0 adds its gamma, then finalizes: its first output is 0xe220a8397b1dcdaf
        assertThat(Balancers.uniform(() -> 0x9e3779b97f4a7c15L, 1 << 30)).isEqualTo((int) (0xe220a839L >>> 2));
    }

    @Test
    void turnsAbsurdlyLongSettingsIntoALongTimeRatherThanAnOverflow() {
        assertThat(Balancers.nanos(Duration.ofSeconds(90))).isEqualTo(90_000_000_000L);
        assertThat(Balancers.nanos(Duration.ofDays(365L * 1_000))).isEqualTo(Long.MAX_VALUE / 4);
        assertThat(Balancers.nanos(Duration.ofDays(365L * 100))).isEqualTo(Long.MAX_VALUE / 4);
    }
}
