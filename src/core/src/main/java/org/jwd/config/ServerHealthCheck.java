package org.jwd.config;

import java.time.Duration;

/**
 * One server's own health check settings ({@code server.<id>.health_status}, {@code health_interval},
 * {@code health_timeout}, {@code health_rise}, {@code health_fall}); each {@code null} one is the {@code health.*}
 * default in force, so that a reload of the defaults reaches every server that does not set its own.
 */
public record ServerHealthCheck(ExpectedStatus status, Duration interval, Duration timeout, Integer rise,
                                Integer fall) {
    public static final ServerHealthCheck DEFAULTS = new ServerHealthCheck(null, null, null, null, null);

    /** These settings, each missing one taken from {@code defaults}. */
    public HealthConfig resolve(HealthConfig defaults) {
        return new HealthConfig(interval != null ? interval : defaults.interval(),
                timeout != null ? timeout : defaults.timeout(), rise != null ? rise : defaults.rise(),
                fall != null ? fall : defaults.fall(), status != null ? status : defaults.status());
    }
}
