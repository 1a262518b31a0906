package org.jwd.loglevel;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import org.jwd.config.ClusterConfig;
import org.jwd.config.Durations;
import org.jwd.sessiontable.ClusterMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log levels an operator sets while jwd runs (the admin page, {@code api/loglevels}, {@code bin/jwd log-level}), as
 * SAP's administrators raise the Web Dispatcher's trace level from its page: to see why one request went where it
 * went without a restart, which would lose the temporary session table's bindings. Each level holds for a while
 * ({@value #DEFAULT_FOR_TEXT} unless said, at most a day); then the logger returns to its configured level, since a
 * DEBUG left on by mistake fills disks. A restart returns every logger to its configured level.
 *
 * <pre>
 * set org.jwd.routing DEBUG for 10m by oncall -> DEBUG (was INFO) until 10:42
 * 10:42                                       -> INFO again
 * </pre>
 *
 * <p>In cluster mode the levels set are kept on the Terracotta server, as the operator's drains are: every node reads
 * them every {@link #REFRESH_MILLIS} ms, applies what changed, and returns to its own configured level when a level
 * expires (the first node to see it expire removes it for all).
 */
public final class LogLevels implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogLevels.class);
    static final String DEFAULT_FOR_TEXT = "30m";
    /** How long a level holds when the operator does not say. */
    public static final Duration DEFAULT_FOR = Durations.parse(DEFAULT_FOR_TEXT);
    /** How long a level may hold at most. */
    public static final Duration MAX_FOR = Duration.ofHours(24);
    public static final List<String> LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");
    /** The loggers an operator looks for first: jwd's, Jetty's, Ehcache's and Terracotta's client's. */
    public static final List<String> WELL_KNOWN = List.of("org.jwd", "org.eclipse.jetty", "org.ehcache",
            "org.terracotta", "com.tc");
    static final long REFRESH_MILLIS = 1000;
    private static final Pattern NAME = Pattern.compile("[A-Za-z_$][\\w$-]*(\\.[A-Za-z_$][\\w$-]*)*");

    private final Loggers loggers;
    /** {@code null}: this node alone */
    private final SharedLevels shared;
    private final LongSupplier clock;
    /** The levels in force on this node, by logger; replaced whole under this. */
    private volatile Map<String, LevelOverride> overrides = Map.of();
    /** What each level in force replaced on this node; guarded by this. */
    private final Map<String, Before> before = new LinkedHashMap<>();
    private volatile String lastFailure;
    private ScheduledFuture<?> refreshes; // guarded by this

    /** A logger's level before jwd changed it, and what puts it (and its descendants) back. */
    private record Before(String level, Runnable restore) {
    }

    /** What a change came to: the level set ({@code null} for a reset), and why it was not shared, or {@code null}. */
    public record Outcome(LevelOverride override, String problem) {
    }

    LogLevels(Loggers loggers, SharedLevels shared, LongSupplier clockMillis) {
        this.loggers = loggers;
        this.shared = shared;
        this.clock = clockMillis;
    }

    /** The levels of {@code loggers}, shared through {@code cluster}'s Terracotta server ({@code null}: none). */
    public static LogLevels open(Loggers loggers, ClusterConfig cluster, LongSupplier clockMillis) {
        return new LogLevels(loggers, cluster == null ? null
                : new SharedLevels(new ClusterMap(cluster, SharedLevels.ALIAS, clockMillis)), clockMillis);
    }

    /**
     * Sets {@code logger}'s level on this node at once, then for every node, until {@code forHowLong} has passed.
     *
     * @param forHowLong a duration with a unit, at most a day; {@code null}: {@value #DEFAULT_FOR_TEXT}
     * @param by         who set it, {@code user from address}
     * @throws IllegalArgumentException naming the logger, the level or the duration when one is not valid
     * @throws IllegalStateException    when this runtime's logging system cannot change levels
     */
    public synchronized Outcome set(String logger, String level, String forHowLong, String by) {
        String name = checkedName(logger);
        String upper = level == null ? "" : level.strip().toUpperCase(Locale.ROOT);
        if (!LEVELS.contains(upper)) {
            throw new IllegalArgumentException("level '" + level + "': expected " + String.join(", ", LEVELS));
        }
        long now = clock.getAsLong();
        LevelOverride set = new LevelOverride(name, upper, now, now + checkedFor(forHowLong).toMillis(), by);
        Map<String, LevelOverride> next = new LinkedHashMap<>(overrides);
        next.put(name, set);
        install(next);
        LOG.info("jwd: log level of {} {} (was {}) until {} by {}", name, upper, before.get(name).level(),
                java.time.Instant.ofEpochMilli(set.untilMillis()), by);
        return new Outcome(set, share(all -> {
            all.put(name, set);
            return all;
        }));
    }

    /**
     * Returns {@code logger} to its configured level now, on every node.
     *
     * @return {@code null} when no level was set for it
     */
    public synchronized Outcome reset(String logger, String by) {
        if (!overrides.containsKey(logger)) {
            return null;
        }
        Map<String, LevelOverride> next = new LinkedHashMap<>(overrides);
        next.remove(logger);
        String configured = before.get(logger).level();
        install(next);
        LOG.info("jwd: log level of {} back to {} by {}", logger, configured, by);
        return new Outcome(null, share(all -> {
            all.remove(logger);
            return all;
        }));
    }

    private static String checkedName(String logger) {
        String name = logger == null ? "" : logger.strip();
        if (name.length() > 200 || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("logger '" + logger + "': expected a logger's name, as org.jwd.routing,"
                    + " org.eclipse.jetty.client or ROOT");
        }
        return name;
    }

    private static Duration checkedFor(String forHowLong) {
        if (forHowLong == null || forHowLong.isBlank()) {
            return DEFAULT_FOR;
        }
        String expected = "for '" + forHowLong + "': expected a duration between 1s and " + Durations.format(MAX_FOR)
                + ", " + Durations.EXPECTED;
        try {
            Duration d = Durations.parse(forHowLong);
            if (d.compareTo(Duration.ofSeconds(1)) >= 0 && d.compareTo(MAX_FOR) <= 0) {
                return d;
            }
        } catch (IllegalArgumentException e) {
            // said below
        }
        throw new IllegalArgumentException(expected);
    }

    /**
     * Makes {@code next} the levels in force here: sets those that are new or changed, and puts back the loggers whose
     * level is no longer set. Guarded by this.
     */
    private void install(Map<String, LevelOverride> next) {
        for (LevelOverride o : next.values()) {
            LevelOverride now = overrides.get(o.logger());
            if (now == null || !now.level().equals(o.level())) {
                String was = loggers.level(o.logger());
                Runnable restore = loggers.set(o.logger(), o.level());
                before.putIfAbsent(o.logger(), new Before(was, restore));
            }
        }
        for (String logger : overrides.keySet()) {
            Before b = next.containsKey(logger) ? null : before.remove(logger);
            if (b != null) {
                b.restore().run();
            }
        }
        overrides = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(next));
    }

    /** Changes the levels where the cluster keeps them; returns why it could not, or {@code null}. Guarded by this. */
    private String share(UnaryOperator<Map<String, LevelOverride>> change) {
        if (shared == null) {
            return null;
        }
        try {
            shared.update(change);
            lastFailure = null;
            return null;
        } catch (RuntimeException e) {
            lastFailure = e.getMessage();
            LOG.warn("jwd: the log level holds on this node, but is not shared: {}", e.getMessage());
            return e.getMessage();
        }
    }

    /** Reads again every {@link #REFRESH_MILLIS} ms: the levels expired, and in cluster mode those shared. */
    public synchronized void start(ScheduledExecutorService scheduler) {
        if (refreshes == null) {
            refreshes = scheduler.scheduleWithFixedDelay(this::refresh, 0, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Applies the levels shared (in cluster mode), and returns the loggers whose level expired to their configured
     * level, removing it for every node. Never throws: it runs on the scheduler.
     */
    synchronized void refresh() {
        try {
            Map<String, LevelOverride> next = overrides;
            if (shared != null) {
                try {
                    next = shared.load();
                    lastFailure = null;
                } catch (RuntimeException e) {
                    lastFailure = e.getMessage();
                }
            }
            long now = clock.getAsLong();
            Map<String, LevelOverride> live = new LinkedHashMap<>(next);
            live.values().removeIf(o -> o.expired(now));
            for (LevelOverride o : next.values()) {
                if (o.expired(now) && overrides.containsKey(o.logger())) {
                    LOG.info("jwd: log level of {} back to {}: the {} set by {} expired", o.logger(),
                            before.get(o.logger()).level(), o.level(), o.by());
                }
            }
            if (live.size() < next.size()) {
                share(all -> {
                    all.values().removeIf(o -> o.expired(now));
                    return all;
                });
            }
            if (!live.equals(overrides)) {
                install(live);
            }
        } catch (RuntimeException e) {
            LOG.warn("jwd: applying the log levels failed", e);
        }
    }

    /** The levels set and in force here, in the order they were first set. */
    public List<LevelOverride> overrides() {
        return List.copyOf(overrides.values());
    }

    /** The level {@code logger} had before its level was set ({@code null}: not set, or unknown). */
    public synchronized String configured(String logger) {
        Before b = before.get(logger);
        return b == null ? null : b.level();
    }

    /** The level in effect for {@code logger} now, or {@code null} when the logging system cannot say. */
    public String level(String logger) {
        return loggers.level(logger);
    }

    /** Whether this runtime's logging system can change levels. */
    public boolean changeable() {
        return loggers != Loggers.NONE;
    }

    /** Where the levels set are kept, in words. */
    public String where() {
        return shared == null ? "this node only, until it restarts" : String.valueOf(shared);
    }

    /** Why the cluster's levels could not be read or written the last time, or {@code null}. */
    public String lastFailure() {
        return lastFailure;
    }

    /** Stops the refreshes and returns every logger to its configured level. */
    @Override
    public synchronized void close() {
        if (refreshes != null) {
            refreshes.cancel(false);
        }
        install(Map.of());
        if (shared != null) {
            shared.close();
        }
    }

    @Override
    public String toString() {
        return "LogLevels[" + overrides.keySet() + ", " + where() + ", " + loggers + "]";
    }
}
