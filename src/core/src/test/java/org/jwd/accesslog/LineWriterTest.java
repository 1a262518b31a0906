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

class LineWriterTest {
    @TempDir
    Path dir;

    private LineWriter writer(Path file, long batchNanos) throws IOException {
        return new LineWriter(file, 10_000, new DroppedLines(System::nanoTime), System::nanoTime, batchNanos);
    }

    /** The writer's thread, by its name: the tests wait for it to sleep, so that no wake-up is left over. */
    private static Thread writerThread(Path file) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("jwd-accesslog-" + file.getFileName())).findFirst().orElseThrow();
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
        LineWriter writer = writer(file, TimeUnit.HOURS.toNanos(1));
        Thread thread = writerThread(file);
        awaitState(thread, Thread.State.WAITING);

        writer.write("first");
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(file).equals(List.of("first")));
        awaitState(thread, Thread.State.TIMED_WAITING);
        List<String> burst = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            burst.add("line " + i);
            writer.write("line " + i);
        }
        assertThat(Files.readAllLines(file)).as("the burst waits for the writer's next wake").hasSize(1);
        writer.close();

        List<String> expected = new ArrayList<>(List.of("first"));
        expected.addAll(burst);
        assertThat(Files.readAllLines(file)).isEqualTo(expected);
        assertThat(writer.writes()).as("one write for the first line, one for the burst").isEqualTo(2);
    }

    @Test
    void anIdleWriterIsWokenByTheNextLineEachTime() throws Exception {
        Path file = dir.resolve("access.log");
        LineWriter writer = writer(file, TimeUnit.MILLISECONDS.toNanos(1));
        Thread thread = writerThread(file);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            awaitState(thread, Thread.State.WAITING);
            writer.write("line " + i);
            expected.add("line " + i);
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(file).equals(expected));
        }
        writer.close();
        assertThat(writer.writes()).isEqualTo(5);
    }

    @Test
    void aLineLongerThanTheBufferIsWrittenWholeBetweenTheOthers() throws Exception {
        Path file = dir.resolve("access.log");
        LineWriter writer = writer(file, TimeUnit.HOURS.toNanos(1));
        String longLine = "x".repeat(200_000);
        List<String> lines = List.of("before", longLine, "after");
        lines.forEach(writer::write);
        writer.close();

        assertThat(Files.readAllLines(file)).isEqualTo(lines);
    }
}
