package org.jwd.sessiontable;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the session table's sweep runs: every {@link SweepSchedule#interval()} on the shared scheduler, and when a
 * bind finds the table full, at most once every {@link #MIN_SWEEP_GAP_MILLIS} (then on the scheduler, so the bind
 * does not wait, or, without one, on the binding thread). One sweep at a time; {@link #close} waits for a running
 * one before the store goes.
 */
final class TableSweeper {
    private static final Logger LOG = LoggerFactory.getLogger(TableSweeper.class);

    /** A full table sweeps at most this often (clock time) to make room. */
    static final long MIN_SWEEP_GAP_MILLIS = 1_000;

    private final LongSupplier sweepWork;
    private final LongSupplier clock;
    private final SweepSchedule schedule;
    private final ScheduledFuture<?> periodic;

    private final ReentrantLock sweepLock = new ReentrantLock();
    private final AtomicBoolean sweepRequested = new AtomicBoolean();
    private volatile long lastSweepMillis = Long.MIN_VALUE / 2;
    private volatile boolean closed;

    /**
     * @param sweepWork walks the store once and answers how many entries expired; runs under this sweeper's lock
     * @param clock     epoch milliseconds, for the gap between sweeps for room
     * @param schedule  the background sweeps, or {@code null} for none
     */
    TableSweeper(LongSupplier sweepWork, LongSupplier clock, SweepSchedule schedule) {
        this.sweepWork = sweepWork;
        this.clock = clock;
        this.schedule = schedule;
        if (schedule == null) {
            this.periodic = null;
        } else {
            long millis = Math.max(1, schedule.interval().toMillis());
            this.periodic = schedule.scheduler()
                    .scheduleWithFixedDelay(this::sweepQuietly, millis, millis, TimeUnit.MILLISECONDS);
        }
    }

    /** Sweeps now, after a running sweep; {@code 0} once closed. */
    long sweep() {
        sweepLock.lock();
        try {
            return sweepLocked();
        } finally {
            sweepLock.unlock();
        }
    }

    private long sweepLocked() {
        if (closed) {
            return 0;
        }
        lastSweepMillis = clock.getAsLong();
        return sweepWork.getAsLong();
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.warn("Session table sweep failed", e);
            }
        }
    }

    /**
     * The table looks full: sweep for room, unless one ran within {@link #MIN_SWEEP_GAP_MILLIS}. With a schedule the
     * sweep is handed to its scheduler and this bind does not wait.
     *
     * @return whether a sweep ran here (then the caller tries to reserve again)
     */
    boolean sweepForRoom() {
        if (clock.getAsLong() - lastSweepMillis < MIN_SWEEP_GAP_MILLIS) {
            return false;
        }
        if (schedule != null) {
            requestSweep();
            return false;
        }
        if (!sweepLock.tryLock()) {
            return false;
        }
        try {
            sweepLocked();
            return true;
        } finally {
            sweepLock.unlock();
        }
    }

    private void requestSweep() {
        if (closed || !sweepRequested.compareAndSet(false, true)) {
            return;
        }
        try {
            schedule.scheduler().execute(() -> {
                sweepRequested.set(false);
                sweepQuietly();
            });
        } catch (RejectedExecutionException schedulerStopped) {
            sweepRequested.set(false);
        }
    }

    /** Whether the background sweeps are scheduled (not yet cancelled by {@link #close}). */
    boolean scheduled() {
        return periodic != null && !periodic.isCancelled();
    }

    /** Cancels the background sweeps, waits for a running sweep, then runs {@code release} (closing the store). */
    void close(Runnable release) {
        closed = true;
        if (periodic != null) {
            periodic.cancel(false);
        }
        sweepLock.lock();
        try {
            release.run();
        } finally {
            sweepLock.unlock();
        }
    }
}
