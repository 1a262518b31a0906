package org.jwd.accesslog;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The access log's one writer thread, for every logging handler: however many {@code icm/HTTP/logging_<xx>} there
 * are, lines cost one thread and the same wake-ups. What Jetty's {@code AsyncRequestLogWriter} does, without Jetty's
 * server classes: the core runs without them.
 *
 * <p>Under load the writer wakes every {@link #BATCH_NANOS} and takes what came meanwhile for every file, each
 * file's lines with one system call; a request wakes it only when it sleeps for want of lines. Woken by every line (as
 * a blocking queue's taker is), it woke some 4,000 times a second at 15,000 requests a second, for four lines a time:
 * a wake and a write per few requests cost each request more than formatting its line. A sleeping writer with lines
 * kept in memory ({@code FLUSH=FALSE}) wakes by itself when they are due.
 */
final class AccessLogWriter implements AutoCloseable {
    /** Under load, how long lines gather before the writer wakes: how late a line reaches the file at most. */
    static final long BATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final LongSupplier nanoClock;
    private final long batchNanos;
    private final Thread thread;
    private List<AccessLogFile> files = List.of();
    /** Whether the writer sleeps until a line comes (every queue was empty): the next line wakes it. */
    private volatile boolean idle;
    private volatile boolean closing;

    /** @param batchNanos how long lines gather under load ({@link #BATCH_NANOS}; tests choose their own) */
    AccessLogWriter(LongSupplier nanoClock, long batchNanos) {
        this.nanoClock = nanoClock;
        this.batchNanos = batchNanos;
        this.thread = new Thread(this::run, "jwd-accesslog");
        thread.setDaemon(true);
    }

    /** Starts writing {@code files}, which this writer wakes for ({@link #wake}). */
    void start(List<AccessLogFile> files) {
        this.files = List.copyOf(files);
        thread.start();
    }

    /** The thread, for the tests. */
    Thread thread() {
        return thread;
    }

    /** A line was queued: wakes the writer when it sleeps for want of lines. */
    void wake() {
        if (idle) {
            idle = false;
            LockSupport.unpark(thread);
        }
    }

    /** Writes every queued line (waiting at most 10 s for it) and closes the files. */
    @Override
    public void close() {
        closing = true;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            while (!closing) {
                int most = drainAll();
                if (most == 0) {
                    sleepUntilALineComes();
                } else if (most < AccessLogFile.BATCH) {
                    LockSupport.parkNanos(this, batchNanos); // close() cuts it short
                }
            }
        } finally {
            files.forEach(AccessLogFile::close);
        }
    }

    /** One round over the files: @return the most lines one file had */
    int drainAll() {
        int most = 0;
        for (AccessLogFile file : files) {
            most = Math.max(most, file.drain());
        }
        return most;
    }

    /** Sleeps until a line comes, or lines kept in memory are due; a line offered before idle was set is seen here. */
    private void sleepUntilALineComes() {
        idle = true;
        if (files.stream().noneMatch(AccessLogFile::queued) && !closing) {
            long due = files.stream().mapToLong(AccessLogFile::flushDueNanos).min().orElse(Long.MAX_VALUE);
            if (due == Long.MAX_VALUE) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, Math.max(1, due - nanoClock.getAsLong()));
            }
        }
        idle = false;
    }
}
