package org.jwd.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

    private AccessLogFile file(String sub) throws ConfigException, IOException {
        AccessLogConfig c = AccessLogConfig.parse("LOGFILE=" + dir + "/access-%y-%m-%d_%h" + sub).orElseThrow();
        return new AccessLogFile(c, LogFileName.of(c.logFile(), UTC), AT);
    }

    private static String line(int n) {
        return String.format("line %04d %s", n, "x".repeat(89));  // 99 characters and the separator: 100 bytes
    }

    @Test
    void startsTheNextFileBeforeALineWouldPassMaxsizekb() throws Exception {
        try (AccessLogFile log = file(", MAXSIZEKB=1")) {
            for (int n = 0; n < 25; n++) {
                log.write(line(n), AT);
            }
        }
        assertThat(files()).containsExactly("access-2026-12-01_04", "access-2026-12-01_04_0",
                "access-2026-12-01_04_1");
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04"))).hasSize(10).startsWith(line(0));
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04_0"))).hasSize(10).startsWith(line(10));
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04_1"))).hasSize(5).endsWith(line(24));
        assertThat(Files.size(dir.resolve("access-2026-12-01_04"))).isEqualTo(1000);
    }

    @Test
    void startsANewFileEachHourWithSwitchtf() throws Exception {
        try (AccessLogFile log = file(", SWITCHTF=hour")) {
            log.write(line(0), AT);
            log.write(line(1), AT + 50 * 60_000);
            log.write(line(2), AT + 51 * 60_000);
        }
        assertThat(files()).containsExactly("access-2026-12-01_04", "access-2026-12-01_05");
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_05"))).containsExactly(line(1), line(2));
    }

    @Test
    void keepsMaxfilesFiles() throws Exception {
        try (AccessLogFile log = file(", MAXSIZEKB=1, MAXFILES=2")) {
            for (int n = 0; n < 45; n++) {
                log.write(line(n), AT);
            }
            await().untilAsserted(() -> assertThat(files()).hasSize(2));
        }
        assertThat(files()).containsExactly("access-2026-12-01_04_2", "access-2026-12-01_04_3");
    }

    @Test
    void continuesTheFileOfTheSameNameAfterARestart() throws Exception {
        try (AccessLogFile log = file("")) {
            log.write(line(0), AT);
        }
        try (AccessLogFile log = file("")) {
            log.write(line(1), AT);
        }
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04"))).containsExactly(line(0), line(1));
    }

    @Test
    void linesThatCannotBeWrittenAreDroppedAndCountedAndTheFileIsWrittenAgainOnceItCanBe() throws Exception {
        Path file = dir.resolve("access");
        // every write to /dev/full fails as on a full disk: No space left on device
        Files.createSymbolicLink(file, Path.of("/dev/full"));
        AtomicLong nanos = new AtomicLong();
        AccessLogConfig c = AccessLogConfig.parse("LOGFILE=" + file).orElseThrow();
        try (LogCapture log = new LogCapture(AccessLog.class);
             AccessLogFile logFile = new AccessLogFile(c, LogFileName.of(c.logFile(), UTC), AT, nanos::get)) {
            for (int n = 0; n < 3; n++) {
                logFile.write(line(n), AT);
            }
            await().until(() -> logFile.droppedLines() == 3);
            assertThat(logFile.failure()).contains("No space left on device");

            Files.delete(file); // room again: the next try creates the file
            logFile.write(line(3), AT);
            await().until(() -> logFile.droppedLines() == 4);
            assertThat(logFile.failure()).as("not tried again within a second").isNotNull();
            nanos.addAndGet(LineWriter.REOPEN_INTERVAL_NANOS);
            logFile.write(line(4), AT);
            await().until(() -> Files.isRegularFile(file) && Files.readAllLines(file).equals(List.of(line(4))));

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
        try (AccessLogFile log = file("")) {
            log.write(line(1), AT);
        }
        assertThat(Files.readAllLines(dir.resolve("access-2026-12-01_04")))
                .containsExactly(line(0), "cut off by a fu", line(1));
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
