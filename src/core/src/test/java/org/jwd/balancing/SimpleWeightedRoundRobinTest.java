package org.jwd.balancing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jwd.balancing.Fixtures.internal;
import static org.jwd.balancing.Fixtures.noRandom;
import static org.jwd.balancing.Fixtures.sequence;
import static org.jwd.balancing.Fixtures.servers;
import static org.jwd.balancing.Fixtures.split;
import static org.jwd.balancing.Fixtures.strategy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.junit.jupiter.api.Test;

class SimpleWeightedRoundRobinTest {
    private static Balancer balancer(List<Server> members) {
        return Balancers.create(internal(members), strategy(DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN),
                () -> 0L, noRandom());
    }

    @Test
    void givesEachServerCapacityRequestsInSuccession() {
        assertThat(sequence(balancer(servers(1, 2, 3)), 12)).isEqualTo(split("a b b c c c a b b c c c"));
    }

    @Test
    void ignoresRequestsInFlight() {
        List<Server> servers = servers(1, 2, 3);
        Balancer balancer = balancer(servers);
        for (int k = 0; k < 12; k++) {
            balancer.pick().requestStarted(false); // never finished
        }
        assertThat(servers).extracting(Server::inFlight).containsExactly(2, 4, 6);
    }

    @Test
    void skipsTheShareOfServersThatTakeNoNewRequests() {
        List<Server> servers = servers(1, 2, 3);
        servers.get(1).setState(Server.State.DOWN);
        Balancer balancer = balancer(servers);
        assertThat(sequence(balancer, 8)).isEqualTo(split("a c c c a c c c"));
        servers.get(1).setState(Server.State.UP);
        servers.get(2).setState(Server.State.DRAINED);
        assertThat(sequence(balancer, 6)).isEqualTo(split("a b b a b b"));
    }

    @Test
    void skipsTheWholeShareOfALargeServerThatIsDownInOneStep() {
        List<Server> servers = servers(1, 5, 1);
        servers.get(1).setState(Server.State.DOWN);
        assertThat(sequence(balancer(servers), 6)).isEqualTo(split("a c a c a c"));
    }

    @Test
    void anEmptyGroupHasNoMembersAndNoFavorite() {
        BalancerSnapshot snapshot = balancer(List.of()).snapshot();
        assertThat(snapshot.strategy()).isEqualTo("simple_weighted_round_robin");
        assertThat(snapshot.members()).isEmpty();
        assertThat(snapshot.favorite()).isNull();
    }

    @Test
    void picksNothingWhenNoServerIsUp() {
        List<Server> servers = servers(1, 2, 3);
        servers.get(0).setState(Server.State.DOWN);
        servers.get(1).setState(Server.State.DRAINED);
        servers.get(2).setState(Server.State.DISABLED);
        Balancer balancer = balancer(servers);
        assertThat(balancer.pick()).isNull();
        assertThat(balancer.snapshot().favorite()).isNull();
        assertThat(balancer(List.of()).pick()).isNull();
    }

    @Test
    void aLoneMemberThatIsDownGivesNoServer() {
        List<Server> servers = servers(3);
        servers.get(0).setState(Server.State.DOWN);

        assertThat(balancer(servers).pick()).isNull();
    }

    @Test
    void snapshotShowsTheShareUsedThisRoundAndTheNextServer() {
        Balancer balancer = balancer(servers(1, 2, 3));
        sequence(balancer, 4); // a b b c
        BalancerSnapshot snapshot = balancer.snapshot();
        assertThat(snapshot.strategy()).isEqualTo("simple_weighted_round_robin");
        assertThat(snapshot.members()).extracting(BalancerSnapshot.Member::weight)
                .containsExactly(1.0, 1.0, 1.0 / 3);
        assertThat(snapshot.members()).extracting(BalancerSnapshot.Member::served).containsExactly(1L, 2L, 1L);
        assertThat(snapshot.favorite()).isEqualTo("c");
        assertThat(balancer.toString()).contains("simple_weighted_round_robin", "[1, 2, 3]");
    }

    @Test
    void losesNoTicketUnderManyThreads() throws Exception {
        Balancer balancer = balancer(servers(1, 2, 3));
        Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
        int threads = 8;
        int each = 12_000;
        CyclicBarrier start = new CyclicBarrier(threads);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(() -> {
                await(start);
                for (int k = 0; k < each; k++) {
                    Server s = balancer.pick();
                    s.requestStarted(false);
                    s.requestFinished(false);
                    counts.computeIfAbsent(s.id(), id -> new AtomicLong()).incrementAndGet();
                }
            });
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        // 96,000 tickets are 16,000 whole rounds: exactly 1:2:3
        assertThat(counts.get("a").get()).isEqualTo(16_000);
        assertThat(counts.get("b").get()).isEqualTo(32_000);
        assertThat(counts.get("c").get()).isEqualTo(48_000);
    }

    static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
