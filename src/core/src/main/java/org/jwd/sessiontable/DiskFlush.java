package org.jwd.sessiontable;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes of the persistent table into its generations ({@link DiskGenerations}), and what the operator learns
 * of them. A write goes into a new generation, and the last good one is retired only once the new one is whole and
 * closed: a write that fails (a full disk, a directory made read-only) has its new generation deleted at once, and
 * the last good one stays, for the next try and for a restart. Failures are counted, and named in a warning at most
 * once a minute (a full disk fails every flush); the first write that works again says so.
 *
 * <p>A new generation is written only when the disk has room for it ({@link DiskGenerations#ensureRoom}): Ehcache
 * writes its disk store through memory-mapped files, and a full disk under a mapped file shows up as a failed
 * memory access ({@link InternalError}) in the middle of a write, and as writes its own threads give up on in
 * silence, after which the store is closed as if it were whole. So a full disk is refused before anything is
 * written, and a failed memory access that still happens (the disk filled meanwhile) fails the write like any other.
 *
 * <p>Not thread-safe: the persistent table calls it under its flush lock.
 */
final class DiskFlush {
    private static final Logger LOG = LoggerFactory.getLogger(PersistentSessionTable.class);
    static final long WARNING_INTERVAL_MILLIS = TimeUnit.MINUTES.toMillis(1);

    private final DiskGenerations generations;
    private final Function<Path, DiskStore> open;
    private final LongSupplier clock;
    /** the last good generation, {@code null} before the first */
    private Path current;
    private volatile long lastFlushMillis;
    private volatile long failures;
    /** why the last write failed, {@code null} when it worked */
    private volatile String failure;
    /** {@code clock} at the last warning; {@code Long.MIN_VALUE} for none yet */
    private long warnedAtMillis = Long.MIN_VALUE;

    /**
     * @param current the generation restored at the start, {@code null} for none
     * @param open    opens a generation's store
     * @param clock   epoch milliseconds
     */
    DiskFlush(DiskGenerations generations, Path current, Function<Path, DiskStore> open, LongSupplier clock) {
        this.generations = generations;
        this.current = current;
        this.open = open;
        this.clock = clock;
    }

    /**
     * Writes {@code batch} (and what the last good generation holds) into a new generation.
     *
     * @return whether it was written; when not, the last good generation is unchanged and the caller keeps the
     *         batch for the next try
     */
    boolean write(Map<String, ClusterBinding> batch) {
        Path next = null;
        try {
            generations.ensureRoom(current, batch.size());
            next = generations.next(current);
            try (DiskStore store = open.apply(next)) {
                store.write(batch);
            }
            generations.retire(current);
            current = next;
            written();
            return true;
        } catch (IOException | RuntimeException | InternalError e) {
            // InternalError: a memory access into a mapped file of the new generation that the disk could not hold
            failed(next, batch.size(), e);
            return false;
        }
    }

    private void written() {
        lastFlushMillis = clock.getAsLong();
        if (failure != null) {
            failure = null;
            LOG.info("Session table on disk {}: written again after {} failed writes", generations.root(), failures);
        }
    }

    private void failed(Path next, int bindings, Throwable cause) {
        failures++;
        failure = cause.toString();
        String removed = "";
        try {
            generations.retire(next);
        } catch (IOException | RuntimeException e) {
            removed = "; the unfinished " + next + " could not be removed (" + e + "), the next start removes it";
        }
        long now = clock.getAsLong();
        if (warnedAtMillis == Long.MIN_VALUE || now - warnedAtMillis >= WARNING_INTERVAL_MILLIS) {
            warnedAtMillis = now;
            LOG.warn("Session table on disk {}: writing {} bindings failed ({}); {} is kept, the bindings are written at"
                    + " the next try ({} failed writes so far, counted in jwd_session_table_flush_failures_total){}",
                    generations.root(), bindings, failure, current == null ? "nothing older" : current, failures,
                    removed);
        }
    }

    long lastFlushMillis() {
        return lastFlushMillis;
    }

    long failures() {
        return failures;
    }

    /** Why the last write failed, {@code null} when it worked (or none was tried). */
    String failure() {
        return failure;
    }
}
