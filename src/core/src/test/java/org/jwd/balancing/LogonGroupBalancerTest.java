package org.jwd.balancing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.jwd.balancing.Fixtures.logon;
import static org.jwd.balancing.Fixtures.noRandom;
import static org.jwd.balancing.Fixtures.sequence;
import static org.jwd.balancing.Fixtures.servers;
import static org.jwd.balancing.Fixtures.split;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;

import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.junit.jupiter.api.Test;

class LogonGroupBalancerTest {
    private static final Duration LONG = Duration.ofDays(1);
    private static final DispatcherConfig DEFAULTS = Fixtures.config("");

    private final Fixtures.Clock clock = new Fixtures.Clock();

    private Balancer balancer(char type, List<Server> servers, RandomGenerator random) {
        return balancer(type, true, LONG, 1_000_000, servers, random, DEFAULTS);
    }

    private Balancer balancer(char type, boolean extRfc, Duration refresh, int refreshDispatches,
                              List<Server> servers, RandomGenerator random, DispatcherConfig config) {
        return Balancers.create(logon(type, extRfc, refresh, refreshDispatches, servers), config, clock, random);
    }

    private static List<Double> qualities(Balancer balancer) {
        return balancer.snapshot().members().stream().map(BalancerSnapshot.Member::weight).toList();
    }

    private static Map<String, Long> count(List<String> ids) {
        return ids.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    @Test
    void buildsTheImplementationOfTheGroupsType() {
        assertThat(balancer('B', servers(1), noRandom())).isInstanceOf(BestQuality.class);
        assertThat(balancer('R', servers(1), noRandom())).isInstanceOf(QualityRoundRobin.class);
        assertThat(balancer('W', servers(1), noRandom())).isInstanceOf(QualityRoundRobin.class);
        assertThat(balancer('W', servers(1), noRandom()).snapshot().strategy()).isEqualTo("W");
    }

    @Test
    void aLoneMemberLostToAConcurrentDispatchIsDispatchedToAgain() {
        LogonGroupBalancer balancer = (LogonGroupBalancer) balancer('R', servers(1), noRandom());
        List<String> concurrent = new ArrayList<>();
        balancer.afterRank(() -> {
            balancer.afterRank(() -> { });
            concurrent.add(balancer.pick().id()); // another thread's dispatch, between this one's ranking and claim
        });

        assertThat(balancer.pick().id()).as("no second best: a ranking again").isEqualTo("a");
        assertThat(concurrent).containsExactly("a");
        assertThat(qualities(balancer)).as("both dispatches took their delta").containsExactly(998.0);
    }

    @Test
    void aLoneMemberWhoseQualityFellBelowZeroIsStillDispatchedToAfterLosingARace() {
        LogonGroupBalancer balancer = (LogonGroupBalancer) balancer('R', servers(1), noRandom());
        sequence(balancer, 1001);
        assertThat(qualities(balancer)).containsExactly(-1.0);
        List<String> concurrent = new ArrayList<>();
        balancer.afterRank(() -> {
            balancer.afterRank(() -> { });
            concurrent.add(balancer.pick().id());
        });

        assertThat(balancer.pick().id()).as("no second best, whatever the qualities").isEqualTo("a");
        assertThat(qualities(balancer)).containsExactly(-3.0);
    }

    @Test
    void aDispatchThatLosesItsBestToAConcurrentOneTakesTheSecondBest() {
        LogonGroupBalancer balancer = (LogonGroupBalancer) balancer('R', servers(1, 1), noRandom());
        List<String> concurrent = new ArrayList<>();
        balancer.afterRank(() -> {
            balancer.afterRank(() -> { });
            concurrent.add(balancer.pick().id());
        });

        assertThat(balancer.pick().id()).isEqualTo("b");
        assertThat(concurrent).containsExactly("a");
        assertThat(qualities(balancer)).containsExactly(999.0, 999.0);
    }

    // ---- R ----

    @Test
    void roundRobinGivesEveryServerQuality1000AndTakesOneADispatch() {
        Balancer balancer = balancer('R', servers(1, 5, 9), noRandom());
        assertThat(qualities(balancer)).containsExactly(1000.0, 1000.0, 1000.0);
        assertThat(sequence(balancer, 7)).isEqualTo(split("a b c a b c a"));
        assertThat(qualities(balancer)).containsExactly(997.0, 998.0, 998.0);
        assertThat(balancer.snapshot().favorite()).isEqualTo("b");
    }

    @Test
    void roundRobinSpreadsTheFirstPicksOfFreshBalancersOverAllServers() {
        Map<String, Long> firsts = new HashMap<>();
        for (int seed = 0; seed < 1_000; seed++) {
            firsts.merge(balancer('R', servers(1, 1, 1, 1), new Random(seed)).pick().id(), 1L, Long::sum);
        }
        assertThat(firsts).containsOnlyKeys("a", "b", "c", "d");
        assertThat(firsts.values()).allSatisfy(n -> assertThat(n).isGreaterThan(150L));
    }

    @Test
    void roundRobinSendsSimultaneousFirstRequestsToDifferentServers() throws Exception {
        int threads = 6;
        Balancer balancer = balancer('R', servers(1, 1, 1, 1, 1, 1), new Random(1));
        CyclicBarrier start = new CyclicBarrier(threads);
        Set<String> chosen = ConcurrentHashMap.newKeySet();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                SimpleWeightedRoundRobinTest.await(start);
                chosen.add(balancer.pick().id());
            });
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
        assertThat(chosen).hasSize(threads);
    }

    // ---- W ----

    @Test
    void weightedRoundRobinTakesTenThousandOverCapacityFromTenMillion() {
        Balancer balancer = balancer('W', servers(1, 2, 3), noRandom());
        assertThat(qualities(balancer)).containsExactly(10_000_000.0, 10_000_000.0, 10_000_000.0);
        assertThat(sequence(balancer, 10)).isEqualTo(split("a b c c b c c a b c"));
        assertThat(qualities(balancer)).containsExactly(9_980_000.0, 9_985_000.0, 9_983_335.0);
    }

    @Test
    void weightedRoundRobinFollowsTheCapacities() {
        Map<String, Long> counts = count(sequence(balancer('W', servers(1, 2, 3), new Random(2)), 6_000));
        assertThat((double) counts.get("a")).isCloseTo(1_000, within(10.0));
        assertThat((double) counts.get("b")).isCloseTo(2_000, within(20.0));
        assertThat((double) counts.get("c")).isCloseTo(3_000, within(30.0));
    }

    // ---- B ----

    @Test
    void bestQualityGetsTheDispatchAndFallsByItsDelta() {
        Balancer balancer = balancer('B', servers(1, 2, 3), noRandom());
        assertThat(qualities(balancer)).containsExactly(1000.0, 2000.0, 3000.0);
        assertThat(balancer.snapshot().favorite()).isEqualTo("c");
        assertThat(sequence(balancer, 12)).isEqualTo(split("c b c a b c c b c a b c"));
        assertThat(qualities(balancer)).containsExactly(1000.0 / 3, 2000.0 / 5, 3000.0 / 7);
        assertThat(balancer.snapshot().favorite()).isEqualTo("c");
    }

    @Test
    void bestQualityCountsEveryDispatchAsOneMoreRequestInFlightEvenAfterMillions() {
        BestQuality balancer = (BestQuality) balancer('B', servers(7, 1000), noRandom());
        for (int i = 0; i < 2; i++) {
            int capacity = i == 0 ? 7 : 1000;
            long quality = Double.doubleToRawLongBits(1000.0 * capacity);
            for (int f = 1; f <= 3_000_000; f++) {
                quality = balancer.lowered(i, quality);
            }
            assertThat(balancer.display(quality)).isEqualTo(1000.0 * capacity / 3_000_001);
        }
    }

    @Test
    void bestQualityGivesAServerWithABacklogFewerDispatches() {
        List<Server> servers = servers(1, 1);
        for (int k = 0; k < 3; k++) {
            servers.get(1).requestStarted(false);
        }
        Balancer balancer = balancer('B', servers, noRandom());
        assertThat(qualities(balancer)).containsExactly(1000.0, 250.0);
        assertThat(sequence(balancer, 8)).isEqualTo(split("a a a a b a b a"));
    }

    @Test
    void bestQualityRecomputesQualitiesFromLoadEveryAutoAbapTime() {
        List<Server> servers = servers(1, 1);
        DispatcherConfig config = Fixtures.config("rdisp/autoabaptime=300\n");
        Balancer balancer = balancer('B', true, Duration.ofSeconds(120), 1_000_000, servers, noRandom(), config);
        for (int k = 0; k < 9; k++) {
            servers.get(0).requestStarted(false); // a becomes busy after the measurement
        }
        sequence(balancer, 2); // a b: the view still believes both idle

        clock.advance(Duration.ofSeconds(120)); // a refresh: back to the last measurement, not a new one
        assertThat(balancer.pick().id()).isEqualTo("a");
        assertThat(qualities(balancer)).containsExactly(500.0, 1000.0);

        clock.advance(Duration.ofSeconds(180)); // 300 s: measured again
        assertThat(balancer.pick().id()).isEqualTo("b");
        assertThat(qualities(balancer)).containsExactly(100.0, 500.0);
        assertThat(balancer.snapshot().members().get(0).inFlight()).isEqualTo(9);
    }

    // ---- refresh, ext_rfc, favorite ----

    @Test
    void refreshesTheViewAfterRefreshDispatches() {
        Balancer balancer = balancer('R', true, LONG, 4, servers(1, 1, 1), noRandom(), DEFAULTS);
        sequence(balancer, 4); // a b c a
        assertThat(qualities(balancer)).containsExactly(998.0, 999.0, 999.0);
        sequence(balancer, 1); // the fifth dispatch finds a fresh view
        assertThat(qualities(balancer)).containsExactly(999.0, 1000.0, 1000.0);
    }

    @Test
    void refreshesTheViewAfterTheRefreshTime() {
        Balancer balancer = balancer('W', true, Duration.ofSeconds(120), 200, servers(1, 2), noRandom(), DEFAULTS);
        sequence(balancer, 3);
        clock.advance(Duration.ofSeconds(119));
        sequence(balancer, 1);
        assertThat(qualities(balancer)).containsExactly(9_980_000.0, 9_990_000.0);
        clock.advance(Duration.ofSeconds(1));
        sequence(balancer, 1);
        assertThat(qualities(balancer)).containsExactly(9_990_000.0, 10_000_000.0);
    }

    @Test
    void reordersEqualQualitiesAtRandomAtEachRefresh() {
        Balancer balancer = balancer('R', true, LONG, 1, servers(1, 1, 1, 1), new Random(3), DEFAULTS);
        // every dispatch refreshes: all qualities back to 1000, so only the shuffled order decides
        Map<String, Long> counts = count(sequence(balancer, 4_000));
        assertThat(counts).containsOnlyKeys("a", "b", "c", "d");
        assertThat(counts.values()).allSatisfy(n -> assertThat(n).isBetween(850L, 1_150L));
    }

    @Test
    void sendsEverythingToTheFavoriteWithoutExtRfc() {
        List<Server> servers = servers(1, 2, 3);
        Balancer balancer = balancer('B', false, LONG, 1_000_000, servers, new Random(4), DEFAULTS);
        assertThat(balancer.snapshot().favorite()).isEqualTo("c");
        assertThat(sequence(balancer, 100)).containsOnly("c");
        assertThat(qualities(balancer)).containsExactly(1000.0, 2000.0, 3000.0);
        servers.get(2).setState(Server.State.DOWN);
        assertThat(sequence(balancer, 10)).containsOnly("b");
        assertThat(balancer.toString()).contains("ext_rfc off");
    }

    @Test
    void keepsTheFavoriteUntilARefreshWithoutExtRfc() {
        Balancer balancer = balancer('R', false, LONG, 50, servers(1, 1, 1), new Random(5), DEFAULTS);
        List<String> ids = sequence(balancer, 500);
        for (int from = 0; from < 500; from += 50) {
            assertThat(ids.subList(from, from + 50)).as("dispatches %d..%d", from, from + 49)
                    .containsOnly(ids.get(from));
        }
        assertThat(Set.copyOf(ids)).as("favorites over 10 refreshes").hasSizeGreaterThan(1);
    }

    @Test
    void neverPicksAServerThatTakesNoNewRequests() {
        for (char type : new char[] {'B', 'R', 'W'}) {
            List<Server> servers = servers(1, 2, 3, 4);
            servers.get(1).setState(Server.State.DOWN);
            servers.get(2).setState(Server.State.DRAINED);
            servers.get(3).setState(Server.State.DISABLED);
            Balancer balancer = balancer(type, true, LONG, 3, servers, new Random(6), DEFAULTS);
            assertThat(sequence(balancer, 20)).as("type %s", type).containsOnly("a");
            servers.get(0).setState(Server.State.DOWN);
            assertThat(balancer.pick()).as("type %s", type).isNull();
            assertThat(balancer.snapshot().favorite()).as("type %s", type).isNull();
            assertThat(balancer(type, List.of(), new Random(6)).pick()).isNull();
        }
    }

    @Test
    void endsInTheStateOneThreadWouldReachUnderManyThreads() throws Exception {
        for (char type : new char[] {'B', 'W'}) {
            Balancer concurrent = balancer(type, true, LONG, 1_000_000, servers(1, 2, 3, 7), new Random(9), DEFAULTS);
            int threads = 8;
            CyclicBarrier start = new CyclicBarrier(threads);
            Map<String, Long> counts = new ConcurrentHashMap<>();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread w = new Thread(() -> {
                    SimpleWeightedRoundRobinTest.await(start);
                    for (int k = 0; k < 12_500; k++) {
                        counts.merge(concurrent.pick().id(), 1L, Long::sum); // nothing reported in flight
                    }
                });
                w.start();
                workers.add(w);
            }
            for (Thread w : workers) {
                w.join();
            }
            Balancer twin = balancer(type, true, LONG, 1_000_000, servers(1, 2, 3, 7), new Random(9), DEFAULTS);
            List<String> alone = new ArrayList<>();
            for (int k = 0; k < 100_000; k++) {
                alone.add(twin.pick().id());
            }
            assertThat(counts).as("type %s", type).isEqualTo(count(alone));
            assertThat(qualities(concurrent)).as("type %s", type).isEqualTo(qualities(twin));
        }
    }

    @Test
    void losesNoDispatchUnderManyThreads() throws Exception {
        List<Server> servers = servers(1, 2, 3);
        Balancer balancer = balancer('W', true, LONG, 600, servers, new Random(7), DEFAULTS);
        int threads = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                SimpleWeightedRoundRobinTest.await(start);
                for (int k = 0; k < 12_500; k++) {
                    Server s = balancer.pick();
                    s.requestStarted(false);
                    s.requestFinished(false);
                    counts.computeIfAbsent(s.id(), id -> new AtomicLong()).incrementAndGet();
                }
            });
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
        assertThat(counts.values().stream().mapToLong(AtomicLong::get).sum()).isEqualTo(100_000);
        assertThat(servers.stream().mapToLong(Server::served).sum()).isEqualTo(100_000);
        // W does not look at requests in flight: the shares stay those of the capacities
        assertThat((double) counts.get("c").get()).isCloseTo(50_000, within(1_000.0));
    }

    @Test
    void recomputesQualitiesFromLoadAtAutoAbapTimeEvenBeforeTheRefreshIsDue() {
        List<Server> servers = servers(1, 1);
        DispatcherConfig config = Fixtures.config("rdisp/autoabaptime=300\n");
        Balancer balancer = balancer('B', true, Duration.ofSeconds(3_600), 1_000_000, servers, noRandom(), config);
        for (int k = 0; k < 9; k++) {
            servers.get(0).requestStarted(false); // a becomes busy after the first measurement
        }
        clock.advance(Duration.ofSeconds(299));
        assertThat(balancer.pick().id()).isEqualTo("a");
        assertThat(qualities(balancer)).containsExactly(500.0, 1000.0);

        clock.advance(Duration.ofSeconds(1)); // 300 s: measured again, the refresh an hour away
        assertThat(balancer.pick().id()).isEqualTo("b");
        assertThat(qualities(balancer)).containsExactly(100.0, 500.0);

        clock.advance(Duration.ofSeconds(1)); // the next measurement is 300 s away: a's backlog is not read again
        servers.get(0).requestFinished(false);
        assertThat(sequence(balancer, 2)).isEqualTo(split("b b"));
        assertThat(qualities(balancer)).containsExactly(100.0, 250.0);
    }

    @Test
    void keepsTheOrderOfItsFirstViewUntilTheRefreshTime() {
        // the first shuffle keeps a b; every later one swaps them
        long swap = 0;
        while (Balancers.uniform(() -> 0L, 2) == Balancers.uniform(constant(swap), 2)) {
            swap++;
        }
        long swapDraw = swap;
        int[] draws = {0};
        RandomGenerator random = () -> draws[0]++ == 0 ? 0L : swapDraw;
        Balancer balancer = balancer('R', false, Duration.ofSeconds(120), 1_000_000, servers(1, 1), random, DEFAULTS);

        assertThat(balancer.pick().id()).isEqualTo("a");
        clock.advance(Duration.ofSeconds(119));
        assertThat(balancer.pick().id()).isEqualTo("a");
        clock.advance(Duration.ofSeconds(1));
        assertThat(balancer.pick().id()).isEqualTo("b");
        assertThat(balancer.toString()).startsWith("logon group PUBLIC type R (ext_rfc off: favorite only) over [a, b]")
                .contains("tie order [b a]");
        assertThat(balancer('R', servers(1, 1), noRandom()).toString())
                .startsWith("logon group PUBLIC type R over [a, b]");
    }

    private static RandomGenerator constant(long value) {
        return () -> value;
    }

    // ---- another thread's pick at an exact point of this one (the hooks run it) ----

    /**
     * Qualities given per member, each dispatch taking {@code delta}; {@link #duringLowering} and
     * {@link #duringMeasure} run once, inside a pick, where another thread's pick could come between two steps.
     */
    private final class Interleaved extends LogonGroupBalancer {
        private final long[] base;
        private final long delta;
        Runnable duringLowering;
        Runnable duringMeasure;

        Interleaved(List<Server> servers, long delta, Duration recompute, long... base) {
            this(servers, delta, recompute, clock, base);
        }

        Interleaved(List<Server> servers, long delta, Duration recompute, LongSupplier time, long... base) {
            super(logon('R', true, LONG, 1_000_000, servers), base.clone(), recompute.toNanos(), time, noRandom());
            this.base = base;
            this.delta = delta;
        }

        @Override
        String type() {
            return "T";
        }

        @Override
        long lowered(int i, long quality) {
            Runnable hook = duringLowering;
            duringLowering = null;
            if (hook != null) {
                hook.run();
            }
            return quality - delta;
        }

        @Override
        double display(long quality) {
            return quality;
        }

        @Override
        long[] measure() {
            Runnable hook = duringMeasure;
            duringMeasure = null;
            if (hook != null) {
                hook.run();
            }
            return base.clone();
        }
    }

    @Test
    void aPickThatLosesItsMemberToAnotherTakesTheSecondBestWhenItNowRanksFirst() {
        // a 850, b 1000, c 900: another pick takes b (down to 800) between this pick's scan and its dispatch
        Interleaved balancer = new Interleaved(servers(1, 1, 1), 200, LONG, 850, 1000, 900);
        List<String> nested = new ArrayList<>();
        balancer.duringLowering = () -> nested.add(balancer.pick().id());

        assertThat(balancer.pick().id()).as("c, the second best of the scan, outranks b at 800").isEqualTo("c");
        assertThat(nested).containsExactly("b");
        assertThat(qualities(balancer)).containsExactly(850.0, 800.0, 700.0);
    }

    @Test
    void theSecondBestOfAScanIsTheBestOfTheRestWhereverItStands() {
        // a 900, b 1000, c 850: another pick takes b (down to 800); a, not the last one scanned, is the second best
        Interleaved balancer = new Interleaved(servers(1, 1, 1), 200, LONG, 900, 1000, 850);
        balancer.duringLowering = balancer::pick;

        assertThat(balancer.pick().id()).isEqualTo("a");
        assertThat(qualities(balancer)).containsExactly(700.0, 800.0, 850.0);
    }

    @Test
    void aPickThatLosesItsMemberToAnotherScansAgainWhenThatMemberStillRanksFirst() {
        // a 1000, b 500: another pick takes a (down to 999) between this pick's scan and its dispatch
        Interleaved balancer = new Interleaved(servers(1, 1), 1, LONG, 1000, 500);
        balancer.duringLowering = balancer::pick;

        assertThat(balancer.pick().id()).isEqualTo("a");
        assertThat(qualities(balancer)).containsExactly(998.0, 500.0);
    }

    @Test
    void aPickThatFindsAnotherBuildingTheNextViewUsesTheCurrentOne() {
        Interleaved balancer = new Interleaved(servers(1, 1), 1, Duration.ofSeconds(300), 1000, 1000);
        List<String> nested = new ArrayList<>();
        balancer.duringMeasure = () -> nested.add(balancer.pick().id());
        sequence(balancer, 3); // a b a on the first view: 998 999

        clock.advance(Duration.ofSeconds(300));
        assertThat(balancer.pick().id()).as("the new view: both at 1000 again").isEqualTo("a");
        assertThat(nested).as("the old view, while the new one was being built").containsExactly("b");
        assertThat(qualities(balancer)).containsExactly(999.0, 1000.0);
    }

    @Test
    void aPickThatFindsTheViewRefreshedSinceItLookedUsesTheNewOne() {
        RacingClock racing = new RacingClock();
        Interleaved balancer = new Interleaved(servers(1, 1), 1, Duration.ofSeconds(300), racing, 1000, 1000);
        sequence(balancer, 3); // a b a on the first view: 998 999
        List<String> nested = new ArrayList<>();

        clock.advance(Duration.ofSeconds(300));
        racing.onRead = () -> nested.add(balancer.pick().id()); // after this pick read the view, before it refreshes
        assertThat(balancer.pick().id()).as("the view the other pick built, where a took one").isEqualTo("b");
        assertThat(nested).containsExactly("a");
        assertThat(qualities(balancer)).containsExactly(999.0, 999.0);
    }

    /** The test's clock, which runs {@link #onRead} once, the next time it is read. */
    private final class RacingClock implements LongSupplier {
        Runnable onRead;

        @Override
        public long getAsLong() {
            Runnable hook = onRead;
            onRead = null;
            if (hook != null) {
                hook.run();
            }
            return clock.getAsLong();
        }
    }
}
