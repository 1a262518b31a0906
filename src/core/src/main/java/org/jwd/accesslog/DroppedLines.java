package org.jwd.accesslog;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lines of one access log that never reached its files, over all of them: those dropped because the queue was
 * full (the disk cannot keep up) and those whose write failed (a full file system, a directory made read-only).
 * A request never waits for the disk and never fails for it; what it costs is counted here
 * ({@code jwd_access_log_dropped_lines_total}) and named in a warning at most once a minute, however many lines
 * and files fail.
 */
final class DroppedLines {
    private static final Logger LOG = LoggerFactory.getLogger(AccessLog.class);
    /** At most one warning this often: a full disk fails every line, and the log of jwd may be on the same disk. */
    static final long WARNING_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final LongSupplier nanoClock;
    private final AtomicLong dropped = new AtomicLong();
    /** {@code nanoClock} at the last warning; guarded by this */
    private long warnedAtNanos;
    private boolean warned; // guarded by this
    /** the write failure in force, {@code null} while lines are written */
    private volatile String failure;

    DroppedLines(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** A line found the queue full. */
    void queueFull(Path file) {
        long total = dropped.incrementAndGet();
        warn("jwd: the access log {} cannot keep up: lines are dropped ({} so far)", file, total);
    }

    /** Writing to {@code file} failed, and {@code lines} lines with it. */
    void writeFailed(Path file, long lines, Exception cause) {
        long total = dropped.addAndGet(lines);
        failure = cause.toString();
        warn("jwd: the access log {} cannot be written ({}): its lines are dropped and counted in"
                + " jwd_access_log_dropped_lines_total ({} so far) until it can be written again", file, failure, total);
    }

    /** Writing to {@code file} works (again). */
    void written(Path file) {
        if (failure != null) {
            failure = null;
            LOG.info("jwd: the access log {} is written again ({} lines dropped in all)", file, dropped.get());
        }
    }

    long count() {
        return dropped.get();
    }

    /** Why lines are dropped now, {@code null} while they are written. */
    String failure() {
        return failure;
    }

    /** Logs a warning about the log, unless one was logged less than a minute ago. */
    synchronized void warn(String format, Object... args) {
        long now = nanoClock.getAsLong();
        if (!warned || now - warnedAtNanos >= WARNING_INTERVAL_NANOS) {
            warned = true;
            warnedAtNanos = now;
            LOG.warn(format, args);
        }
    }
}
