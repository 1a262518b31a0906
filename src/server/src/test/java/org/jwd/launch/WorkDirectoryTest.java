package org.jwd.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkDirectoryTest {
    private static final Instant NOW = Instant.parse("2026-12-10T12:00:00Z");

    @Test
    void removesTheLaunchersFilesNoRunWroteForAWeekButNeverThoseThisRunChose(@TempDir Path work) throws IOException {
        file(work, "jetty-12345.cmd", 8);
        file(work, "jetty-12345.cmd.4242", 8);
        file(work, "jwd-17.0.1-111-222.jsa", 8);
        file(work, "jwd-25.0.1-111-222.aot.4242", 8);
        file(work, "jetty-777.cmd", 30);
        file(work, "jwd-21.0.1-111-222.jsa", 30);
        file(work, "jwd-21.0.1-333-444.jsa", 6);
        file(work, "operator-state-jwd-abc.properties", 30);
        file(work, "jetty.cmd", 30);
        Files.createDirectories(work.resolve("jwd-old.aot"));

        var removed = WorkDirectory.prune(work, Set.of("jetty-777.cmd", "jwd-21.0.1-111-222.jsa"), NOW);

        assertThat(removed).containsExactlyInAnyOrder("jetty-12345.cmd", "jetty-12345.cmd.4242",
                "jwd-17.0.1-111-222.jsa", "jwd-25.0.1-111-222.aot.4242");
        try (var left = Files.list(work)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("jetty-777.cmd",
                    "jwd-21.0.1-111-222.jsa", "jwd-21.0.1-333-444.jsa", "operator-state-jwd-abc.properties",
                    "jetty.cmd", "jwd-old.aot", "tmp");
        }
    }

    @Test
    void aWorkDirectoryThatIsNotThereRemovesNothing(@TempDir Path dir) {
        assertThat(WorkDirectory.prune(dir.resolve("none"), Set.of(), NOW)).isEmpty();
    }

    private static void file(Path work, String name, int daysOld) throws IOException {
        Files.createDirectories(work.resolve("tmp"));
        Path file = Files.writeString(work.resolve(name), "from an earlier run");
        Files.setLastModifiedTime(file, FileTime.from(NOW.minus(Duration.ofDays(daysOld))));
    }
}
