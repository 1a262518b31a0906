package org.jwd.config;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The session table's persistent tier ({@code SessionTable.disk_path}, {@code SessionTable.disk_flush_interval}):
 * a single dispatcher keeps its bindings across a restart in Ehcache's disk store under that directory. Read
 * through the typed key reader, as {@link ClusterConfig} is.
 *
 * @param directory     where the bindings are written, resolved against the configuration file's directory
 * @param flushInterval how often the bindings made or used since the last flush are written: what a crash loses
 */
public record SessionTableDiskConfig(Path directory, Duration flushInterval) {
    public static final String PATH_KEY = "SessionTable.disk_path";
    public static final String FLUSH_KEY = "SessionTable.disk_flush_interval";
    public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofSeconds(30);
    static final Duration MIN_FLUSH_INTERVAL = Duration.ofSeconds(1);

    /**
     * Reads both keys (restart-only: the session table is built once), or {@code null} without
     * {@code SessionTable.disk_path}.
     *
     * @param core the core configuration: a disk tier needs a session table to keep, and no cluster beside it
     */
    public static SessionTableDiskConfig read(KeyReader keys, DispatcherConfig core) {
        KeyReader restart = keys.restartOnly();
        Duration interval = restart.value(FLUSH_KEY, DEFAULT_FLUSH_INTERVAL,
                "a duration of at least 1s: " + Durations.EXPECTED, SessionTableDiskConfig::flushInterval);
        Path directory = restart.path(PATH_KEY, "the path of a directory (relative to the configuration file's)");
        if (directory == null) {
            return null;
        }
        if (restart.raw(ClusterConfig.KEY) != null) {
            keys.problem(PATH_KEY, "no " + ClusterConfig.KEY + " beside it: a cluster's Terracotta server keeps the "
                    + "bindings across a node's restart");
        }
        if (!core.sessionTableEnabled()) {
            keys.problem(PATH_KEY, "a session table to keep: wdisp/HTTP/esid_support, "
                    + "wdisp/HTTP/jsessionid_tab_support and SessionTableTimeout turn every table off");
        }
        return interval == null ? null : new SessionTableDiskConfig(directory.toAbsolutePath(), interval);
    }

    /** The persistent tier of {@code config}, or {@code null} when it has none. */
    public static SessionTableDiskConfig of(DispatcherConfig config) {
        return config.sections().find(SessionTableDiskConfig.class).orElse(null);
    }

    private static Duration flushInterval(String text) {
        try {
            Duration d = Durations.parse(text);
            return d.compareTo(MIN_FLUSH_INTERVAL) >= 0 ? d : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return directory + " (flushed every " + Durations.format(flushInterval) + ")";
    }
}
