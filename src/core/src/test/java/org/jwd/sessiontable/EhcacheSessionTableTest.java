package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.routing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every table test runs on heap ({@code false}) and off heap ({@code true}); the clock moves by hand. */
class EhcacheSessionTableTest {

    static final Duration TIMEOUT = Duration.ofMinutes(10);
    static final long OFF_HEAP_MB = 8;

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final List<EhcacheSessionTable> tables = new ArrayList<>();

    @AfterEach
    void closeTables() {
        tables.forEach(EhcacheSessionTable::close);
    }

    private EhcacheSessionTable table(boolean offHeap) {
        return table(offHeap, 1_000);
    }

    private EhcacheSessionTable table(boolean offHeap, long maxEntries) {
        EhcacheSessionTable table = new EhcacheSessionTable(TIMEOUT, maxEntries, maxEntries,
                offHeap ? OFF_HEAP_MB : 0, clock::get, null);
        tables.add(table);
        return table;
    }

    private void advance(Duration d) {
        clock.addAndGet(d.toMillis());
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void lookupFindsTheBindingAndCountsHitsAndMisses(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        assertThat(table.lookup("id1")).isNull();
        assertThat(table.bind("id1", "s1")).isEqualTo("s1");
        assertThat(table.lookup("id1")).isEqualTo("s1");
        assertThat(table.lookup("id1")).isEqualTo("s1");
        assertThat(table.stats()).isEqualTo(new SessionTableStats(1, 2, 1, 1, 0, 0, 0));
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void aShorterTimeoutAppliesToNewEntriesAtOnceAndToOldOnesPastTheirDeadline(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        table.bind("old", "s1");

        table.changeTimeouts(SessionTimeouts.both(Duration.ofMinutes(1)));
        assertThat(table.timeouts()).isEqualTo(SessionTimeouts.both(Duration.ofMinutes(1)));
        table.bind("new", "s2");
        advance(Duration.ofSeconds(61));
        assertThat(table.lookup("new")).isNull();
        // Ehcache never brings a deadline forward: the old entry keeps the 10 minutes its binding gave it
        assertThat(table.lookup("old")).isEqualTo("s1");
        advance(TIMEOUT);
        assertThat(table.lookup("old")).isNull();
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void aLongerTimeoutAppliesToEachEntryFromItsNextUse(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        table.bind("s", "s1");
        table.bind("untouched", "s2");

        table.changeTimeouts(SessionTimeouts.both(Duration.ofMinutes(30)));
        advance(Duration.ofMinutes(5));
        assertThat(table.lookup("s")).isEqualTo("s1");
        advance(Duration.ofMinutes(20)); // 20 minutes idle: past the old 10, within the new 30
        assertThat(table.lookup("s")).isEqualTo("s1");
        assertThat(table.lookup("untouched")).isNull();
        assertThat(table.stats().entries()).isEqualTo(1);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void firstBindingWins(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        assertThat(table.bind("id1", "s1")).isEqualTo("s1");
        assertThat(table.bind("id1", "s2")).isEqualTo("s1");
        assertThat(table.lookup("id1")).isEqualTo("s1");
        assertThat(table.stats().bindings()).isEqualTo(1);
        assertThat(table.stats().entries()).isEqualTo(1);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void entryTouchedWithinTheTimeoutLivesOnPastSeveralTimeouts(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        long start = clock.get();
        table.bind("busy", "s1");
        for (int i = 0; i < 6; i++) {
            advance(TIMEOUT.minusMinutes(1));
            assertThat(table.lookup("busy")).as("lookup %d", i).isEqualTo("s1");
        }
        assertThat(clock.get() - start).isGreaterThan(TIMEOUT.multipliedBy(5).toMillis());
        assertThat(table.sweep()).isZero();
        assertThat(table.stats().expirations()).isZero();
        assertThat(table.stats().entries()).isEqualTo(1);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void bindAndRebindAlsoRefreshTheIdleTime(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        table.bind("id", "s1");
        advance(TIMEOUT.minusMinutes(1));
        assertThat(table.bind("id", "s2")).isEqualTo("s1");
        advance(TIMEOUT.minusMinutes(1));
        assertThat(table.rebind("id", "s1", "s3")).isEqualTo("s3");
        advance(TIMEOUT.minusMinutes(1));
        assertThat(table.lookup("id")).isEqualTo("s3");
        assertThat(table.stats().expirations()).isZero();
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void untouchedEntryExpiresAndIsCountedWhenLookedUp(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        table.bind("idle", "s1");
        table.bind("busy", "s2");
        advance(TIMEOUT.minusMinutes(1));
        assertThat(table.lookup("busy")).isEqualTo("s2");
        advance(Duration.ofMinutes(2));
        assertThat(table.lookup("idle")).isNull();
        assertThat(table.lookup("busy")).isEqualTo("s2");
        SessionTableStats stats = table.stats();
        assertThat(stats.expirations()).isEqualTo(1);
        assertThat(stats.entries()).isEqualTo(1);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void sweepRemovesAndCountsEveryExpiredEntryWithoutRefreshingTheOthers(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        for (int i = 0; i < 100; i++) {
            table.bind("id" + i, "s" + (i % 3));
        }
        advance(TIMEOUT.minusMinutes(1));
        for (int i = 0; i < 100; i += 2) {
            table.lookup("id" + i);
        }
        assertThat(table.sweep()).isZero();
        advance(Duration.ofMinutes(2));
        assertThat(table.sweep()).isEqualTo(50);
        assertThat(table.stats().expirations()).isEqualTo(50);
        assertThat(table.stats().entries()).isEqualTo(50);
        // the sweep did not refresh the even ones: they expire one timeout after their last lookup
        advance(TIMEOUT.minusMinutes(1));
        assertThat(table.sweep()).isEqualTo(50);
        assertThat(table.stats().entries()).isZero();
        assertThat(table.stats().expirations()).isEqualTo(100);
        assertThat(table.lookup("id0")).isNull();
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void fullTableRefusesNewBindingsAndTheCallerBalances(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap, 3);
        assertThat(table.bind("a", "s1")).isEqualTo("s1");
        assertThat(table.bind("b", "s1")).isEqualTo("s1");
        assertThat(table.bind("c", "s2")).isEqualTo("s2");

        assertThat(table.bind("d", "s3")).isEqualTo("s3");
        assertThat(table.lookup("d")).isNull();
        SessionTableStats stats = table.stats();
        assertThat(stats.rejected()).isEqualTo(1);
        assertThat(stats.entries()).isEqualTo(3);
        assertThat(stats.bindings()).isEqualTo(3);
        // nothing was evicted for the newcomer
        assertThat(table.lookup("a")).isEqualTo("s1");
        assertThat(table.lookup("b")).isEqualTo("s1");
        assertThat(table.lookup("c")).isEqualTo("s2");
        assertThat(table.evictions()).isZero();
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void fullTableStillAnswersWithAnExistingBinding(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap, 2);
        table.bind("a", "s1");
        table.bind("b", "s2");
        assertThat(table.bind("a", "s3")).isEqualTo("s1");
        assertThat(table.stats().rejected()).isZero();
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void fullTableMakesRoomOnceEntriesExpire(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap, 3);
        table.bind("a", "s1");
        table.bind("b", "s1");
        table.bind("c", "s1");
        assertThat(table.bind("d", "s2")).isEqualTo("s2");
        assertThat(table.stats().rejected()).isEqualTo(1);

        advance(TIMEOUT.plusSeconds(1));
        assertThat(table.bind("e", "s2")).isEqualTo("s2");
        assertThat(table.bind("e", "s3")).isEqualTo("s2");
        assertThat(table.lookup("e")).isEqualTo("s2");
        SessionTableStats stats = table.stats();
        assertThat(stats.expirations()).isEqualTo(3);
        assertThat(stats.entries()).isEqualTo(1);
        assertThat(stats.rejected()).isEqualTo(1);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void fullTableSweepsAtMostOnceASecondForRoom(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap, 1);
        table.bind("a", "s1");
        assertThat(table.bind("b", "s2")).isEqualTo("s2"); // full: sweeps, finds nothing expired, refuses
        advance(TIMEOUT.plusSeconds(1));                    // "a" has expired (nobody noticed yet)
        assertThat(table.bind("c", "s2")).isEqualTo("s2"); // full: sweeps again (long after), finds room
        assertThat(table.lookup("c")).isEqualTo("s2");
        advance(TIMEOUT.plusSeconds(1));                    // "c" has expired
        assertThat(table.bind("d", "s1")).isEqualTo("s1"); // sweeps, takes the room of "c"
        assertThat(table.bind("e", "s1")).isEqualTo("s1"); // full, and swept within the second: refused
        assertThat(table.lookup("d")).isEqualTo("s1");
        assertThat(table.lookup("e")).isNull();
        assertThat(table.stats().rejected()).isEqualTo(2);
        assertThat(table.stats().expirations()).isEqualTo(2);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void rebindReplacesOnlyTheExpectedServer(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        table.bind("id", "s1");
        assertThat(table.rebind("id", "s2", "s3")).isEqualTo("s1");
        assertThat(table.lookup("id")).isEqualTo("s1");
        assertThat(table.stats().rebindings()).isZero();

        assertThat(table.rebind("id", "s1", "s3")).isEqualTo("s3");
        assertThat(table.lookup("id")).isEqualTo("s3");
        assertThat(table.rebind("id", "s1", "s2")).isEqualTo("s3");
        assertThat(table.stats().rebindings()).isEqualTo(1);
        assertThat(table.stats().entries()).isEqualTo(1);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void rebindOfAVanishedEntryBindsAfresh(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        table.bind("id", "s1");
        advance(TIMEOUT.plusSeconds(1));
        assertThat(table.rebind("id", "s1", "s2")).isEqualTo("s2");
        assertThat(table.lookup("id")).isEqualTo("s2");
        assertThat(table.rebind("never-bound", "s1", "s2")).isEqualTo("s2");
        assertThat(table.rebind("no-expectation", null, "s3")).isEqualTo("s3");
        SessionTableStats stats = table.stats();
        assertThat(stats.bindings()).isEqualTo(4);
        assertThat(stats.rebindings()).isZero();
        assertThat(stats.expirations()).isEqualTo(1);
        assertThat(stats.entries()).isEqualTo(3);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void serverIdsAreSharedInstances(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        String first = new String("server-1");
        table.bind("a", first);
        table.bind("b", new String("server-1"));
        assertThat(table.lookup("a")).isSameAs(first);
        assertThat(table.lookup("b")).isSameAs(first);
        assertThat(table.bind("b", "x")).isSameAs(first);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void nullSessionIdMeansNoSession(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        assertThat(table.lookup(null)).isNull();
        assertThat(table.bind(null, "s1")).isEqualTo("s1");
        assertThat(table.rebind(null, "s1", "s2")).isEqualTo("s2");
        assertThat(table.stats()).isEqualTo(new SessionTableStats(0, 0, 0, 0, 0, 0, 0));
        assertThatThrownBy(() -> table.bind("id", null)).isInstanceOf(NullPointerException.class);
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void closedTableNeverFailsARequest(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        table.bind("id", "s1");
        table.close();
        table.close();
        assertThat(table.lookup("id")).isNull();
        assertThat(table.bind("id", "s2")).isEqualTo("s2");
        assertThat(table.rebind("id", "s1", "s3")).isEqualTo("s3");
        assertThat(table.sweep()).isZero();
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void theExplainReadsTheBindingAndTheIdleTimeLeftWithoutCountingOrRenewingIt(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap);
        table.bind("id", "s1");
        advance(Duration.ofMinutes(3));

        assertThat(table.peek("id")).isEqualTo("s1");
        assertThat(table.idleLeft("id")).isEqualTo(Duration.ofMinutes(7));
        assertThat(table.peek("other")).isNull();
        assertThat(table.idleLeft("other")).isNull();
        assertThat(table.peek(null)).isNull();
        assertThat(table.idleLeft(null)).isNull();
        assertThat(table.stats().hits() + table.stats().misses()).isZero();
        advance(Duration.ofMinutes(7));
        assertThat(table.lookup("id")).as("the reads renewed nothing").isNull();
        table.close();
        assertThat(table.peek("id")).isNull();
        assertThat(table.idleLeft("id")).isNull();
    }

    @ParameterizedTest(name = "offHeap={0}")
    @ValueSource(booleans = {false, true})
    void aBindingReadBackFromDiskYieldsToOneMadeMeanwhileAndToAFullTable(boolean offHeap) {
        EhcacheSessionTable table = table(offHeap, 2);
        table.bind("a", "s1");

        assertThat(table.restore("a", "s2", Duration.ofMinutes(5))).isFalse();
        assertThat(table.restore("b", "s2", Duration.ofMinutes(5))).isTrue();
        assertThat(table.restore("c", "s2", Duration.ofMinutes(5))).as("full").isFalse();

        assertThat(table.peek("a")).isEqualTo("s1");
        assertThat(table.idleLeft("b")).isEqualTo(Duration.ofMinutes(5));
        assertThat(table.peek("c")).isNull();
        assertThat(table.stats().entries()).isEqualTo(2);
        assertThat(table.stats().bindings()).as("a restored binding is no new binding").isEqualTo(1);
        table.close();
        assertThat(table.restore("d", "s2", Duration.ofMinutes(5))).isFalse();
    }

    @Test
    void aFullTableWarnsOnceEveryFiveMinutesAtMost() {
        try (LogCapture log = new LogCapture(EhcacheSessionTable.class)) {
            EhcacheSessionTable table = table(false, 1);
            table.bind("a", "s1");
            table.bind("b", "s1");
            table.bind("c", "s1");
            advance(Duration.ofMinutes(5).minusMillis(1));
            table.bind("d", "s1");
            assertThat(warnings(log)).singleElement().asString().contains("Session table full (1 entries, "
                    + "1 bindings refused so far)");
            advance(Duration.ofMillis(1));
            table.bind("e", "s1");
            assertThat(warnings(log)).hasSize(2).last().asString().contains("4 bindings refused so far");
        }
    }

    @Test
    void saysAtStartWhereTheEntriesLiveAndWarnsOfAnOffHeapTierTooSmallForThem() {
        try (LogCapture log = new LogCapture(EhcacheSessionTable.class)) {
            tables.add(new EhcacheSessionTable(TIMEOUT, 1_000, 1_000, 0, clock::get, null));
            tables.add(new EhcacheSessionTable(TIMEOUT, 1_000_000, 1_000, 1, clock::get, null));
            assertThat(log.text()).contains("Session table on heap: idle timeout", "at most 1000 entries",
                    "Session table off heap: 1 MB", "fewer than the 1000000 allowed");
        }
    }

    @Test
    void aSweepWarnsOfEvictionsWhenTheyGrew() {
        EhcacheSessionTable table = new EhcacheSessionTable(TIMEOUT, 1_000_000, 1_000_000, 1, clock::get, null);
        tables.add(table);
        for (int i = 0; i < 40_000; i++) {
            table.bind(String.format("%032x.node1", i), "s1");
        }
        try (LogCapture log = new LogCapture(EhcacheSessionTable.class)) {
            table.sweep();
            table.sweep();
            assertThat(warnings(log)).singleElement().asString()
                    .contains(table.evictions() + " sessions evicted so far because 1 MB off heap are full");
        }
    }

    private static List<String> warnings(LogCapture log) {
        return log.text().lines().filter(l -> l.contains("WARN")).toList();
    }

    @Test
    void describesItself() {
        assertThat(table(false, 5)).hasToString("EhcacheSessionTable[heap, timeout " + SessionTimeouts.both(TIMEOUT)
                + ", capacity 5, " + new SessionTableStats(0, 0, 0, 0, 0, 0, 0) + "]");
        assertThat(table(true, 5).toString()).startsWith("EhcacheSessionTable[off heap, ");
    }

    @Test
    void onHeapTheHeapEntriesBoundTheTable() {
        EhcacheSessionTable table = new EhcacheSessionTable(TIMEOUT, 10, 2, 0, clock::get, null);
        tables.add(table);
        assertThat(table.capacity()).isEqualTo(2);
        assertThat(table.offHeap()).isFalse();
        table.bind("a", "s");
        table.bind("b", "s");
        assertThat(table.bind("c", "t")).isEqualTo("t");
        assertThat(table.stats().rejected()).isEqualTo(1);
        assertThat(table.evictions()).isZero();
    }

    @Test
    void offHeapIgnoresTheHeapEntries() {
        EhcacheSessionTable table = new EhcacheSessionTable(TIMEOUT, 10, 2, OFF_HEAP_MB, clock::get, null);
        tables.add(table);
        assertThat(table.capacity()).isEqualTo(10);
        assertThat(table.offHeap()).isTrue();
        for (int i = 0; i < 10; i++) {
            table.bind("id" + i, "s");
        }
        assertThat(table.stats().entries()).isEqualTo(10);
        assertThat(table.stats().rejected()).isZero();
    }

    @Test
    void tooSmallOffHeapEvictsRatherThanFails() {
        EhcacheSessionTable table = new EhcacheSessionTable(TIMEOUT, 1_000_000, 1_000_000, 1, clock::get, null);
        tables.add(table);
        for (int i = 0; i < 40_000; i++) {
            assertThat(table.bind(String.format("%032x.node1", i), "s1")).isEqualTo("s1");
        }
        assertThat(table.evictions()).isPositive();
        assertThat(table.stats().entries()).isEqualTo(40_000 - table.evictions());
        table.sweep();
    }

    @Test
    void invalidArgumentsAreRefused() {
        assertThatThrownBy(() -> new EhcacheSessionTable(Duration.ZERO, 1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EhcacheSessionTable(Duration.ofMinutes(-1), 1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EhcacheSessionTable(TIMEOUT, 0, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EhcacheSessionTable(TIMEOUT, 1, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EhcacheSessionTable(TIMEOUT, 1, 1, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void backgroundSweepsRunOnTheSchedulerGivenAndStopOnClose() throws Exception {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
        try {
            EhcacheSessionTable table = new EhcacheSessionTable(TIMEOUT, 10, 10, 0, clock::get,
                    new SweepSchedule(scheduler, Duration.ofMillis(1)));
            table.bind("id", "s1");
            advance(TIMEOUT.plusSeconds(1));
            await().atMost(Duration.ofSeconds(10)).until(() -> table.stats().expirations() == 1);
            assertThat(table.sweepsScheduled()).isTrue();
            table.close();
            assertThat(table.sweepsScheduled()).isFalse();
            scheduler.purge();
            assertThat(scheduler.getQueue()).as("no sweep left on the shared scheduler").isEmpty();
            assertThat(scheduler.isShutdown()).as("the scheduler is not the table's to stop").isFalse();
        } finally {
            scheduler.shutdownNow();
        }
    }
}
