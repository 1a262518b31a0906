package org.jwd.balancing;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.jwd.balancing.Fixtures.internal;
import static org.jwd.balancing.Fixtures.noRandom;
import static org.jwd.balancing.Fixtures.sequence;
import static org.jwd.balancing.Fixtures.servers;
import static org.jwd.balancing.Fixtures.split;
import static org.jwd.balancing.Fixtures.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.junit.jupiter.api.Test;

class WeightedRoundRobinTest {
    private static Map<String, Long> count(List<String> ids) {
        return ids.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    @Test
    void isTheDefaultStrategy() {
        Balancer balancer = Balancers.create(internal(servers(1, 2)), Fixtures.config(""), () -> 0L, noRandom());
        assertThat(balancer).isInstanceOf(WeightedRoundRobin.class);
        assertThat(balancer.snapshot().strategy()).isEqualTo(DispatcherConfig.WEIGHTED_ROUND_ROBIN);
    }

    @Test
    void aPickThatLosesItsMemberToAConcurrentPickTakesTheSecondBest() {
        WeightedRoundRobin balancer = new WeightedRoundRobin(internal(servers(1, 1)), 0, 0L);
        List<String> concurrent = new ArrayList<>();
        balancer.afterScan(() -> {
            balancer.afterScan(() -> { });
            concurrent.add(balancer.pick().id()); // another thread's pick, between this one's scan and its claim
        });

        assertThat(balancer.pick().id()).as("the second best, claimed once").isEqualTo("b");
        assertThat(concurrent).containsExactly("a");
        assertThat(sequence(balancer, 4)).as("each raised once: the round goes on evenly")
                .isEqualTo(split("a b a b"));
    }

    @Test
    void aLoneMemberLostToAConcurrentPickIsPickedAgain() {
        WeightedRoundRobin balancer = new WeightedRoundRobin(internal(servers(1)), 0, 0L);
        List<String> concurrent = new ArrayList<>();
        balancer.afterScan(() -> {
            balancer.afterScan(() -> { });
            concurrent.add(balancer.pick().id());
        });

        assertThat(balancer.pick().id()).as("no second best: a scan again").isEqualTo("a");
        assertThat(concurrent).containsExactly("a");
    }

    @Test
    void aMemberLostToAConcurrentPickIsStillTakenWhenItRanksFirstAfterThatPick() {
        WeightedRoundRobin balancer = new WeightedRoundRobin(internal(servers(3, 1)), 0, 0L);
        List<String> concurrent = new ArrayList<>();
        balancer.afterScan(() -> {
            balancer.afterScan(() -> { });
            concurrent.add(balancer.pick().id());
        });

        assertThat(balancer.pick().id()).as("a (capacity 3) is one third of a round ahead of b after one step")
                .isEqualTo("a");
        assertThat(concurrent).containsExactly("a");
    }

    @Test
    void aPickThatLosesBothItsBestAndSecondScansAgainFromAFreshRanking() {
        WeightedRoundRobin balancer = new WeightedRoundRobin(internal(servers(1, 1)), 0, 0L);
        List<String> concurrent = new ArrayList<>();
        balancer.afterScan(() -> {
            balancer.afterScan(() -> { });
            concurrent.add(balancer.pick().id());
            concurrent.add(balancer.pick().id());
        });

        String picked = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> balancer.pick().id(),
                "a ranking kept from the lost scan would claim stale load factors forever");
        assertThat(concurrent).containsExactly("a", "b");
        assertThat(picked).isEqualTo("a");
    }

    @Test
    void givesTheNextRequestToTheLowestLoadFactorInASmoothSequence() {
        Balancer balancer = Balancers.create(internal(servers(1, 2, 3)),
                strategy(DispatcherConfig.WEIGHTED_ROUND_ROBIN), () -> 0L, noRandom());
        assertThat(sequence(balancer, 12)).isEqualTo(split("c b c a b c c b c a b c"));
    }

    @Test
    void followsCapacitiesWithinOnePercentOverSixThousandSequentialRequests() {
        Balancer balancer = new WeightedRoundRobin(internal(servers(1, 2, 3)), new Random(7));
        Map<String, Long> counts = count(sequence(balancer, 6_000));
        assertThat((double) counts.get("a")).isCloseTo(1_000, within(10.0));
        assertThat((double) counts.get("b")).isCloseTo(2_000, within(20.0));
        assertThat((double) counts.get("c")).isCloseTo(3_000, within(30.0));
    }

    @Test
    void keepsEveryWindowOfOneRoundProportional() {
        List<String> ids = sequence(new WeightedRoundRobin(internal(servers(1, 2, 3)), new Random(3)), 600);
        for (int from = 0; from + 6 <= ids.size(); from += 6) {
            assertThat(count(ids.subList(from, from + 6))).as("picks %d..%d", from, from + 5)
                    .containsEntry("a", 1L).containsEntry("b", 2L).containsEntry("c", 3L);
        }
    }

    @Test
    void givesAServerHoldingManyRequestsInFlightFewerNewOnes() {
        List<Server> servers = servers(1, 1, 1);
        for (int k = 0; k < 20; k++) {
            servers.get(1).requestStarted(false); // b is stuck with 20 requests
        }
        Map<String, Long> counts = count(sequence(new WeightedRoundRobin(internal(servers), new Random(1)), 3_000));
        assertThat(counts.getOrDefault("b", 0L)).isLessThan(1_000 / 2);
        assertThat(counts.get("a") + counts.get("c")).isGreaterThan(2_500);
    }

    @Test
    void givesASlowServerALowerRateNotJustAnOffset() {
        // b answers only 20 picks after it was given a request; a and c answer at once. An ever-growing load
        // factor plus the in-flight count would still give b its third; the in-flight count must cut its rate.
        List<Server> servers = servers(1, 1, 1);
        Balancer balancer = new WeightedRoundRobin(internal(servers), new Random(2));
        Queue<Long> slowAnswers = new ArrayDeque<>();
        Map<String, Long> counts = new HashMap<>();
        for (long tick = 0; tick < 30_000; tick++) {
            while (!slowAnswers.isEmpty() && slowAnswers.peek() <= tick) {
                slowAnswers.poll();
                servers.get(1).requestFinished(false);
            }
            Server s = balancer.pick();
            s.requestStarted(false);
            counts.merge(s.id(), 1L, Long::sum);
            if (s.id().equals("b")) {
                slowAnswers.add(tick + 20);
            } else {
                s.requestFinished(false);
            }
        }
        assertThat(counts.get("b")).isLessThan(10_000 / 2);
        assertThat(counts.get("a")).isCloseTo(counts.get("c"), within(2L));
    }

    @Test
    void neverPicksADownDrainedOrDisabledServer() {
        List<Server> servers = servers(1, 2, 3, 4);
        servers.get(1).setState(Server.State.DOWN);
        servers.get(2).setState(Server.State.DRAINED);
        servers.get(3).setState(Server.State.DISABLED);
        Balancer balancer = new WeightedRoundRobin(internal(servers), new Random(4));
        assertThat(sequence(balancer, 100)).containsOnly("a");
        servers.get(0).setState(Server.State.DOWN);
        assertThat(balancer.pick()).isNull();
        assertThat(balancer.snapshot().favorite()).isNull();
        assertThat(new WeightedRoundRobin(internal(List.of()), new Random(4)).pick()).isNull();
    }

    @Test
    void sharesOutTheFirstPicksOfFreshBalancersOverEqualServers() {
        Map<String, Long> firsts = new HashMap<>();
        for (int seed = 0; seed < 1_000; seed++) {
            Balancer fresh = Balancers.create(internal(servers(5, 5, 5, 5)),
                    strategy(DispatcherConfig.WEIGHTED_ROUND_ROBIN), () -> 0L, new Random(seed));
            firsts.merge(fresh.pick().id(), 1L, Long::sum);
        }
        assertThat(firsts).containsOnlyKeys("a", "b", "c", "d");
        assertThat(firsts.values()).allSatisfy(n -> assertThat(n).isGreaterThan(150L));
    }

    @Test
    void sendsSimultaneousFirstRequestsToDifferentServers() throws Exception {
        int threads = 8;
        Balancer balancer = new WeightedRoundRobin(internal(servers(1, 1, 1, 1, 1, 1, 1, 1)), new Random(5));
        CyclicBarrier start = new CyclicBarrier(threads);
        Set<String> chosen = ConcurrentHashMap.newKeySet();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                SimpleWeightedRoundRobinTest.await(start);
                chosen.add(balancer.pick().id()); // held in flight: not even finished
            });
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
        assertThat(chosen).hasSize(threads);
    }

    @Test
    void losesNoCountsWhenEightThreadsPickAHundredThousandTimes() throws Exception {
        List<Server> servers = servers(1, 2, 3);
        WeightedRoundRobin balancer = new WeightedRoundRobin(internal(servers), new Random(6));
        Map<String, AtomicLong> counts = hammer(balancer, 8, 12_500, true);

        long total = counts.values().stream().mapToLong(AtomicLong::get).sum();
        assertThat(total).isEqualTo(100_000);
        assertThat(servers.stream().mapToLong(Server::served).sum()).isEqualTo(100_000);
        assertThat(servers).extracting(Server::inFlight).containsOnly(0);
        for (int i = 0; i < servers.size(); i++) {
            long picks = counts.get(servers.get(i).id()).get();
            long raised = balancer.rawLoadFactor(i) - balancer.step(i);
            // every pick raised the load factor by one step; a lagging member may also have been lifted
            // (a member held back by requests in flight is lifted, so this is no equality; see the next test)
            assertThat(raised).as(servers.get(i).id()).isGreaterThanOrEqualTo(picks * balancer.step(i));
        }
    }

    @Test
    void endsInTheStateOneThreadWouldReachWhenManyThreadsPickWithNothingInFlight() throws Exception {
        WeightedRoundRobin concurrent = new WeightedRoundRobin(internal(servers(1, 2, 3, 7)), new Random(8));
        Map<String, AtomicLong> counts = hammer(concurrent, 8, 12_500, false);
        WeightedRoundRobin twin = new WeightedRoundRobin(internal(servers(1, 2, 3, 7)), new Random(8));
        Map<String, Long> expected = count(sequence(twin, 100_000));
        assertThat(counts.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get())))
                .isEqualTo(expected);
        for (int i = 0; i < 4; i++) {
            assertThat(concurrent.rawLoadFactor(i)).isEqualTo(twin.rawLoadFactor(i));
        }
    }

    /** Threads released together, each picking {@code each} times, with or without reporting the request. */
    private static Map<String, AtomicLong> hammer(Balancer balancer, int threads, int each, boolean report)
            throws InterruptedException {
        Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                SimpleWeightedRoundRobinTest.await(start);
                Map<String, Long> mine = new HashMap<>();
                for (int k = 0; k < each; k++) {
                    Server s = balancer.pick();
                    if (report) {
                        s.requestStarted(false);
                        s.requestFinished(false);
                    }
                    mine.merge(s.id(), 1L, Long::sum);
                }
                mine.forEach((id, n) -> counts.computeIfAbsent(id, x -> new AtomicLong()).addAndGet(n));
            });
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
        return counts;
    }

    @Test
    void keepsLoadFactorsBoundedAfterMillionsOfPicks() {
        List<Server> servers = servers(1, 2, 3, 5);
        WeightedRoundRobin balancer = new WeightedRoundRobin(internal(servers), new Random(9));
        servers.get(3).setState(Server.State.DOWN); // d falls behind for good
        sequence(balancer, 3_000_000);
        long scale = balancer.scale();
        long max = Long.MIN_VALUE;
        long min = Long.MAX_VALUE;
        for (int i = 0; i < servers.size(); i++) {
            max = Math.max(max, balancer.rawLoadFactor(i));
            min = Math.min(min, balancer.rawLoadFactor(i));
        }
        // without renormalization d would lag by 3,000,000 / 6 rounds; with it, by at most one interval
        assertThat(max - min).as("spread of the stored load factors").isLessThanOrEqualTo(
                2 * balancer.renormalizeInterval() + 2 * WeightedRoundRobin.SLACK_ROUNDS * scale)
                .isLessThan(3_000_000L / 6 / 100 * scale);
        assertThat(balancer.snapshot().members()).extracting(BalancerSnapshot.Member::weight)
                .allSatisfy(w -> assertThat(w).isBetween(0.0, (double) WeightedRoundRobin.SLACK_ROUNDS + 1));
    }

    @Test
    void givesAServerBackFromALongDowntimeNoBurstOfRequests() {
        List<Server> servers = servers(1, 2, 3);
        WeightedRoundRobin balancer = new WeightedRoundRobin(internal(servers), new Random(10));
        servers.get(1).setState(Server.State.DOWN);
        sequence(balancer, 400_000);
        servers.get(1).setState(Server.State.UP);
        Map<String, Long> next = count(sequence(balancer, 60));
        // its fair share is 20; catching up is limited to SLACK_ROUNDS rounds of its capacity
        assertThat(next.get("b")).isBetween(20L, 20L + WeightedRoundRobin.SLACK_ROUNDS * 2 + 1);
    }

    @Test
    void keepsTheSequenceWhenLoadFactorsWrapAroundLongMaxValue() {
        WeightedRoundRobin nearWrap = new WeightedRoundRobin(internal(servers(1, 2, 3)), 1, Long.MAX_VALUE - 600);
        WeightedRoundRobin plain = new WeightedRoundRobin(internal(servers(1, 2, 3)), 1, 0L);
        assertThat(sequence(nearWrap, 1_200)).isEqualTo(sequence(plain, 1_200));
        assertThat(nearWrap.rawLoadFactor(0)).isNegative(); // it did wrap
    }

    @Test
    void snapshotShowsLoadFactorsInFlightAndTheFavorite() {
        List<Server> servers = servers(1, 2, 3);
        Balancer balancer = Balancers.create(internal(servers), strategy(DispatcherConfig.WEIGHTED_ROUND_ROBIN),
                () -> 0L, noRandom());
        sequence(balancer, 4); // c b c a: load factors now a 2, b 1, c 1
        servers.get(1).requestStarted(false);
        BalancerSnapshot snapshot = balancer.snapshot();
        assertThat(snapshot.members()).extracting(BalancerSnapshot.Member::serverId).containsExactly("a", "b", "c");
        assertThat(snapshot.members()).extracting(BalancerSnapshot.Member::weight).containsExactly(1.0, 0.0, 0.0);
        assertThat(snapshot.members()).extracting(BalancerSnapshot.Member::inFlight).containsExactly(0, 1, 0);
        assertThat(snapshot.members()).extracting(BalancerSnapshot.Member::served).containsExactly(1L, 1L, 2L);
        assertThat(snapshot.favorite()).as("b would be next, but it has a request in flight").isEqualTo("c");
        assertThat(balancer.pick().id()).isEqualTo("c");
        assertThat(balancer.toString()).contains("weighted_round_robin", "!J2EE", "[1, 2, 3]");
    }

    @Test
    void countsLoadFactorsInUnitsOfTheLeastCommonMultipleOfTheCapacities() {
        WeightedRoundRobin small = new WeightedRoundRobin(internal(servers(4, 6)), 0, 0L);
        assertThat(small.scale()).isEqualTo(12);
        assertThat(small.step(0)).isEqualTo(3);
        assertThat(small.step(1)).isEqualTo(2);
        WeightedRoundRobin large = new WeightedRoundRobin(internal(servers(396_447_347, 262)), 0, 0L);
        assertThat(large.scale()).as("below 2^40: exact").isEqualTo(103_869_204_914L);
        WeightedRoundRobin huge = new WeightedRoundRobin(internal(servers(997, 991, 983, 977, 971)), 0, 0L);
        assertThat(huge.scale()).as("beyond 2^40: 2^40, the steps rounded").isEqualTo(1L << 40);
        assertThat(huge.step(0)).isEqualTo(Math.round((double) (1L << 40) / 997));
    }

    @Test
    void renormalizesEveryThousandToTwoThousandRounds() {
        for (int[] capacities : new int[][] {{1}, {1, 2, 3}, {4, 6}, {1000, 999}, {997, 991, 983, 977, 971}}) {
            WeightedRoundRobin balancer = new WeightedRoundRobin(internal(servers(capacities)), 0, 0L);
            double rounds = (double) balancer.renormalizeInterval() / balancer.scale();
            assertThat(rounds).as("capacities %s", java.util.Arrays.toString(capacities)).isBetween(1024.0, 2048.0);
        }
    }

    @Test
    void ranksMembersByRequestsInFlightPerCapacityBeforeLoadFactor() {
        // x capacity 2 idle, y capacity 4 with one in flight and the lower load factor: 0/2 < 1/4, x goes first
        List<Server> first = servers(2, 4);
        first.get(1).requestStarted(false);
        assertThat(new WeightedRoundRobin(internal(first), 0, 0L).pick().id()).isEqualTo("a");
        // x capacity 4 with one in flight and the lower load factor, y capacity 2 idle: 1/4 > 0/2, y goes first
        List<Server> second = servers(4, 2);
        second.get(0).requestStarted(false);
        assertThat(new WeightedRoundRobin(internal(second), 0, 0L).pick().id()).isEqualTo("b");
    }

    @Test
    void liftsAServerBackFromDowntimeToTwoRoundsBelowTheLeaderThenAlternates() {
        List<Server> servers = servers(1, 1);
        WeightedRoundRobin balancer = new WeightedRoundRobin(internal(servers), 0, 0L);
        servers.get(1).setState(Server.State.DOWN);
        assertThat(sequence(balancer, 100)).containsOnly("a"); // a's load factor 101, b's 1
        servers.get(1).setState(Server.State.UP);
        assertThat(sequence(balancer, 8)).isEqualTo(split("b b a b a b a b"));
    }

    @Test
    void keepsLoadFactorsBoundedWhenTheFirstMemberIsTheOneDown() {
        List<Server> servers = servers(1, 2);
        WeightedRoundRobin balancer = new WeightedRoundRobin(internal(servers), 0, 0L);
        servers.get(0).setState(Server.State.DOWN);
        sequence(balancer, 1_000_000);
        long spread = balancer.rawLoadFactor(1) - balancer.rawLoadFactor(0);
        assertThat(spread).isLessThanOrEqualTo(
                2 * balancer.renormalizeInterval() + 2 * WeightedRoundRobin.SLACK_ROUNDS * balancer.scale());
    }

    @Test
    void snapshotNamesTheFirstMemberAsFavoriteWhenItRanksFirst() {
        Balancer balancer = new WeightedRoundRobin(internal(servers(3, 1, 1)), 0, 0L);
        assertThat(balancer.snapshot().favorite()).isEqualTo("a");
        assertThat(balancer.pick().id()).isEqualTo("a");
        assertThat(new WeightedRoundRobin(internal(List.of()), 0, 0L).toString()).endsWith("ties from -");
    }
}
