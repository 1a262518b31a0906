package org.jwd.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.config.ConfigException;

class AccessLogWriterTest {
    @TempDir
    Path dir;

    private AccessLogWriter writer;

    /** One handler's file under the writer's thread, which gathers lines {@code batchNanos} under load. */
    private AccessLogFile start(String sub, long batchNanos) throws ConfigException, IOException {
        writer = new AccessLogWriter(System::nanoTime, batchNanos);
        AccessLogConfig c = AccessLogConfig.parse("LOGFILE=" + dir + "/access.log" + sub).orElseThrow();
        AccessLogFile file = new AccessLogFile(c, LogFileName.of(c.logFile()), System.currentTimeMillis(),
                System::nanoTime, writer::wake);
        writer.start(List.of(file));
        return file;
    }

    private static void awaitState(Thread thread, Thread.State state) {
        await().atMost(Duration.ofSeconds(10)).until(() -> thread.getState() == state);
    }

    /**
     * A line that comes to an idle writer is written at once; the lines that come while it waits after a write
     * are written together, with one system call, when it wakes (here: at the close, the wait being an hour).
     */
    @Test
    void linesThatComeWhileTheWriterWaitsAfterAWriteAreWrittenTogether() throws Exception {
        Path file = dir.resolve("access.log");
        AccessLogFile log = start("", TimeUnit.HOURS.toNanos(1));
        awaitState(writer.thread(), Thread.State.WAITING);

        log.offer("first", 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(file).equals(List.of("first")));
        awaitState(writer.thread(), Thread.State.TIMED_WAITING);
        List<String> burst = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            burst.add("line " + i);
            log.offer("line " + i, 0);
        }
        assertThat(Files.readAllLines(file)).as("the burst waits for the writer's next wake").hasSize(1);
        writer.close();

        List<String> expected = new ArrayList<>(List.of("first"));
        expected.addAll(burst);
        assertThat(Files.readAllLines(file)).isEqualTo(expected);
        assertThat(log.writes()).as("one write for the first line, one for the burst").isEqualTo(2);
    }

    @Test
    void anIdleWriterIsWokenByTheNextLineEachTime() throws Exception {
        Path file = dir.resolve("access.log");
        AccessLogFile log = start("", TimeUnit.MILLISECONDS.toNanos(1));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            awaitState(writer.thread(), Thread.State.WAITING);
            log.offer("line " + i, 0);
            expected.add("line " + i);
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(file).equals(expected));
        }
        writer.close();
        assertThat(log.writes()).isEqualTo(5);
    }

    /** With FLUSH=FALSE a sleeping writer wakes by itself once the lines it keeps are due, and not before. */
    @Test
    void aSleepingWriterWritesTheLinesItKeepsWhenTheyAreDue() throws Exception {
        Path file = dir.resolve("access.log");
        AccessLogFile log = start(", FLUSH=FALSE", TimeUnit.MILLISECONDS.toNanos(1));
        long offered = System.nanoTime();
        log.offer("kept", 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(file).equals(List.of("kept")));
        assertThat(System.nanoTime() - offered).isGreaterThanOrEqualTo(AccessLogFile.UNFLUSHED_NANOS);
        awaitState(writer.thread(), Thread.State.WAITING);
        writer.close();
    }

    @Test
    void aLineLongerThanTheBufferIsWrittenWholeBetweenTheOthers() throws Exception {
        Path file = dir.resolve("access.log");
        LineWriter lines = new LineWriter(file, false, new DroppedLines(System::nanoTime), System::nanoTime);
        String longLine = "x".repeat(200_000);
        List<String> all = List.of("before", longLine, "after", "x".repeat(LineWriter.BUFFER_BYTES), "last");
        all.forEach(lines::add);
        lines.close();

        assertThat(Files.readAllLines(file)).isEqualTo(all);
    }
}
