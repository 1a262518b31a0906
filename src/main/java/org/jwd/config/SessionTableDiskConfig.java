package org.jwd.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The session table's persistent tier ({@code SessionTable.disk_path}, {@code SessionTable.disk_flush_interval}):
 * a single dispatcher keeps its bindings across a restart in Ehcache's disk store under that directory. Read
 * here, as {@link ClusterConfig} reads its key, until the typed key reader takes both.
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
     * Checks both keys when set; {@link ConfigLoader} calls it, so that a bad value stops the start.
     *
     * @param source    how to name the file in messages
     * @param directory the configuration file's directory
     * @throws ConfigException naming the key, the value and what is expected
     */
    public static void check(DispatcherConfig config, String source, Path directory) throws ConfigException {
        List<String> problems = new ArrayList<>();
        read(config, directory, source, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    /**
     * The persistent tier's configuration, or {@code null} without {@code SessionTable.disk_path}.
     *
     * @throws IllegalArgumentException when a value is invalid (see {@link #check})
     */
    public static SessionTableDiskConfig of(DispatcherConfig config, Path directory) {
        List<String> problems = new ArrayList<>();
        SessionTableDiskConfig disk = read(config, directory, "configuration", problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return disk;
    }

    private static SessionTableDiskConfig read(DispatcherConfig config, Path directory, String source,
                                               List<String> problems) {
        String path = config.properties().get(PATH_KEY);
        String flush = config.properties().get(FLUSH_KEY);
        Duration interval = flush == null ? DEFAULT_FLUSH_INTERVAL : flushInterval(flush.strip());
        if (interval == null) {
            problems.add(source + ": " + FLUSH_KEY + " = '" + flush + "': expected a duration of at least 1s: "
                    + Durations.EXPECTED);
        }
        if (path == null) {
            return null;
        }
        Path resolved = resolve(directory, path.strip());
        if (resolved == null) {
            problems.add(source + ": " + PATH_KEY + " = '" + path + "': expected the path of a directory "
                    + "(relative to the configuration file's)");
        }
        if (config.properties().get(ClusterConfig.KEY) != null) {
            problems.add(source + ": " + PATH_KEY + " = '" + path + "': expected no " + ClusterConfig.KEY
                    + " beside it: a cluster's Terracotta server keeps the bindings across a node's restart");
        }
        if (!config.sessionTableEnabled()) {
            problems.add(source + ": " + PATH_KEY + " = '" + path + "': expected a session table to keep: "
                    + "wdisp/HTTP/esid_support, wdisp/HTTP/jsessionid_tab_support and SessionTableTimeout turn every "
                    + "table off");
        }
        return resolved == null || interval == null ? null : new SessionTableDiskConfig(resolved, interval);
    }

    private static Duration flushInterval(String text) {
        try {
            Duration d = Durations.parse(text);
            return d.compareTo(MIN_FLUSH_INTERVAL) >= 0 ? d : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Path resolve(Path directory, String path) {
        if (path.isEmpty()) {
            return null;
        }
        try {
            return directory == null ? Path.of(path).toAbsolutePath() : directory.resolve(path).toAbsolutePath();
        } catch (InvalidPathException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return directory + " (flushed every " + Durations.format(flushInterval) + ")";
    }
}
