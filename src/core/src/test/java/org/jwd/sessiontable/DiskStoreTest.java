package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskStoreTest {
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private final AtomicLong clock = new AtomicLong(1_000_000);

    @TempDir
    Path generation;

    /**
     * The restore judges each binding by its stamp ({@code PersistentSessionTable.keep}); Ehcache's expiry on disk
     * only frees room, and its iterator still returns an entry past it: what the restore reads is what was written.
     */
    @Test
    void readingGivesEveryBindingWrittenHoweverLongAgoForTheRestoreToJudgeByItsStamp() {
        SessionTimeouts timeouts = new SessionTimeouts(TIMEOUT, TIMEOUT);
        try (DiskStore store = new DiskStore(generation, 1000, () -> timeouts, clock::get)) {
            store.write(Map.of("a", new ClusterBinding("s1", clock.get()), "b", new ClusterBinding("s2", clock.get())));
            clock.addAndGet(Duration.ofMinutes(8).toMillis());
            store.write(Map.of("a", new ClusterBinding("s1", clock.get()))); // the same generation: an update
            clock.addAndGet(Duration.ofMinutes(4).toMillis());

            Map<String, ClusterBinding> read = new HashMap<>();
            store.read((id, binding) -> read.put(id, binding) == null && !id.equals("b"));
            assertThat(read).containsOnlyKeys("a", "b");
            assertThat(read.get("a").stampMillis()).as("the later use").isEqualTo(clock.get() - Duration.ofMinutes(4).toMillis());

            Map<String, ClusterBinding> again = new HashMap<>();
            store.read((id, binding) -> again.put(id, binding) == null);
            assertThat(again).as("a binding the reader did not keep is removed").containsOnlyKeys("a");
        }
    }

    @Test
    void theDiskTierHoldsAKilobytePerEntryTheTableAllowsAndSixteenMegabytesAtLeast() {
        assertThat(DiskStore.megabytesFor(1_000_000)).as("SAP's table of a million entries").isEqualTo(977);
        assertThat(DiskStore.megabytesFor(50_000)).as("SAP's default of 50,000, rounded up").isEqualTo(49);
        assertThat(DiskStore.megabytesFor(16_384)).isEqualTo(16);
        assertThat(DiskStore.megabytesFor(16_385)).as("one entry beyond 16 MB: a megabyte more").isEqualTo(17);
        assertThat(DiskStore.megabytesFor(1)).isEqualTo(16);
    }
}
