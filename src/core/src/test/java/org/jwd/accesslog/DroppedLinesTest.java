package org.jwd.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.jwd.routing.LogCapture;

class DroppedLinesTest {
    private static final Path FILE = Path.of("/var/log/jwd/access");

    private final AtomicLong nanos = new AtomicLong(123_456_789L);
    private final DroppedLines dropped = new DroppedLines(nanos::get);

    @Test
    void countsEveryLineAndWarnsAtMostOnceAMinuteWhateverTheCause() {
        try (LogCapture log = new LogCapture(AccessLog.class)) {
            dropped.writeFailed(FILE, 2, new IOException("No space left on device"));
            dropped.queueFull(FILE);
            nanos.addAndGet(DroppedLines.WARNING_INTERVAL_NANOS - 1);
            dropped.writeFailed(FILE, 1, new IOException("No space left on device"));
            assertThat(warnings(log)).hasSize(1);

            nanos.addAndGet(1);
            dropped.queueFull(FILE);
            assertThat(warnings(log)).hasSize(2);
            assertThat(warnings(log).get(1)).contains("cannot keep up", "5 so far");
        }
        assertThat(dropped.count()).isEqualTo(5);
    }

    @Test
    void namesTheFailureUntilALineIsWrittenAgain() {
        dropped.writeFailed(FILE, 1, new IOException("Operation not permitted"));
        assertThat(dropped.failure()).isEqualTo("java.io.IOException: Operation not permitted");

        try (LogCapture log = new LogCapture(AccessLog.class)) {
            dropped.written(FILE);
            dropped.written(FILE);
            assertThat(log.text().lines().filter(l -> l.contains("written again"))).as("said once").hasSize(1);
        }
        assertThat(dropped.failure()).isNull();
        assertThat(dropped.count()).as("what was lost stays counted").isEqualTo(1);
    }

    private static List<String> warnings(LogCapture log) {
        return log.text().lines().filter(l -> l.contains("WARN")).toList();
    }
}
