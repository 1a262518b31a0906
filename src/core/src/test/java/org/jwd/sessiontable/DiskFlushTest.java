package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write of the persistent table's next generation that fails. */
class DiskFlushTest {
    @TempDir
    Path dir;

    @Test
    void aGenerationThatCannotBeWrittenIsRemovedAndTheWriteReportedFailed() throws IOException {
        DiskFlush flush = new DiskFlush(new DiskGenerations(dir, () -> 0L), null, generation -> {
            throw new IllegalStateException("Ehcache cannot open " + generation);
        }, () -> 0L);

        assertThat(flush.write(Map.of("a", new ClusterBinding("s1", 0)))).isFalse();

        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.toList()).as("no unfinished generation left behind").isEmpty();
        }
    }
}
