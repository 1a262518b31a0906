package org.jwd.sessiontable;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;

/**
 * When the session table sweeps expired entries in the background: every {@code interval} on {@code scheduler},
 * a scheduler the table shares with the rest of the dispatcher and does not own (closing the table cancels its
 * sweeps, never the scheduler).
 *
 * @param scheduler where the sweeps run
 * @param interval  between the end of one sweep and the start of the next; positive
 */
public record SweepSchedule(ScheduledExecutorService scheduler, Duration interval) {
    public SweepSchedule {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(interval, "interval");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("session table sweep interval must be positive: " + interval);
        }
    }
}
