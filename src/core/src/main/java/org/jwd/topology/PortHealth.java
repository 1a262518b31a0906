package org.jwd.topology;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The health of one port of a server: the plain {@code url}'s or the {@code https_url}'s. An HTTPS-enabled server
 * has two, checked apart, because one listener can fail while the other serves: a request goes only to a port that
 * works for it. A port changes its health after a streak of the other outcome: {@code fall} failures in a row, or
 * {@code rise} successes. It counts its failed checks and keeps the last failure's reason and time.
 */
final class PortHealth {
    private volatile boolean healthy = true;
    private final AtomicInteger consecutiveFailures = new AtomicInteger();
    private final AtomicInteger consecutiveSuccesses = new AtomicInteger();
    private volatile String lastCheck = "not checked yet";
    private volatile boolean checked;
    private final LongAdder failedChecks = new LongAdder();
    private volatile String lastFailure;
    private volatile long lastFailureMillis;

    /** The failures of one port: failed active checks, the last failure (check or request) and when. */
    record Failures(long failedChecks, String last, long lastMillis) {
    }

    boolean healthy() {
        return healthy;
    }

    /** Sets the health as an operator or a test would, without a streak. */
    void setHealthy(boolean healthy) {
        this.healthy = healthy;
    }

    /** The outcome of the last active check or failed request. */
    String lastCheck() {
        return lastCheck;
    }

    /** Whether an active check of this port has come back at all. */
    boolean checked() {
        return checked;
    }

    Failures failures() {
        return new Failures(failedChecks.sum(), lastFailure, lastFailureMillis);
    }

    /**
     * A check passed ({@code passed}, {@code threshold} being {@code rise}) or failed ({@code fall}); returns true when
     * this ended a streak long enough to change the port's health.
     *
     * @param check whether an active check (rather than a request) brought this outcome
     */
    boolean record(boolean passed, int threshold, String detail, boolean check, long nowMillis) {
        AtomicInteger streak = passed ? consecutiveSuccesses : consecutiveFailures;
        (passed ? consecutiveFailures : consecutiveSuccesses).set(0);
        lastCheck = detail;
        if (check) {
            checked = true;
        }
        if (!passed) {
            lastFailure = detail;
            lastFailureMillis = nowMillis;
            if (check) {
                failedChecks.increment();
            }
        }
        if (healthy != passed && streak.incrementAndGet() >= threshold) {
            healthy = passed;
            streak.set(0);
            return true;
        }
        return false;
    }

    /** A request through this port was answered: the failures counted towards {@code fall} were not in a row. */
    void resetFailures() {
        if (consecutiveFailures.get() != 0) {
            consecutiveFailures.set(0);
        }
    }
}
