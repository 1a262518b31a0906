package org.jwd.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.config.ConfigException;
import org.jwd.routing.LogCapture;

class AccessLogFileTest {
    private static final ZoneId UTC = ZoneId.of("UTC");
    /** 2026-12-01T04:10:00Z */
    private static final long AT = 1_796_098_200_000L;

    @TempDir
    Path dir;

    private final AtomicLong nanos = new AtomicLong(-5_000_000_000L);

    /** The handler's file, written by the test's thread as the writer thread would: {@link #write}. */
    private AccessLogFile file(String sub) throws ConfigException, IOException {
        AccessLogConfig c = AccessLogConfig.parse("LOGFILE=" + dir + "/access-%y-%m-%d_%h" + sub).orElseThrow();
        return new AccessLogFile(c, LogFileName.of(c.logFile(), UTC), AT, nanos::get, () -> { });
    }

    /** A request's line, then the writer's round. */
    private static void write(AccessLogFile log, String line, long epochMillis) {
        log.offer(line, epochMillis);
        log.drain();
    }

    private static String line(int n) {
        return String.format("line %04d %s", n, "x".repeat(89));  // 99 characters and the separator: 100 bytes
    }

    @Test
    void startsTheNextFileBeforeALineWouldPassMaxsizekb() throws Exception {
        AccessLogFile log = file(", MAXSIZEKB=1");
        for (int n = 0; n < 25; n++) {
            write(log, line(n), AT);
        }
        log.close();
        assertThat(files()).containsExactly("access-2026-12-01_04", "access-2026-12-01_04_0",
                "access-2026-12-01_04_1");
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04"))).hasSize(10).startsWith(line(0));
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04_0"))).hasSize(10).startsWith(line(10));
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04_1"))).hasSize(5).endsWith(line(24));
        assertThat(Files.size(dir.resolve("access-2026-12-01_04"))).isEqualTo(1000);
    }

    @Test
    void startsANewFileEachHourWithSwitchtf() throws Exception {
        AccessLogFile log = file(", SWITCHTF=hour");
        write(log, line(0), AT);
        write(log, line(1), AT + 50 * 60_000);
        write(log, line(2), AT + 51 * 60_000);
        log.close();
        assertThat(files()).containsExactly("access-2026-12-01_04", "access-2026-12-01_05");
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_05"))).containsExactly(line(1), line(2));
    }

    @Test
    void keepsMaxfilesFiles() throws Exception {
        AccessLogFile log = file(", MAXSIZEKB=1, MAXFILES=2");
        for (int n = 0; n < 45; n++) {
            write(log, line(n), AT);
        }
        log.close();
        assertThat(files()).containsExactly("access-2026-12-01_04_2", "access-2026-12-01_04_3");
    }

    @Test
    void continuesTheFileOfTheSameNameAfterARestart() throws Exception {
        AccessLogFile log = file("");
        write(log, line(0), AT);
        log.close();
        log = file("");
        write(log, line(1), AT);
        log.close();
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04"))).containsExactly(line(0), line(1));
    }

    @Test
    void emptiesTheFileAtTheStartWithAppendFalse() throws Exception {
        AccessLogFile log = file("");
        write(log, line(0), AT);
        log.close();
        log = file(", APPEND=FALSE");
        write(log, line(1), AT);
        log.close();
        assertThat(files()).containsExactly("access-2026-12-01_04");
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04"))).containsExactly(line(1));
    }

    /** SAP's FILEWRAP=on: where the next file would begin, the one file is emptied and begun again. */
    @Test
    void wrapsTheOneFileWhereTheNextWouldBeginWithFilewrap() throws Exception {
        AccessLogFile log = file(", MAXSIZEKB=1, FILEWRAP=on");
        for (int n = 0; n < 25; n++) {
            write(log, line(n), AT);
        }
        log.close();
        assertThat(files()).containsExactly("access-2026-12-01_04");
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04")))
                .containsExactly(line(20), line(21), line(22), line(23), line(24));
    }

    @Test
    void keepsOnlyTheNewHoursFileWithFilewrapAndSwitchtf() throws Exception {
        AccessLogFile log = file(", SWITCHTF=hour, FILEWRAP=on");
        write(log, line(0), AT);
        write(log, line(1), AT + 50 * 60_000);
        assertThat(files()).containsExactly("access-2026-12-01_05");
        write(log, line(2), AT + 51 * 60_000);
        log.close();
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_05"))).containsExactly(line(1), line(2));
    }

    /** FLUSH=TRUE, the default: the lines the writer finds are in the file when its round ends. */
    @Test
    void writesTheLinesOfEachRoundAtOnce() throws Exception {
        AccessLogFile log = file("");
        write(log, line(0), AT);
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04"))).containsExactly(line(0));
        log.close();
    }

    /** FLUSH=FALSE: lines gather in memory for a second (the clock moved by hand), then go with one write. */
    @Test
    void keepsLinesInMemoryForASecondWithFlushFalse() throws Exception {
        Path first = dir.resolve("access-2026-12-01_04");
        AccessLogFile log = file(", FLUSH=FALSE");
        write(log, line(0), AT);
        nanos.addAndGet(AccessLogFile.UNFLUSHED_NANOS / 2);
        write(log, line(1), AT);
        assertThat(log.flushDueNanos()).isEqualTo(-5_000_000_000L + AccessLogFile.UNFLUSHED_NANOS);
        nanos.addAndGet(AccessLogFile.UNFLUSHED_NANOS / 2 - 1);
        log.drain();
        assertThat(Files.readAllLines(first)).as("a second has not passed").isEmpty();

        nanos.incrementAndGet();
        log.drain();
        assertThat(Files.readAllLines(first)).containsExactly(line(0), line(1));
        assertThat(log.flushDueNanos()).isEqualTo(Long.MAX_VALUE);
        write(log, line(2), AT);
        log.close();
        assertThat(Files.readAllLines(first)).as("the close writes what waits").containsExactly(line(0), line(1),
                line(2));
    }

    @Test
    void writesLinesKeptInMemoryOnceTheyFillTheBufferWithFlushFalse() throws Exception {
        Path first = dir.resolve("access-2026-12-01_04");
        AccessLogFile log = file(", FLUSH=FALSE");
        int fit = LineWriter.BUFFER_BYTES / 100;
        for (int n = 0; n <= fit; n++) {
            write(log, line(n), AT);
        }
        assertThat(Files.readAllLines(first)).as("the buffer's worth, before the line that did not fit").hasSize(fit);
        log.close();
    }

    @Test
    void linesThatCannotBeWrittenAreDroppedAndCountedAndTheFileIsWrittenAgainOnceItCanBe() throws Exception {
        Path file = dir.resolve("access");
        // every write to /dev/full fails as on a full disk: No space left on device
        Files.createSymbolicLink(file, Path.of("/dev/full"));
        AccessLogConfig c = AccessLogConfig.parse("LOGFILE=" + file).orElseThrow();
        try (LogCapture log = new LogCapture(AccessLog.class)) {
            AccessLogFile logFile = new AccessLogFile(c, LogFileName.of(c.logFile(), UTC), AT, nanos::get, () -> { });
            for (int n = 0; n < 3; n++) {
                logFile.offer(line(n), AT);
            }
            logFile.drain();
            assertThat(logFile.droppedLines()).isEqualTo(3);
            assertThat(logFile.failure()).contains("No space left on device");

            Files.delete(file); // room again: the next try creates the file
            write(logFile, line(3), AT);
            assertThat(logFile.droppedLines()).isEqualTo(4);
            assertThat(logFile.failure()).as("not tried again within a second").isNotNull();
            nanos.addAndGet(LineWriter.REOPEN_INTERVAL_NANOS);
            write(logFile, line(4), AT);
            assertThat(Files.readAllLines(file)).containsExactly(line(4));
            logFile.close();

            assertThat(logFile.droppedLines()).isEqualTo(4);
            assertThat(logFile.failure()).isNull();
            assertThat(log.text().lines().filter(l -> l.contains("WARN"))).singleElement().asString()
                    .contains(file.toString(), "No space left on device", "jwd_access_log_dropped_lines_total");
            assertThat(log.text()).contains("is written again (4 lines dropped in all)");
        }
    }

    @Test
    void aLineCutOffAtTheEndOfTheFileIsEndedBeforeTheNextOne() throws Exception {
        Files.writeString(dir.resolve("access-2026-12-01_04"), line(0) + System.lineSeparator() + "cut off by a fu");
        AccessLogFile log = file("");
        write(log, line(1), AT);
        log.close();
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04")))
                .containsExactly(line(0), "cut off by a fu", line(1));
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
