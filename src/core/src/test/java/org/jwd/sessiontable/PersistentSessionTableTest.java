package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.jwd.config.SessionTableDiskConfig;
import org.jwd.routing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Restarts of a persistent table on one directory, the clock moved by hand across the downtime. */
class PersistentSessionTableTest {
    private static final Duration JSESSIONID_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration ESID_TIMEOUT = Duration.ofMinutes(30);
    private static final String ESID = SessionTimeouts.esidKey("esid1");

    @TempDir
    Path dir;

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final List<SessionTable> open = new ArrayList<>();

    @AfterEach
    void closeTables() {
        open.forEach(SessionTable::close);
    }

    private PersistentSessionTable start(Set<String> servers) {
        return start(servers, null);
    }

    private PersistentSessionTable start(Set<String> servers, ScheduledThreadPoolExecutor scheduler) {
        EhcacheSessionTable live = new EhcacheSessionTable(new SessionTimeouts(ESID_TIMEOUT, JSESSIONID_TIMEOUT),
                1_000, 1_000, 0, clock::get, null);
        PersistentSessionTable table = new PersistentSessionTable(live,
                new SessionTableDiskConfig(dir.resolve("table"), Duration.ofMillis(20)), 1_000, servers::contains,
                clock::get, scheduler);
        open.add(table);
        return table;
    }

    private void advance(Duration d) {
        clock.addAndGet(d.toMillis());
    }

    private void stop(PersistentSessionTable table) {
        table.close();
        open.remove(table);
    }

    @Test
    void aRestartKeepsEachBindingWithTheIdleTimeItHadLeft() throws IOException {
        PersistentSessionTable before = start(Set.of("s1", "s2"));
        before.bind("jsession1", "s1");
        before.bind(ESID, "s2");
        advance(Duration.ofMinutes(8));
        before.lookup("jsession1");
        stop(before);
        advance(Duration.ofMinutes(5)); // down for 5 minutes

        PersistentSessionTable after = start(Set.of("s1", "s2"));
        assertThat(after.lookup("jsession1")).as("used 5 of its 10 idle minutes ago").isEqualTo("s1");
        assertThat(Files.readString(dir.resolve("table").resolve(DiskGenerations.FORMAT_FILE)))
                .as("the directory names its format").isEqualTo("jwd session table 1\n");
        assertThat(after.peek(ESID)).as("13 of its 30 idle minutes").isEqualTo("s2");
        assertThat(after.persistence().restored()).isEqualTo(2);
        assertThat(after.persistence().restoredAtMillis()).isEqualTo(clock.get());
        assertThat(after.persistence().persistent()).isTrue();
        assertThat(after.stats().entries()).isEqualTo(2);
        assertThat(after.bind("jsession1", "s2")).as("the restored binding wins").isEqualTo("s1");
    }

    @Test
    void aBindingWhoseIdleTimeRanOutWhileJwdWasDownIsGone() {
        PersistentSessionTable before = start(Set.of("s1"));
        before.bind("jsession1", "s1");
        before.bind(ESID, "s1");
        advance(Duration.ofMinutes(4));
        stop(before);
        advance(Duration.ofMinutes(6)); // 10 minutes idle at the start: the JSESSIONID timeout

        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.peek("jsession1")).isNull();
        assertThat(after.peek(ESID)).isEqualTo("s1");
        assertThat(after.persistence().restored()).isEqualTo(1);
        assertThat(after.persistence().dropped()).isEqualTo(1);
        advance(Duration.ofMinutes(20).minusMillis(1));
        assertThat(after.peek(ESID)).as("29:59 idle of 30").isEqualTo("s1");
        advance(Duration.ofMillis(1));
        assertThat(after.peek(ESID)).as("restored with the idle time it had left, no more").isNull();
    }

    @Test
    void bindingsToAServerNoLongerConfiguredAreDroppedForGood() {
        PersistentSessionTable before = start(Set.of("s1", "s2"));
        before.bind("a", "s1");
        before.bind("b", "s2");
        stop(before);

        PersistentSessionTable without = start(Set.of("s1"));
        assertThat(without.peek("a")).isEqualTo("s1");
        assertThat(without.peek("b")).isNull();
        assertThat(without.persistence().dropped()).isEqualTo(1);
        stop(without);

        PersistentSessionTable withItAgain = start(Set.of("s1", "s2"));
        assertThat(withItAgain.peek("b")).as("removed from disk when it was dropped").isNull();
        assertThat(withItAgain.peek("a")).isEqualTo("s1");
    }

    @Test
    void theBindingThatFillsTheTableIsKeptAndOneRefusedIsNot() {
        EhcacheSessionTable live = new EhcacheSessionTable(SessionTimeouts.both(JSESSIONID_TIMEOUT), 2, 2, 0,
                clock::get, null);
        PersistentSessionTable before = new PersistentSessionTable(live,
                new SessionTableDiskConfig(dir.resolve("table"), Duration.ofSeconds(1)), 2, Set.of("s1")::contains,
                clock::get, null);
        open.add(before);
        before.bind("a", "s1");
        before.bind("b", "s1");
        assertThat(before.bind("c", "s1")).as("refused: the table is full").isEqualTo("s1");
        stop(before);

        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.peek("a")).isEqualTo("s1");
        assertThat(after.peek("b")).isEqualTo("s1");
        assertThat(after.peek("c")).isNull();
    }

    @Test
    void aCrashLosesOnlyWhatWasBoundSinceTheLastFlush() {
        PersistentSessionTable crashing = start(Set.of("s1"));
        crashing.bind("flushed", "s1");
        crashing.flush();
        crashing.bind("not-flushed", "s1");
        crashing.live().close(); // the process dies: no last flush
        open.remove(crashing);

        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.peek("flushed")).isEqualTo("s1");
        assertThat(after.peek("not-flushed")).isNull();
    }

    @Test
    void aCrashWhileWritingAGenerationLeavesThePreviousOne() throws IOException {
        PersistentSessionTable before = start(Set.of("s1"));
        before.bind("a", "s1");
        stop(before);
        Path clean = generations().get(0);
        Path unclean = clean.resolveSibling("gen-99");
        copyTree(clean, unclean);
        Files.delete(unclean.resolve(DiskGenerations.CLEAN_MARK));

        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.peek("a")).isEqualTo("s1");
        assertThat(unclean).doesNotExist();
    }

    @Test
    void aCrashAfterAWriteBeforeTheOldGenerationWentReadsTheNewOne() throws IOException {
        PersistentSessionTable first = start(Set.of("s1"));
        first.bind("a", "s1");
        stop(first);
        Path older = generations().get(0);
        Path kept = older.resolveSibling("gen-0");
        copyTree(older, kept); // the generation before, left behind by a crash
        PersistentSessionTable second = start(Set.of("s1"));
        second.bind("b", "s1");
        stop(second);

        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.peek("a")).isEqualTo("s1");
        assertThat(after.peek("b")).isEqualTo("s1");
        assertThat(kept).doesNotExist();
        assertThat(generations()).hasSize(1);
    }

    @Test
    void aTruncatedFileIsSetAsideWithAWarningAndTheTableStartsEmpty() throws IOException {
        PersistentSessionTable before = start(Set.of("s1"));
        for (int i = 0; i < 200; i++) {
            before.bind("id" + i, "s1");
        }
        stop(before);
        for (Path file : files(generations().get(0))) {
            if (Files.size(file) > 0) {
                try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
                    channel.truncate(Files.size(file) / 3);
                }
            }
        }

        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.persistence().restored()).isZero();
        assertThat(setAside()).hasSize(1);
        assertThat(generations()).as("the copy it was read from is removed")
                .allMatch(gen -> gen.getFileName().toString().contains(".set-aside-"));
        assertThat(after.bind("new", "s1")).isEqualTo("s1");
        stop(after);
        assertThat(start(Set.of("s1")).peek("new")).as("the next generation is written as usual").isEqualTo("s1");
    }

    @Test
    void aForeignFileInItsPlaceIsSetAside() throws IOException {
        Files.writeString(dir.resolve("table"), "not jwd's");

        PersistentSessionTable table = start(Set.of("s1"));
        assertThat(setAside()).hasSize(1);
        assertThat(table.bind("a", "s1")).isEqualTo("s1");
        stop(table);
        assertThat(start(Set.of("s1")).peek("a")).isEqualTo("s1");
    }

    @Test
    void aFlushIntoADirectoryMadeReadOnlyKeepsTheLastGoodWriteWarnsOnceAMinuteAndCatchesUpWhenWritable()
            throws Exception {
        PersistentSessionTable table = start(Set.of("s1"));
        table.bind("before", "s1");
        table.flush();
        List<Path> good = generations();
        long goodFlush = table.persistence().lastFlushMillis();
        table.bind("during", "s1");
        try (LogCapture log = new LogCapture(PersistentSessionTable.class)) {
            try (ReadOnlyDirectory readOnly = ReadOnlyDirectory.of(dir.resolve("table"))) {
                table.flush();
                advance(Duration.ofSeconds(30));
                table.flush();
                assertThat(generations()).as("the last good write, untouched").isEqualTo(good);
                assertThat(table.persistence().flushFailures()).isEqualTo(2);
                assertThat(table.persistence().flushFailure()).isNotNull();
                assertThat(table.persistence().lastFlushMillis()).isEqualTo(goodFlush);
                assertThat(warnings(log)).as("one warning in the first minute").hasSize(1);
                assertThat(warnings(log).get(0)).contains("writing 1 bindings failed", good.get(0).toString(),
                        "is kept");
                advance(Duration.ofSeconds(30));
                table.flush();
                assertThat(warnings(log)).as("the next one a minute later").hasSize(2);
            }
            table.flush();
            assertThat(log.text()).contains("written again after 3 failed writes");
        }
        assertThat(table.persistence().flushFailure()).isNull();
        assertThat(table.persistence().lastFlushMillis()).isEqualTo(clock.get());
        stop(table);
        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.peek("before")).isEqualTo("s1");
        assertThat(after.peek("during")).as("noted again after each failed write").isEqualTo("s1");
    }

    @Test
    void aCrashWhileTheDirectoryIsReadOnlyLeavesTheLastGoodWriteForTheNextStart() throws Exception {
        PersistentSessionTable crashing = start(Set.of("s1"));
        crashing.bind("before", "s1");
        crashing.flush();
        List<Path> good = generations();
        try (ReadOnlyDirectory readOnly = ReadOnlyDirectory.of(dir.resolve("table"))) {
            crashing.bind("during", "s1");
            crashing.flush();
            crashing.live().close(); // the process dies: no last flush
            open.remove(crashing);

            PersistentSessionTable meanwhile = start(Set.of("s1"));
            assertThat(meanwhile.persistence().restored()).as("nothing can be read from a read-only disk").isZero();
            assertThat(meanwhile.bind("new", "s1")).isEqualTo("s1");
            stop(meanwhile);
            assertThat(generations()).isEqualTo(good);
        }
        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.peek("before")).isEqualTo("s1");
        assertThat(after.peek("during")).as("bound after the last good write").isNull();
    }

    @Test
    void theRestoreIsReportedWithItsFiguresAndTheTimeItTook() {
        PersistentSessionTable before = start(Set.of("s1", "s2"));
        before.bind("a", "s1");
        before.bind("b", "s2");
        stop(before);
        advance(Duration.ofMinutes(1));

        try (LogCapture log = new LogCapture(PersistentSessionTable.class)) {
            PersistentSessionTable after = start(Set.of("s1"));
            assertThat(log.text()).contains("1 bindings restored, 1 dropped (idle past their timeout or bound to a "
                    + "server no longer configured) in 0 ms");
            assertThat(after.persistence().restoredAtMillis()).isEqualTo(clock.get());
        }
    }

    @Test
    void aDirectoryThatCannotBePreparedStartsTheTableEmptyAndSaysWhatItKeeps() throws Exception {
        Files.createDirectories(dir.resolve("table"));
        try (LogCapture log = new LogCapture(PersistentSessionTable.class)) {
            try (ReadOnlyDirectory readOnly = ReadOnlyDirectory.of(dir.resolve("table"))) {
                PersistentSessionTable empty = start(Set.of("s1"));
                assertThat(empty.persistence().restoredAtMillis()).isEqualTo(clock.get());
                stop(empty);
            }
            assertThat(warnings(log)).first().asString().contains("cannot be prepared for reading",
                    "the table starts empty, nothing is on disk yet");
        }
        PersistentSessionTable before = start(Set.of("s1"));
        before.bind("a", "s1");
        stop(before);
        List<Path> written = generations();
        try (LogCapture log = new LogCapture(PersistentSessionTable.class)) {
            try (ReadOnlyDirectory readOnly = ReadOnlyDirectory.of(dir.resolve("table"))) {
                stop(start(Set.of("s1")));
            }
            assertThat(warnings(log)).first().asString().contains("cannot be prepared for reading",
                    written.get(0) + " is kept and the next write adds to it");
        }
        PersistentSessionTable kept;
        try (ReadOnlyDirectory readOnly = ReadOnlyDirectory.of(dir.resolve("table"))) {
            kept = start(Set.of("s1"));
        }
        kept.bind("b", "s1");
        stop(kept);
        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.peek("a")).as("the generation kept, added to").isEqualTo("s1");
        assertThat(after.peek("b")).isEqualTo("s1");
    }

    @Test
    void aRebindingIsWrittenAndRestoredLikeABinding() {
        PersistentSessionTable before = start(Set.of("s1", "s2"));
        before.bind("a", "s1");
        before.flush();
        assertThat(before.rebind("a", "s1", "s2")).isEqualTo("s2");
        stop(before);

        PersistentSessionTable after = start(Set.of("s1", "s2"));
        assertThat(after.peek("a")).isEqualTo("s2");
    }

    @Test
    void fullnessTimeoutsAndTheIdleTimeLeftAreTheNodesTables() {
        EhcacheSessionTable live = new EhcacheSessionTable(SessionTimeouts.both(JSESSIONID_TIMEOUT), 1, 1, 0,
                clock::get, null);
        PersistentSessionTable table = new PersistentSessionTable(live,
                new SessionTableDiskConfig(dir.resolve("table"), Duration.ofSeconds(1)), 1, Set.of("s1")::contains,
                clock::get, null);
        open.add(table);
        assertThat(table.isFull()).isFalse();
        table.bind("a", "s1");
        advance(Duration.ofMinutes(4));

        assertThat(table.isFull()).isTrue();
        assertThat(table.idleLeft("a")).isEqualTo(Duration.ofMinutes(6));
        assertThat(table.canChangeTimeout()).isTrue();
        table.changeTimeouts(SessionTimeouts.both(Duration.ofMinutes(1)));
        assertThat(live.timeouts()).isEqualTo(SessionTimeouts.both(Duration.ofMinutes(1)));
    }

    @Test
    void aStopWritesALastTimeClosesTheNodesTableAndSaysWhetherTheWriteWorked() throws Exception {
        try (LogCapture log = new LogCapture(PersistentSessionTable.class)) {
            PersistentSessionTable table = start(Set.of("s1"));
            table.bind("a", "s1");
            stop(table);
            assertThat(table.live().lookup("a")).as("closed").isNull();
            assertThat(log.text()).contains("written at the stop");
            assertThat(warnings(log)).isEmpty();

            PersistentSessionTable failing = start(Set.of("s1"));
            failing.bind("b", "s1");
            try (ReadOnlyDirectory readOnly = ReadOnlyDirectory.of(dir.resolve("table"))) {
                stop(failing);
            }
            assertThat(warnings(log)).last().asString().contains("not written at the stop");
        }
        assertThat(start(Set.of("s1")).peek("a")).isEqualTo("s1");
    }

    @Test
    void whatOnlyLooksLikeAGenerationIsLeftAloneOrMadeWayForByTheNextOne() throws IOException {
        PersistentSessionTable before = start(Set.of("s1"));
        before.bind("a", "s1");
        stop(before);
        Path written = generations().get(0);
        long number = Long.parseLong(written.getFileName().toString().substring("gen-".length()));
        Path table = dir.resolve("table");
        Path inTheWay = Files.writeString(table.resolve("gen-" + (number + 1)), "a file, not a generation");
        Path farAhead = Files.writeString(table.resolve("gen-" + (number + 5)), "a file, not a generation");
        Path setAside = Files.createDirectories(table.resolve("gen-1.set-aside-1"));

        PersistentSessionTable after = start(Set.of("s1"));

        assertThat(after.peek("a")).isEqualTo("s1");
        assertThat(inTheWay).isDirectory();
        assertThat(farAhead).isRegularFile();
        assertThat(setAside).as("kept for a look").isDirectory();
    }

    @Test
    void aUseWrittenAfterAnEarlierWriteKeepsTheBindingOnDiskThatMuchLonger() {
        PersistentSessionTable before = start(Set.of("s1"));
        before.bind("a", "s1");
        before.flush();
        advance(Duration.ofMinutes(8));
        before.lookup("a");
        stop(before); // written again: last used at 8 of its 10 idle minutes
        advance(Duration.ofMinutes(4));

        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.peek("a")).as("4 of 10 minutes idle at the start").isEqualTo("s1");
        assertThat(after.idleLeft("a")).isEqualTo(Duration.ofMinutes(6));
        after.bind("b", "s1"); // on the thread that restored "a"
        assertThat(after.idleLeft("b")).as("a new binding: a whole timeout").isEqualTo(JSESSIONID_TIMEOUT);
    }

    @Test
    void aTouchRenewsTheBindingHereAndOnDiskLikeALookup() {
        PersistentSessionTable before = start(Set.of("s1"));
        before.bind("a", "s1");
        before.flush();
        advance(Duration.ofMinutes(8));

        before.touch("a");

        assertThat(before.idleLeft("a")).as("a whole timeout again").isEqualTo(JSESSIONID_TIMEOUT);
        assertThat(before.stats().hits()).as("not counted as a lookup").isZero();
        stop(before);
        advance(Duration.ofMinutes(4));
        PersistentSessionTable after = start(Set.of("s1"));
        assertThat(after.idleLeft("a")).as("touched at 8 of its 10 idle minutes, 4 ago").isEqualTo(Duration.ofMinutes(6));
    }

    private static List<String> warnings(LogCapture log) {
        return log.text().lines().filter(l -> l.contains("WARN")).toList();
    }

    @Test
    void flushesRunOnTheSchedulerGivenUntilTheClose() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
        try {
            PersistentSessionTable table = start(Set.of("s1"), scheduler);
            table.bind("a", "s1");
            await().atMost(Duration.ofSeconds(20)).until(() -> table.persistence().lastFlushMillis() > 0);
            stop(table);
            scheduler.purge();
            assertThat(scheduler.getQueue()).as("no flush left on the shared scheduler").isEmpty();
            assertThat(scheduler.isShutdown()).isFalse();
        } finally {
            scheduler.shutdownNow();
        }
    }

    private List<Path> generations() throws IOException {
        try (Stream<Path> children = Files.list(dir.resolve("table"))) {
            return children.filter(p -> p.getFileName().toString().startsWith("gen-")).sorted().toList();
        }
    }

    private List<Path> setAside() throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(p -> p.getFileName().toString().contains(".set-aside-")).toList();
        }
    }

    private static List<Path> files(Path tree) throws IOException {
        try (Stream<Path> all = Files.walk(tree)) {
            return all.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("."))
                    .toList();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
