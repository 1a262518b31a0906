package org.jwd.runtime;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the configuration file and the files it names, and asks the {@link Reloader} to read them once they
 * changed, as a job of the shared scheduler.
 *
 * <p><b>Watching by polling.</b> Every {@code jwd.config_watch} (1 s by default) the files' {@link FileSignatures}
 * are read. A {@link java.nio.file.WatchService} was not used: it misses changes on Docker bind mounts and network
 * file systems, and Kubernetes replaces a ConfigMap's files by swapping a symbolic link in the directory, an event on
 * another name. <b>Debounce:</b> a change is read only once the signatures have stayed the same for one whole
 * interval, so a file written in several steps is read once, when it is complete. The reloader's digest then tells
 * an unchanged file (touched, or saved as it was) from a change.
 */
public final class ConfigWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigWatch.class);

    /** How often the files are checked: a duration; {@code 0} turns the watch off ({@code POST api/reload} stays). */
    public static final String KEY = ConfigReader.WATCH_KEY;
    /** While the watch is off, how often it looks whether a reload turned it on again. */
    private static final Duration IDLE_INTERVAL = Duration.ofSeconds(5);

    private final Reloader reloader;
    /** the configuration in force, whose {@link #KEY} a reload may change */
    private final Supplier<DispatcherConfig> config;
    private final ScheduledExecutorService scheduler;
    /** the signatures seen at the last poll; touched by the polls only, which the schedule runs one at a time */
    private FileSignatures seen;
    private ScheduledFuture<?> next; // guarded by this
    private boolean closed; // guarded by this

    public ConfigWatch(Reloader reloader, Supplier<DispatcherConfig> config, ScheduledExecutorService scheduler) {
        this.reloader = reloader;
        this.config = config;
        this.scheduler = scheduler;
        this.seen = reloader.readSignatures();
    }

    /** How often the files are checked now; zero when the watch is off. */
    public Duration interval() {
        return config.get().section(ConfigReader.WatchSection.class).interval();
    }

    /** Starts the rounds (when {@code jwd.config_watch} is not 0, checked again at each round). */
    public synchronized void start() {
        if (next != null || closed) {
            return;
        }
        scheduleNext();
        LOG.info("jwd: watching {} for changes ({}={})", reloader.watched(), KEY, Durations.format(interval()));
    }

    private synchronized void scheduleNext() {
        if (closed) {
            return;
        }
        Duration every = interval();
        next = scheduler.schedule(this::round, (every.isZero() ? IDLE_INTERVAL : every).toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void round() {
        try {
            if (!interval().isZero()) {
                poll();
            }
        } catch (RuntimeException e) {
            LOG.warn("jwd: watching the configuration file failed", e);
        } finally {
            scheduleNext();
        }
    }

    /**
     * One round of the watch: reloads when the watched files changed since they were last read and have stayed the
     * same since the last round. Called by the schedule; tests call it by hand.
     *
     * @return the reload's result, or {@code null} when nothing was read
     */
    Reloader.Result poll() {
        FileSignatures now = FileSignatures.of(reloader.watched());
        if (!now.equals(seen)) {
            seen = now; // still changing, perhaps: read it once it has stayed so for a whole round
            return null;
        }
        if (now.equals(reloader.readSignatures())) {
            return null;
        }
        return reloader.reload("file change");
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (next != null) {
            next.cancel(false);
        }
    }
}
