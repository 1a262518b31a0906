package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Concurrent first requests of a session must agree on one server. For each of {@value #IDS} fresh ids,
 * {@value #THREADS} threads are released at once by a {@link CyclicBarrier} and bind the id, thread {@code i}
 * offering server {@code "s" + (i % 3)}; every thread must get the same answer, and the table must hold it.
 */
class SessionTableConcurrencyTest {

    static final int IDS = 1_000;
    static final int THREADS = 32;

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

    private EhcacheSessionTable table(boolean offHeap, long maxEntries) {
        return new EhcacheSessionTable(Duration.ofMinutes(10), maxEntries, maxEntries, offHeap ? 8 : 0, clock::get,
                null);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void concurrentFirstBindingsAgreeOnOneWinnerPerId(boolean offHeap) throws Exception {
        try (EhcacheSessionTable table = table(offHeap, 10_000)) {
            Race race = race(table, (t, id, thread) -> t.bind(id, "s" + (thread % 3)));
            assertThat(race.splitIds).as("ids on which threads disagreed").isEmpty();
            assertThat(race.tableDisagreements).as("ids whose table entry is not the agreed winner").isEmpty();
            assertThat(race.winners).as("winners are offered servers").isSubsetOf("s0", "s1", "s2").isNotEmpty();
            SessionTableStats stats = table.stats();
            assertThat(stats.bindings()).isEqualTo(IDS);
            assertThat(stats.entries()).isEqualTo(IDS);
        }
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void concurrentRebindingsAgreeOnOneNewServerPerId(boolean offHeap) throws Exception {
        try (EhcacheSessionTable table = table(offHeap, 10_000)) {
            for (int i = 0; i < IDS; i++) {
                table.bind(id(i), "down");
            }
            Race race = race(table, (t, id, thread) -> t.rebind(id, "down", "s" + (thread % 3)));
            assertThat(race.splitIds).isEmpty();
            assertThat(race.tableDisagreements).isEmpty();
            assertThat(race.winners).doesNotContain("down");
            assertThat(table.stats().rebindings()).isEqualTo(IDS);
        }
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void concurrentBindingsNeverOverfillTheTable(boolean offHeap) throws Exception {
        try (EhcacheSessionTable table = table(offHeap, 100)) {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                CyclicBarrier start = new CyclicBarrier(8);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    int thread = t;
                    done.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < 1_000; i++) {
                            String server = "s" + thread;
                            String id = "t" + thread + "-" + i;
                            String answer = table.bind(id, server);
                            assertThat(answer).isEqualTo(server);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            SessionTableStats stats = table.stats();
            assertThat(stats.entries()).isEqualTo(100);
            assertThat(stats.bindings()).isEqualTo(100);
            assertThat(stats.rejected()).isEqualTo(8_000 - 100);
            int stored = 0;
            for (int t = 0; t < 8; t++) {
                for (int i = 0; i < 1_000; i++) {
                    if (table.lookup("t" + t + "-" + i) != null) {
                        stored++;
                    }
                }
            }
            assertThat(stored).isEqualTo(100);
        }
    }

    /**
     * The same race against a deliberately broken table (get, then put) must detect disagreement, or the race
     * would prove nothing. With the barrier the threads pile into the window between get and put; the broken
     * table yields the processor there, as any real code between the two steps (a log call, a counter, a page
     * fault, being descheduled) may, which makes the split reliable even on a machine with few cores.
     */
    @Test
    void theRaceDetectsAGetThenPutTable() throws Exception {
        try (BrokenGetThenPutTable table = new BrokenGetThenPutTable()) {
            Race race = race(table, (t, id, thread) -> t.bind(id, "s" + (thread % 3)));
            assertThat(race.splitIds).as("ids on which threads disagreed").isNotEmpty();
        }
    }

    @FunctionalInterface
    interface Operation {
        String apply(SessionTable table, String id, int thread);
    }

    record Race(Set<String> splitIds, Set<String> tableDisagreements, Set<String> winners) {
    }

    private static String id(int i) {
        return String.format("%032X.node%d", (long) i * 0x9E3779B97F4A7C15L, i % 4);
    }

    private static Race race(SessionTable table, Operation operation) throws Exception {
        String[] ids = new String[IDS];
        for (int i = 0; i < IDS; i++) {
            ids[i] = id(i);
        }
        String[][] answers = new String[THREADS][IDS];
        CyclicBarrier barrier = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < IDS; i++) {
                        barrier.await(60, TimeUnit.SECONDS);
                        answers[thread][i] = operation.apply(table, ids[i], thread);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Set<String> split = new HashSet<>();
        Set<String> tableDisagreements = new HashSet<>();
        Set<String> winners = new HashSet<>();
        for (int i = 0; i < IDS; i++) {
            Set<String> distinct = new HashSet<>();
            for (int t = 0; t < THREADS; t++) {
                distinct.add(answers[t][i]);
            }
            if (distinct.size() > 1) {
                split.add(ids[i]);
            } else {
                String winner = distinct.iterator().next();
                winners.add(winner);
                if (!winner.equals(table.lookup(ids[i]))) {
                    tableDisagreements.add(ids[i]);
                }
            }
        }
        return new Race(split, tableDisagreements, winners);
    }

    /**
     * What not to do: look, then store. Two threads can both see "unbound" and both store their own server. It
     * yields the processor between the two steps (see {@link #theRaceDetectsAGetThenPutTable()}).
     */
    static final class BrokenGetThenPutTable implements SessionTable {
        private final Map<String, String> map = new ConcurrentHashMap<>();

        @Override
        public String lookup(String sessionId) {
            return map.get(sessionId);
        }

        @Override
        public String bind(String sessionId, String serverId) {
            String bound = map.get(sessionId);
            if (bound != null) {
                return bound;
            }
            Thread.yield();
            map.put(sessionId, serverId);
            return serverId;
        }

        @Override
        public String rebind(String sessionId, String expectedServerId, String newServerId) {
            map.put(sessionId, newServerId);
            return newServerId;
        }

        @Override
        public SessionTableStats stats() {
            return new SessionTableStats(map.size(), 0, 0, 0, 0, 0, 0);
        }

        @Override
        public void close() {
            map.clear();
        }
    }
}
