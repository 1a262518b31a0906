package org.jwd.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How a stop (SIGTERM) goes, in the distribution's Jetty: first {@code delay}, during which the node serves as before
 * while {@code /jwd/health/ready} answers 503 and every answer closes its connection, so that a load balancer in
 * front takes the node out before anything closes; then the listeners close and the requests in flight get up to
 * {@code timeout} to finish.
 *
 * @param delay   {@code jwd.stop_delay}: how long the node serves on once the stop has begun; 0: it closes at once
 * @param timeout {@code jwd.stop_timeout}: how long the requests in flight may then take; 0: not waited for
 */
public record StopConfig(Duration delay, Duration timeout) {
    public StopConfig {
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(timeout, "timeout");
        if (delay.isNegative() || timeout.isNegative()) {
            throw new IllegalArgumentException("a stop's delay and timeout are 0 or more: " + delay + ", " + timeout);
        }
    }
}
