package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jwd.routing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The clustered table's logic on a shared map standing in for the Terracotta server, two nodes, and a clock
 * moved by hand: nothing sleeps.
 */
class ClusteredSessionTableTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(4); // R = 1 s, live T + R = 5 s after a write

    private final AtomicLong clock = new AtomicLong(1_000_000);
    /** The nanosecond clock the server's writes are timed by: a write moves it as long as it takes. */
    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final MapStore server = new MapStore();
    private final List<ClusteredSessionTable> nodes = new ArrayList<>();
    private final List<ScheduledThreadPoolExecutor> schedulers = new ArrayList<>();

    /** A node whose new bindings do not wait for a lost server: the fallback at once. */
    private ClusteredSessionTable node() {
        return node(Duration.ZERO);
    }

    private ClusteredSessionTable node(Duration bindWait) {
        SessionTable local = new EhcacheSessionTable(TIMEOUT, 10_000, 10_000, 0, clock::get, null);
        ClusteredSessionTable node = new ClusteredSessionTable("terracotta://test:9410/jwd", server, local,
                SessionTimeouts.both(TIMEOUT), clock::get, nanos::get, null, bindWait);
        nodes.add(node);
        return node;
    }

    /** A node that probes a lost server on a scheduler of its own and waits a minute for it: what jwd runs. */
    private ClusteredSessionTable probingNode() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
        schedulers.add(scheduler);
        ClusteredSessionTable node = new ClusteredSessionTable("terracotta://test:9410/jwd", server,
                new EhcacheSessionTable(TIMEOUT, 10_000, 10_000, 0, clock::get, null),
                SessionTimeouts.both(TIMEOUT), clock::get, scheduler, Duration.ofMinutes(1));
        nodes.add(node);
        return node;
    }

    private void advance(long millis) {
        clock.addAndGet(millis);
    }

    @AfterEach
    void close() {
        nodes.forEach(ClusteredSessionTable::close);
        schedulers.forEach(ScheduledThreadPoolExecutor::shutdownNow);
    }

    @Test
    void aBindingMadeThroughOneNodeIsHonouredByTheOther() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();

        assertThat(a.bind("s1", "x")).isEqualTo("x");

        assertThat(b.lookup("s1")).isEqualTo("x");
        assertThat(b.bind("s1", "y")).as("the first binding wins on every node").isEqualTo("x");
        assertThat(a.clusterState()).isEqualTo(ClusterState.CONNECTED);
        assertThat(server.map).containsEntry("s1", "x|1000000");
    }

    @Test
    void bindsConcurrentFirstRequestsAtTwoNodesToOneServer() throws Exception {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        ExecutorService threads = Executors.newFixedThreadPool(16);
        try {
            for (int id = 0; id < 200; id++) {
                String session = "s" + id;
                CyclicBarrier barrier = new CyclicBarrier(16);
                List<Future<String>> results = new ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    ClusteredSessionTable node = t % 2 == 0 ? a : b;
                    String server = "server" + t % 3;
                    results.add(threads.submit(() -> {
                        barrier.await();
                        String bound = node.lookup(session);
                        return bound != null ? bound : node.bind(session, server);
                    }));
                }
                Set<String> servers = new HashSet<>();
                for (Future<String> result : results) {
                    servers.add(result.get());
                }
                assertThat(servers).as(session).hasSize(1);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aSessionKeptBusyThroughOneNodeStaysBoundOnTheOther() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        a.bind("s1", "x");

        // Five timeouts of use through node B only, every 500 ms.
        for (int i = 0; i < 40; i++) {
            advance(500);
            assertThat(b.lookup("s1")).isEqualTo("x");
        }

        assertThat(a.lookup("s1")).as("node A, idle for 5 timeouts, still finds it").isEqualTo("x");
        assertThat(server.replaces.get()).as("a rewrite once per quarter timeout, not per lookup").isEqualTo(20);
    }

    @Test
    void expiresOnEveryNodeAfterTheTimeoutWithoutUseAndNeverEarlier() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        a.bind("s1", "x");
        advance(900);
        assertThat(b.lookup("s1")).as("used at 0.9 s, not due for a rewrite").isEqualTo("x");

        advance(4_099);
        assertThat(b.lookup("s1")).as("4.099 s after its last use: still bound").isEqualTo("x");

        advance(5_000);
        assertThat(a.lookup("s1")).as("5 s idle, on the node that bound it").isNull();
        assertThat(b.lookup("s1")).as("5 s idle, on the other node").isNull();
        assertThat(b.bind("s1", "y")).as("a dead binding still stored is replaced").isEqualTo("y");
        assertThat(a.lookup("s1")).isEqualTo("y");
    }

    @Test
    void aRebindingIsAtomicAcrossNodes() throws Exception {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        a.bind("s1", "dead");
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CyclicBarrier barrier = new CyclicBarrier(2);
            Future<String> viaA = threads.submit(() -> {
                barrier.await();
                return a.rebind("s1", "dead", "x");
            });
            Future<String> viaB = threads.submit(() -> {
                barrier.await();
                return b.rebind("s1", "dead", "y");
            });

            assertThat(viaA.get()).isEqualTo(viaB.get()).isIn("x", "y");
            assertThat(a.lookup("s1")).isEqualTo(viaA.get());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aReadThatMissesABindingNeverMakesASecondOne() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        a.bind("temporary:s1", "x");
        server.readsMiss = true; // as Ehcache answers a read that timed out, were it not recognized

        assertThat(b.lookup("temporary:s1")).isNull();
        assertThat(b.bind("temporary:s1", "y")).as("the bind's putIfAbsent finds the binding").isEqualTo("x");
        assertThat(b.clusterState()).isEqualTo(ClusterState.CONNECTED);
    }

    @Test
    void aLearnedJsessionidThatMissesIsStoredAsNoBindingOnceAndABindingOfItReachesEveryNode() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();

        assertThat(a.lookup("s1")).isNull();
        assertThat(server.map).containsEntry("s1", SharedBindings.NO_BINDING);
        int writes = server.writes.get();
        assertThat(a.lookup("s1")).isNull();
        assertThat(b.lookup("s1")).isNull();
        assertThat(server.writes.get()).as("a key stored as no binding is not written again").isEqualTo(writes);

        assertThat(b.bind("s1", "x")).as("a binding replaces the stored no-binding").isEqualTo("x");
        assertThat(a.lookup("s1")).isEqualTo("x");
        assertThat(a.bind("s1", "y")).as("the first binding wins").isEqualTo("x");
    }

    @Test
    void aMissOfATemporaryOrEsidKeyStoresNothing() {
        ClusteredSessionTable a = node();

        assertThat(a.lookup("temporary:s1")).isNull();
        assertThat(a.lookup("sap-ext-sid:e1")).isNull();
        assertThat(a.lookup("PRT/temporary:s1")).isNull();

        assertThat(server.map).doesNotContainKeys("temporary:s1", "sap-ext-sid:e1", "PRT/temporary:s1");
        assertThat(a.bind("temporary:s1", "x")).isEqualTo("x");
        assertThat(server.replaces).as("a temporary binding is one putIfAbsent").hasValue(0);
    }

    @Test
    void aNoBindingWriteThatMeetsAConcurrentBindingFollowsIt() {
        ClusteredSessionTable a = node();
        server.beforeNextPutIfAbsent.set(() -> server.map.put("PRT/s1",
                new ClusterBinding("x", clock.get()).encode())); // node b binds it first

        assertThat(a.lookup("PRT/s1")).isEqualTo("x");
        assertThat(a.peek("PRT/s1")).isEqualTo("x");
        server.available = false;
        assertThat(a.lookup("PRT/s1")).as("kept on this node too").isEqualTo("x");
    }

    @Test
    void probesWithAWriteBecauseAReadSucceedsOnALostServer() {
        ClusteredSessionTable a = node();
        server.available = false;
        a.bind("s1", "x");
        server.readsMiss = true;

        assertThat(a.probe()).isFalse();
        assertThat(a.clusterState()).isEqualTo(ClusterState.DISCONNECTED);
    }

    @Test
    void aLostServerIsProbedOnTheSchedulerGivenAtOnceAndNoMoreAfterTheClose() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
        try {
            ClusteredSessionTable a = new ClusteredSessionTable("terracotta://test:9410/jwd", server,
                    new EhcacheSessionTable(TIMEOUT, 10_000, 10_000, 0, clock::get, null),
                    SessionTimeouts.both(TIMEOUT), clock::get, scheduler, Duration.ZERO);
            nodes.add(a);
            server.available = false;
            a.bind("s1", "x");
            assertThat(a.clusterState()).isEqualTo(ClusterState.DISCONNECTED);
            server.available = true;
            await().atMost(Duration.ofSeconds(10)).until(() -> a.clusterState() == ClusterState.CONNECTED);
            assertThat(a.probesScheduled()).isTrue();
            a.close();
            assertThat(a.probesScheduled()).isFalse();
            scheduler.purge();
            assertThat(scheduler.getQueue()).as("no probe left on the shared scheduler").isEmpty();
            assertThat(scheduler.isShutdown()).as("the scheduler is not the table's to stop").isFalse();
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void aBindingReadFromTheServerIsKeptOnThisNodeAndServedWhenTheServerIsLost() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        a.bind("s1", "x");
        assertThat(b.lookup("s1")).isEqualTo("x");

        server.available = false;

        assertThat(b.lookup("s1")).as("the other node's binding, as this node read it").isEqualTo("x");
    }

    @Test
    void aRebindingWhileTheServerIsLostIsMadeOnThisNodeAloneAndCounted() {
        ClusteredSessionTable a = node();
        a.bind("s1", "dead");
        server.available = false;
        a.lookup("s1");
        long servedLocally = a.clusterStatus().servedLocally();

        assertThat(a.rebind("s1", "dead", "x")).isEqualTo("x");
        assertThat(a.stats().rebindings()).as("the rebinding made here").isEqualTo(1);
        assertThat(a.rebind("s1", "dead", "y")).as("another request rebound it first").isEqualTo("x");

        assertThat(a.lookup("s1")).isEqualTo("x");
        assertThat(a.stats().rebindings()).isEqualTo(1);
        assertThat(a.clusterStatus().servedLocally()).isEqualTo(servedLocally + 3);
        assertThat(a.rebind(null, "dead", "z")).as("no session: nothing to store").isEqualTo("z");
    }

    @Test
    void aTouchRenewsTheServersBindingWhenDueWithoutCountingALookup() {
        ClusteredSessionTable a = node();
        a.bind("s1", "x");
        advance(1000); // R = 1 s: the stamp is due

        a.touch("s1");
        a.touch(null);

        assertThat(server.map).containsEntry("s1", "x|1001000");
        assertThat(a.stats().hits() + a.stats().misses()).isZero();
    }

    @Test
    void servesFromItsOwnTableWhileTheServerIsUnreachable() {
        ClusteredSessionTable a = node();
        a.bind("before", "x");
        server.available = false;

        assertThat(a.lookup("before")).as("a binding this node knew keeps its server").isEqualTo("x");
        assertThat(a.clusterState()).isEqualTo(ClusterState.DISCONNECTED);
        int callsAfterTheLoss = server.calls.get();
        assertThat(a.bind("during", "y")).isEqualTo("y");
        assertThat(a.bind("during", "z")).as("bound on this node: the first binding still wins").isEqualTo("y");
        assertThat(a.lookup("during")).isEqualTo("y");
        assertThat(server.calls.get()).as("no request waits on a lost server again").isEqualTo(callsAfterTheLoss);
        assertThat(a.clusterStatus().outages()).isEqualTo(1);
        assertThat(a.probe()).isFalse();
    }

    @Test
    void reconnectsByItselfAndCarriesOverTheBindingsMadeMeanwhile() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        a.bind("before", "x");
        server.available = false;
        a.lookup("before");
        a.bind("during", "y");
        // The server comes back empty, as a restarted Terracotta server without persistence does.
        server.map.clear();
        server.available = true;

        assertThat(a.probe()).isTrue();
        assertThat(a.clusterState()).isEqualTo(ClusterState.CONNECTED);
        assertThat(a.lookup("during")).isEqualTo("y");
        assertThat(a.lookup("before")).isEqualTo("x");
        assertThat(a.clusterStatus().carriedOver()).isEqualTo(2);
        assertThat(b.lookup("during")).as("the other node sees the carried-over binding").isEqualTo("y");
        assertThat(b.lookup("before")).isEqualTo("x");
    }

    @Test
    void aClientThatDoesNotRecoverByItselfIsBuiltAnewEvery15Seconds() {
        ClusteredSessionTable a = node();
        server.available = false;
        a.bind("s1", "x");

        advance(14_999);
        assertThat(a.probe()).isFalse();
        assertThat(server.freshStarts).hasValue(0);
        advance(1);
        assertThat(a.probe()).isFalse();
        assertThat(server.freshStarts).hasValue(1);
        advance(10_000);
        a.probe();
        assertThat(server.freshStarts).as("not before another 15 s").hasValue(1);
        advance(5_000);
        server.available = true;

        assertThat(a.probe()).isTrue();
        assertThat(server.freshStarts).hasValue(2);
        assertThat(a.clusterStatus().freshStarts()).isEqualTo(2);
        assertThat(a.clusterState()).isEqualTo(ClusterState.CONNECTED);
    }

    @Test
    void saysOncePerOutageThatTheClientIsBuiltAnew() {
        ClusteredSessionTable a = node();
        server.available = false;
        a.bind("s1", "x");

        try (LogCapture log = new LogCapture(ClusteredSessionTable.class)) {
            advance(15_000);
            a.probe();
            advance(15_000);
            a.probe();
            assertThat(server.freshStarts).hasValue(2);
            assertThat(log.text().lines().filter(l -> l.contains("has not recovered")).toList())
                    .singleElement().asString()
                    .contains("the client has not recovered in 15 s; connecting anew from now on");
        }
    }

    @Test
    void aNewBindingWaitsForAServerThatWasOnlySlowAndFollowsTheOtherNodesBinding() throws Exception {
        ClusteredSessionTable a = node(Duration.ofMinutes(1));
        ClusteredSessionTable b = node();
        server.available = false;
        assertThat(a.lookup("s1")).as("the read that timed out: a miss, served by node a's own table").isNull();
        assertThat(a.clusterState()).isEqualTo(ClusterState.DISCONNECTED);
        server.available = true;
        assertThat(b.bind("s1", "y")).as("node b, which kept the server, binds first").isEqualTo("y");

        ExecutorService requests = Executors.newSingleThreadExecutor();
        try {
            AtomicReference<Thread> waiter = new AtomicReference<>();
            Future<String> bound = requests.submit(() -> {
                waiter.set(Thread.currentThread());
                return a.bind("s1", "x");
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> waiter.get() != null
                    && waiter.get().getState() == Thread.State.TIMED_WAITING);
            assertThat(bound).as("waiting for the server, not bound on node a alone").isNotDone();

            assertThat(a.probe()).isTrue();

            assertThat(bound.get(10, TimeUnit.SECONDS)).as("one session, one server").isEqualTo("y");
            assertThat(a.lookup("s1")).isEqualTo("y");
            assertThat(a.clusterStatus().servedLocally()).as("only the lookup that lost the server").isEqualTo(1);
        } finally {
            requests.shutdownNow();
        }
    }

    @Test
    void aWriteThatTimedOutButReachedTheServerIsFoundByTheRetry() {
        ClusteredSessionTable a = probingNode();
        server.failAfterNextWrite = true;

        assertThat(a.bind("s1", "x")).as("the retry after the probe finds its own binding").isEqualTo("x");

        assertThat(a.clusterState()).isEqualTo(ClusterState.CONNECTED);
        assertThat(a.clusterStatus().servedLocally()).isZero();
        assertThat(node().lookup("s1")).as("one binding, on the server").isEqualTo("x");
    }

    /**
     * The split seen under CPU pressure: the server answered the probe, then timed out again on the backlog of the
     * stall, and again; after three tries the binding was made on the node alone while the other node had bound
     * the session on the server. Within the wait, every try follows the server's binding.
     */
    @Test
    void aServerThatTimesOutAgainAfterEachReconnectWithinTheWaitSplitsNoSession() {
        ClusteredSessionTable a = probingNode();
        assertThat(node().bind("s1", "y")).as("the other node binds it on the server").isEqualTo("y");
        server.sessionWritesToFail.set(5); // each of node a's tries times out; its probes get through

        assertThat(a.bind("s1", "x")).as("one session, one server").isEqualTo("y");

        assertThat(server.sessionWritesToFail.get()).as("every failing try was made").isZero();
        assertThat(a.clusterStatus().servedLocally()).isZero();
        assertThat(a.lookup("s1")).isEqualTo("y");
    }

    /**
     * The split a CI run saw with the server frozen 6 s and a 5 s timeout: node b bound the session just before the
     * stall; node a's concurrent first request, held by the stall, read that binding when it was past its live time
     * by the clock and replaced it. What was live when the request came is followed, and renewed.
     */
    @Test
    void aRequestHeldUpByAStallFollowsTheBindingThatWasLiveWhenItCame() {
        ClusteredSessionTable a = probingNode();
        assertThat(node().bind("s1", "y")).as("node b binds it just before the stall").isEqualTo("y");
        server.sessionWritesToFail.set(1);
        server.onTimedOutWrite = () -> advance(6_000); // the stall: past the 5 s the binding lives after its write

        assertThat(a.bind("s1", "x")).as("one session, one server").isEqualTo("y");

        assertThat(node().lookup("s1")).as("renewed by the held request: still bound for a new node").isEqualTo("y");
        assertThat(a.clusterStatus().servedLocally()).isZero();
    }

    @Test
    void pastTheWaitANewSessionIsBoundOnThisNodeAlone() {
        // Real time passes here: the wait bounds what a user waits, so it is measured by the wall clock (50 ms).
        ClusteredSessionTable a = node(Duration.ofMillis(50));
        server.available = false;
        long start = System.nanoTime(); // the wait runs from the loss, which the lookup finds
        a.lookup("before");

        assertThat(a.bind("s1", "x")).isEqualTo("x");

        assertThat(System.nanoTime() - start).as("waited for the server first").isGreaterThanOrEqualTo(50_000_000);
        long after = System.nanoTime();
        assertThat(a.bind("s2", "x")).isEqualTo("x");
        assertThat(System.nanoTime() - after).as("no wait once it has passed").isLessThan(50_000_000);
        server.available = true;
        assertThat(server.map).as("nothing reached the lost server").doesNotContainKeys("s1", "s2");
    }

    @Test
    void twoNodesThatBoundDifferentlyDuringAnOutageAgreeAfterwards() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        server.available = false;
        a.bind("s1", "x");
        b.bind("s1", "y");
        server.available = true;
        a.probe();
        b.probe();

        String first = b.lookup("s1");
        assertThat(a.lookup("s1")).isEqualTo(first).isEqualTo("y");
        assertThat(b.lookup("s1")).isEqualTo("y");
    }

    @Test
    void startsOnItsOwnTableWhenTheServerIsDownAndConnectsWhenItIsUp() {
        server.available = false;
        ClusteredSessionTable a = node();
        assertThat(a.clusterState()).isEqualTo(ClusterState.CONNECTING);
        assertThat(a.bind("s1", "x")).isEqualTo("x");

        server.available = true;
        assertThat(a.probe()).isTrue();

        assertThat(a.clusterState()).isEqualTo(ClusterState.CONNECTED);
        assertThat(node().lookup("s1")).as("not known to the server yet").isNull();
        assertThat(a.lookup("s1")).isEqualTo("x");
        assertThat(node().lookup("s1")).as("carried over by the node that made it").isEqualTo("x");
    }

    @Test
    void theExplainReadsTheServersBindingElseItsOwnWithoutCountingOrRenewing() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        b.bind("s1", "x"); // on the server, not in node a's own table
        server.available = false;
        a.bind("s2", "y"); // in node a's own table only
        server.available = true;
        assertThat(a.probe()).isTrue();
        advance(1_000);

        assertThat(a.peek("s1")).isEqualTo("x");
        assertThat(a.peek("s2")).isEqualTo("y");
        assertThat(a.peek("unknown")).isNull();
        assertThat(a.idleLeft("s1")).isEqualTo(Duration.ofMillis(3_000));
        assertThat(a.idleLeft("s2")).isEqualTo(Duration.ofMillis(3_000));
        assertThat(a.idleLeft("unknown")).isNull();
        assertThat(a.peek(null)).isNull();
        assertThat(a.idleLeft(null)).isNull();
        assertThat(a.stats().hits() + a.stats().misses()).as("not counted").isZero();
        assertThat(server.map).as("not renewed, not carried over").containsOnlyKeys("s1", ClusteredSessionTable.PROBE_KEY)
                .containsEntry("s1", "x|1000000");
    }

    @Test
    void theExplainThatLosesTheServerReadsItsOwnTableAndSaysSo() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        a.bind("s1", "x");
        b.bind("s2", "y");
        server.available = false;

        assertThat(a.peek("s1")).isEqualTo("x");
        assertThat(a.clusterState()).isEqualTo(ClusterState.DISCONNECTED);
        assertThat(b.idleLeft("s2")).isEqualTo(Duration.ofMillis(4_000));
        assertThat(b.clusterState()).isEqualTo(ClusterState.DISCONNECTED);
    }

    @Test
    void countsHitsMissesAndTheBindingsItWonWhereverTheyWereServed() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        assertThat(a.bind("s1", "x")).isEqualTo("x");
        assertThat(b.bind("s1", "y")).isEqualTo("x");
        assertThat(a.lookup("s1")).isEqualTo("x");
        assertThat(a.lookup("s1")).isEqualTo("x");
        assertThat(a.lookup("s9")).isNull();

        assertThat(a.stats()).extracting(SessionTableStats::hits, SessionTableStats::misses,
                SessionTableStats::bindings).containsExactly(2L, 1L, 1L);
        assertThat(b.stats().bindings()).as("its binding lost to node a's").isZero();
        assertThat(a.clusterStatus().clustered()).isTrue();

        server.available = false;
        assertThat(b.bind("s2", "y")).isEqualTo("y");
        assertThat(b.bind("s2", "z")).isEqualTo("y");
        assertThat(b.stats().bindings()).isEqualTo(1);
        assertThat(b.clusterStatus().servedLocally()).as("both binds").isEqualTo(2);
    }

    @Test
    void isFullWhenItsOwnTableIsFull() {
        EhcacheSessionTable small = new EhcacheSessionTable(TIMEOUT, 1, 1, 0, clock::get, null);
        ClusteredSessionTable a = new ClusteredSessionTable("terracotta://test:9410/jwd", server, small,
                SessionTimeouts.both(TIMEOUT), clock::get, null, Duration.ZERO);
        nodes.add(a);

        assertThat(a.isFull()).isFalse();
        a.bind("s1", "x");
        assertThat(a.isFull()).isTrue();
    }

    @Test
    void aBindingTriesTheServerTenTimesAtMost() {
        ClusteredSessionTable a = probingNode();
        server.sessionWritesToFail.set(10); // each try times out; the probes in between get through

        assertThat(a.bind("s1", "x")).isEqualTo("x");

        assertThat(server.sessionWritesToFail.get()).isZero();
        assertThat(server.map).as("bound on this node alone after ten tries").doesNotContainKey("s1");
        assertThat(a.clusterStatus().servedLocally()).isEqualTo(1);
    }

    @Test
    void aBindingThatFailsAgainAfterTheWaitIsMadeOnThisNodeAlone() {
        // the probe answers at once (run where the loss asks for it), the wait is zero: the second failure gives up
        ScheduledThreadPoolExecutor inline = new ScheduledThreadPoolExecutor(1) {
            @Override
            public void execute(Runnable command) {
                command.run();
            }
        };
        schedulers.add(inline);
        ClusteredSessionTable a = new ClusteredSessionTable("terracotta://test:9410/jwd", server,
                new EhcacheSessionTable(TIMEOUT, 10_000, 10_000, 0, clock::get, null),
                SessionTimeouts.both(TIMEOUT), clock::get, inline, Duration.ZERO);
        nodes.add(a);
        server.sessionWritesToFail.set(3);

        assertThat(a.bind("s1", "x")).isEqualTo("x");

        assertThat(server.sessionWritesToFail.get()).as("two tries, the second after the wait").isEqualTo(1);
        assertThat(a.clusterState()).isEqualTo(ClusterState.CONNECTED);
        assertThat(a.lookup("s1")).isEqualTo("x");
    }

    @Test
    void closingTheTableClosesTheServersClientAndItsOwnTable() {
        EhcacheSessionTable own = new EhcacheSessionTable(TIMEOUT, 10_000, 10_000, 0, clock::get, null);
        ClusteredSessionTable a = new ClusteredSessionTable("terracotta://test:9410/jwd", server, own,
                SessionTimeouts.both(TIMEOUT), clock::get, null, Duration.ZERO);
        a.bind("s1", "x");

        a.close();

        assertThat(server.closed).isTrue();
        assertThat(own.lookup("s1")).as("closed").isNull();
        assertThat(a.lookup("s1")).isNull();
        assertThat(a.bind("s2", "y")).isEqualTo("y");
        assertThat(server.map).doesNotContainKey("s2");
    }

    @Test
    void aNodeThatNeverReachedTheServerBindsOnItsOwnWithoutTryingIt() {
        server.available = false;
        ClusteredSessionTable a = node(Duration.ofMinutes(1));
        int calls = server.calls.get();

        assertThat(a.bind("s1", "x")).isEqualTo("x");

        assertThat(server.calls.get()).as("no wait, no try").isEqualTo(calls);
        assertThat(a.clusterState()).isEqualTo(ClusterState.CONNECTING);
    }

    @Test
    void saysWhenTheServerIsLostHowLongNewSessionsWaitAndWhenItIsBack() {
        try (LogCapture log = new LogCapture(ClusteredSessionTable.class)) {
            server.available = false;
            ClusteredSessionTable late = node();
            assertThat(log.text()).contains("not reachable at startup (unreachable); this node serves sessions "
                    + "from its own table and keeps trying");
            server.available = true;
            assertThat(late.probe()).isTrue();
            assertThat(log.text()).contains("connected; bindings are shared with every node")
                    .doesNotContain("connected again");

            ClusteredSessionTable a = node(Duration.ofMinutes(1));
            server.available = false;
            a.lookup("s1");
            assertThat(log.text()).contains("new sessions wait up to 60000 ms for the server");
            advance(12_000);
            server.available = true;
            assertThat(a.probe()).isTrue();
            assertThat(log.text()).contains("connected again after 12 s");
        }
        try (LogCapture log = new LogCapture(ClusteredSessionTable.class)) {
            node();
            assertThat(log.text()).doesNotContain("not reachable");
        }
    }

    @Test
    void aProbeOfAConnectedTableAsksNothingAndAClosedTableProbesNoMore() {
        ClusteredSessionTable a = node();
        int calls = server.calls.get();
        assertThat(a.probe()).isTrue();
        assertThat(server.calls.get()).isEqualTo(calls);

        server.available = false;
        a.lookup("s1");
        a.close();
        server.available = true;
        calls = server.calls.get();
        assertThat(a.probe()).isFalse();
        assertThat(server.calls.get()).isEqualTo(calls);
    }

    @Test
    void anInterruptedRequestStopsWaitingForTheServerAndKeepsItsInterrupt() {
        ClusteredSessionTable a = node(Duration.ofMinutes(1));
        server.available = false;
        a.lookup("s1"); // the loss: new bindings wait for the server
        int callsAfterTheLoss = server.calls.get();

        Thread.currentThread().interrupt();
        try {
            assertThat(a.bind("s1", "x")).as("bound here at once").isEqualTo("x");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
            assertThat(server.calls.get()).as("the lost server is not tried").isEqualTo(callsAfterTheLoss);
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void closingReleasesARequestWaitingForTheServer() throws Exception {
        ClusteredSessionTable a = node(Duration.ofMinutes(1));
        server.available = false;
        a.lookup("s1");
        ExecutorService requests = Executors.newSingleThreadExecutor();
        try {
            AtomicReference<Thread> waiter = new AtomicReference<>();
            Future<String> bound = requests.submit(() -> {
                waiter.set(Thread.currentThread());
                return a.bind("s2", "x");
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> waiter.get() != null
                    && waiter.get().getState() == Thread.State.TIMED_WAITING);

            a.close();

            assertThat(bound.get(10, TimeUnit.SECONDS)).isEqualTo("x");
        } finally {
            requests.shutdownNow();
        }
    }

    // ---- another node's write between two steps of this one's (the store's hooks place it) ----

    @Test
    void aRenewalThatFindsTheBindingChangedFollowsTheOtherNode() {
        ClusteredSessionTable a = node();
        a.bind("s1", "x");
        advance(1_500); // due for renewal (R = 1 s)
        server.beforeNextReplace.set(() -> server.map.put("s1", "y|" + clock.get())); // node b rebinds it

        assertThat(a.lookup("s1")).isEqualTo("y");
        assertThat(a.peek("s1")).isEqualTo("y");
    }

    @Test
    void aRenewalThatFindsADeadBindingInItsPlaceBindsItAgain() {
        ClusteredSessionTable a = node();
        a.bind("s1", "x");
        advance(1_500);
        server.beforeNextReplace.set(() -> server.map.put("s1", "y|0")); // a node whose clock is far behind

        assertThat(a.lookup("s1")).isEqualTo("x");
        assertThat(server.map).containsEntry("s1", "x|" + clock.get());
    }

    @Test
    void aRenewalThatFindsTheBindingGoneBindsItAgain() {
        ClusteredSessionTable a = node();
        a.bind("s1", "x");
        advance(1_500);
        server.beforeNextReplace.set(() -> server.map.remove("s1")); // the server's own expiry took it

        assertThat(a.lookup("s1")).isEqualTo("x");
        assertThat(server.map).containsEntry("s1", "x|" + clock.get());
    }

    @Test
    void aCarryOverThatFindsAnotherNodesBindingFollowsItAndMirrorsIt() {
        ClusteredSessionTable a = node();
        server.available = false;
        a.bind("s1", "x"); // during the outage, on node a alone
        server.available = true;
        a.probe();
        server.beforeNextPutIfAbsent.set(() -> server.map.put("s1", "y|" + clock.get())); // node b carried over first

        assertThat(a.lookup("s1")).isEqualTo("y");
        assertThat(a.clusterStatus().carriedOver()).isZero();
        server.available = false;
        assertThat(a.lookup("s1")).as("node a's own copy follows").isEqualTo("y");
    }

    @Test
    void replacingADeadBindingThatAnotherNodeReplacedFirstFollowsThatNode() {
        ClusteredSessionTable a = node();
        server.map.put("s1", "x|" + (clock.get() - 60_000)); // long dead
        server.beforeNextReplace.set(() -> server.map.put("s1", "y|" + clock.get()));

        assertThat(a.bind("s1", "z")).isEqualTo("y");
    }

    @Test
    void aBindingThatLosesEightReplacesInARowGivesUpAndKeepsItsOwnServer() {
        ClusteredSessionTable a = node();
        server.map.put("s1", "y|0");
        AtomicInteger stamp = new AtomicInteger();
        Runnable deadAgain = new Runnable() {
            @Override
            public void run() { // another dead binding each time, just before this node's replace
                server.map.put("s1", "y|" + stamp.incrementAndGet());
                server.beforeNextReplace.set(this);
            }
        };
        server.beforeNextReplace.set(deadAgain);

        assertThat(a.bind("s1", "x")).isEqualTo("x");
        assertThat(server.replaces.get()).isEqualTo(8);
    }

    @Test
    void aRebindingThatLosesEightReplacesInARowGivesUpAndTakesTheNewServer() {
        ClusteredSessionTable a = node();
        a.bind("s1", "x");
        int replacesBefore = server.replaces.get();
        Runnable renewedAgain = new Runnable() {
            @Override
            public void run() { // another node renews the binding to x each time, just before this node's replace
                server.map.put("s1", "x|" + clock.addAndGet(1));
                server.beforeNextReplace.set(this);
            }
        };
        server.beforeNextReplace.set(renewedAgain);

        assertThat(a.rebind("s1", "x", "z")).isEqualTo("z");
        assertThat(server.replaces.get() - replacesBefore).isEqualTo(8);
    }

    @Test
    void aRebindingIsMirroredCountedAndOfAVanishedBindingABinding() {
        ClusteredSessionTable a = node();
        a.bind("s1", "x");
        assertThat(a.rebind("s1", "x", "y")).isEqualTo("y");
        assertThat(a.rebind("s9", "x", "y")).as("nothing bound: bound afresh").isEqualTo("y");

        assertThat(a.stats().rebindings()).isEqualTo(1);
        assertThat(server.map.get("s9")).startsWith("y|");
        server.available = false;
        assertThat(a.lookup("s1")).as("node a's own copy was rebound too").isEqualTo("y");
    }

    @Test
    void timesEachWriteTheServerAnsweredButNotItsReadsTheProbeOrAFailedWrite() {
        ClusteredSessionTable a = node();
        AtomicLong takes = new AtomicLong(300_000);
        server.duringWrite = () -> nanos.addAndGet(takes.get());
        a.bind("s1", "x");                          // putIfAbsent: 300 µs
        takes.set(500_000);
        assertThat(a.rebind("s1", "x", "y")).isEqualTo("y"); // a read, then replace: 500 µs
        assertThat(a.lookup("s1")).as("a read, not due for renewal").isEqualTo("y");
        assertThat(a.clusterStatus().writes()).isEqualTo(2);
        assertThat(a.clusterStatus().writeNanos()).isEqualTo(800_000);

        server.sessionWritesToFail.set(1);
        a.bind("s2", "x");                          // timed out: an outage, served by this node alone
        assertThat(a.clusterState()).isEqualTo(ClusterState.DISCONNECTED);
        assertThat(a.probe()).as("the probe's write is not a session's").isTrue();

        assertThat(a.clusterStatus().writes()).isEqualTo(2);
        assertThat(a.clusterStatus().writeNanos()).isEqualTo(800_000);
        assertThat(server.writes).as("the store saw two probes' writes (the start's, this one) and the failed one too")
                .hasValue(5);
    }

    @Test
    void aTouchedKeyTheServerDoesNotHoldIsStoredAsNoBindingOnceWhateverItsKindAndABindingOfItStillWins() {
        ClusteredSessionTable a = node();
        ClusteredSessionTable b = node();
        String temporary = SessionTimeouts.temporaryKey("ROUTED0001.b1");
        String esid = SessionTimeouts.esidKey("E1");

        // as SessionAffinity refreshes the keys of a request routed by its JSESSIONID's route suffix
        a.touch(temporary);
        a.touch(esid);
        assertThat(server.map).containsEntry(temporary, SharedBindings.NO_BINDING)
                .containsEntry(esid, SharedBindings.NO_BINDING);
        int writes = server.writes.get();
        a.touch(temporary);
        b.touch(temporary);
        assertThat(server.writes.get()).as("a key stored as no binding is not written again").isEqualTo(writes);
        assertThat(a.lookup(temporary)).as("no binding is no server").isNull();
        assertThat(a.stats().bindings()).isZero();

        assertThat(b.bind(temporary, "x")).as("a binding replaces the stored no-binding").isEqualTo("x");
        assertThat(a.bind(temporary, "y")).as("the first binding wins").isEqualTo("x");
        a.touch(temporary);
        assertThat(server.map.get(temporary)).as("a touch leaves a binding as it is")
                .isNotEqualTo(SharedBindings.NO_BINDING);
        assertThat(a.lookup(temporary)).isEqualTo("x");
    }

    @Test
    void aNewSessionsFirstRequestWritesTwiceItsNoBindingMarkerAndItsTemporaryBinding() {
        ClusteredSessionTable a = node();
        String jsessionid = "NEW0100000001";
        String temporary = SessionTimeouts.temporaryKey(jsessionid);

        // as SessionAffinity reads a JSESSIONID: the learned key first, then the temporary one, then binds
        assertThat(a.lookup(jsessionid)).isNull();
        assertThat(a.lookup(temporary)).isNull();
        assertThat(a.bind(temporary, "x")).isEqualTo("x");

        assertThat(a.clusterStatus().writes()).isEqualTo(2);
        assertThat(a.stats().bindings()).isEqualTo(1);
        assertThat(server.map).containsEntry(jsessionid, SharedBindings.NO_BINDING).containsKey(temporary);
    }

    @Test
    void notClusteredTablesSaySo() {
        assertThat(DisabledSessionTable.INSTANCE.clusterState()).isEqualTo(ClusterState.NONE);
    }

    /** The Terracotta server, as a map with atomic conditional writes that can be made unreachable. */
    private static final class MapStore implements BindingStore {
        final ConcurrentHashMap<String, String> map = new ConcurrentHashMap<>();
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger replaces = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger freshStarts = new AtomicInteger();
        volatile boolean available = true;
        volatile boolean closed;
        /** The client was dropped ({@link #disconnect()}): nothing works until the next {@link #connect()}. */
        volatile boolean dropped;
        volatile boolean readsMiss;
        /** The next write is made, but its answer is lost (the client's timeout after the server wrote). */
        volatile boolean failAfterNextWrite;
        /** Writes of sessions (not the probe's) that time out before they reach the server, one each. */
        final AtomicInteger sessionWritesToFail = new AtomicInteger();
        /** What happens while such a write times out: the test's clock moves on. */
        volatile Runnable onTimedOutWrite = () -> { };
        /** What happens while any write is made: the nanosecond clock moves on. */
        volatile Runnable duringWrite = () -> { };
        /** Another node's write that lands just before the next putIfAbsent, or replace, of a session. */
        final AtomicReference<Runnable> beforeNextPutIfAbsent = new AtomicReference<>();
        final AtomicReference<Runnable> beforeNextReplace = new AtomicReference<>();

        private static void another(AtomicReference<Runnable> write) {
            Runnable once = write.getAndSet(null);
            if (once != null) {
                once.run();
            }
        }

        private void reach() {
            calls.incrementAndGet();
            if (!available) {
                throw new UnavailableException("unreachable", null);
            }
        }

        /** An operation of the client: it needs a connection that was not dropped since. */
        private void use() {
            reach();
            if (dropped) {
                throw new UnavailableException("not connected", null);
            }
        }

        @Override
        public void connect() {
            reach();
            dropped = false;
        }

        @Override
        public String get(String key) {
            if (readsMiss) {
                calls.incrementAndGet();
                return null;
            }
            use();
            return map.get(key);
        }

        @Override
        public String putIfAbsent(String key, String value) {
            use();
            writes.incrementAndGet();
            duringWrite.run();
            another(beforeNextPutIfAbsent);
            if (!ClusteredSessionTable.PROBE_KEY.equals(key)
                    && sessionWritesToFail.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                onTimedOutWrite.run();
                throw new UnavailableException("write timed out", null);
            }
            String previous = map.putIfAbsent(key, value);
            if (failAfterNextWrite) {
                failAfterNextWrite = false;
                throw new UnavailableException("write timed out", null);
            }
            return previous;
        }

        @Override
        public boolean replace(String key, String expected, String value) {
            use();
            writes.incrementAndGet();
            duringWrite.run();
            another(beforeNextReplace);
            replaces.incrementAndGet();
            return map.replace(key, expected, value);
        }

        @Override
        public void disconnect() {
            freshStarts.incrementAndGet();
            dropped = true;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
