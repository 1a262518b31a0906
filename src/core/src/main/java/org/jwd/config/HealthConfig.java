package org.jwd.config;

import java.time.Duration;

/**
 * How jwd decides that a server is down or back ({@code health.*} keys): the defaults of every server's checks,
 * which {@code server.<id>.health_*} override ({@link ServerConfig#healthCheck()}).
 *
 * @param interval how often each server's {@code health_path} is requested
 * @param timeout  a check that takes longer has failed
 * @param rise     consecutive good checks that bring a down server back
 * @param fall     consecutive failures (checks, or requests that could not reach it) that mark it down
 * @param status   the answers that count as good
 */
public record HealthConfig(Duration interval, Duration timeout, int rise, int fall, ExpectedStatus status) {
    /** With the default status, {@code 200-399}. */
    public HealthConfig(Duration interval, Duration timeout, int rise, int fall) {
        this(interval, timeout, rise, fall, ExpectedStatus.DEFAULT);
    }

    @Override
    public String toString() {
        return "health checks every " + Durations.format(interval) + " (timeout " + Durations.format(timeout)
                + ", rise " + rise + ", fall " + fall + ", status " + status + ")";
    }
}
