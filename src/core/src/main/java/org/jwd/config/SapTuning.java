package org.jwd.config;

import java.time.Duration;

/**
 * The ICM's tuning lines of a Web Dispatcher profile that Jetty's listeners take in SAP's meaning ("Configuring SAP
 * Web Dispatcher for High System Load", "icm/keep_alive_timeout"): the launcher hands them to Jetty. Both need a
 * restart. The tuning lines jwd maps to its own keys are read by {@link ConfigParser}; the others are read and not
 * used ({@link SapKeys}).
 *
 * @param maxConnections   {@code icm/max_conn}: client connections at most at once (Jetty's
 *                         {@code network-connection-limit}: further ones wait in the listen queue); {@code null}:
 *                         no limit
 * @param keepAliveTimeout {@code icm/keep_alive_timeout}: the idle time of a kept-alive connection where no
 *                         {@code icm/server_port_<xx>} gives a {@code TIMEOUT}; {@code null}: Jetty's default
 */
public record SapTuning(Integer maxConnections, Duration keepAliveTimeout) {
    public static final String MAX_CONN = "icm/max_conn";
    public static final String KEEP_ALIVE_TIMEOUT = "icm/keep_alive_timeout";
    public static final SapTuning NONE = new SapTuning(null, null);

    public static SapTuning read(KeyReader keys) {
        KeyReader restart = keys.restartOnly();
        Integer max = restart.raw(MAX_CONN) == null ? null : restart.integer(MAX_CONN, 0, 1, 1_000_000,
                "a number of connections from 1 to 1000000");
        Duration keepAlive = restart.seconds(KEEP_ALIVE_TIMEOUT, null, "a positive number of seconds (SAP's -1,"
                + " never closed, is not honoured: jwd closes idle connections; give the seconds to wait)");
        return new SapTuning(max, keepAlive);
    }
}
