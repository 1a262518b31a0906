package org.jwd.config;

import java.time.Duration;

/**
 * How jwd decides that a server is down or back ({@code health.*} keys).
 *
 * @param interval how often each server's {@code health_path} is requested
 * @param timeout  a check that takes longer has failed
 * @param rise     consecutive good checks that bring a down server back
 * @param fall     consecutive failures (checks, or requests that could not reach it) that mark it down
 */
public record HealthConfig(Duration interval, Duration timeout, int rise, int fall) {
    @Override
    public String toString() {
        return "health checks every " + Durations.format(interval) + " (timeout " + Durations.format(timeout)
                + ", rise " + rise + ", fall " + fall + ")";
    }
}
