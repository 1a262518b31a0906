package org.jwd.discovery;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.jwd.statefile.NewerFormatException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovery of every system that asks SAP for its landscape ({@link DiscoveryConfig}): a job of the shared
 * scheduler, off the request path, asks each system's lists every {@code wdisp/auto_refresh} and hands every
 * system's view to the runtime ({@code publish}) whenever one changed, which swaps in a new state as a reload does;
 * a request never waits for it. The last good answers are kept in a file and read at the start, so that a
 * dispatcher started while the message server is away serves from them at once.
 */
public final class Discovery implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Discovery.class);

    private final DiscoveryConfig config;
    private final InfoFetcher fetcher;
    private final KeptViews kept;
    private final LongSupplier clock;
    private final Consumer<Discovery> publish;
    /** by system key; guarded by this */
    private final Map<String, SystemRefresh> systems = new LinkedHashMap<>();
    /** set under this; cancelled without it, so that closing never waits for a refresh */
    private volatile ScheduledFuture<?> refreshes;
    private volatile boolean closed;
    private volatile String keptError;
    /** The kept file is a later jwd's: never written over. */
    private volatile boolean keptRefused;
    /** What the page reads without waiting for a refresh under way: set after each. */
    private volatile Map<String, SystemView> views = Map.of();
    private volatile List<SystemStatus> status = List.of();

    /**
     * @param publish told when a system's view changed ({@link #views()}); it runs on the refreshing thread, holding
     *                this discovery's lock
     */
    public Discovery(DiscoveryConfig config, InfoFetcher fetcher, LongSupplier clockMillis,
                     Consumer<Discovery> publish) {
        this.config = config;
        this.fetcher = fetcher;
        this.kept = new KeptViews(config.keptFile());
        this.clock = clockMillis;
        this.publish = publish;
        for (DiscoveryConfig.Source s : config.sources()) {
            systems.put(s.key(), new SystemRefresh(s, config));
        }
        snapshot();
    }

    public DiscoveryConfig config() {
        return config;
    }

    /** Reads the kept file and publishes what it holds for the configured systems of the same source. */
    public synchronized void loadKept() {
        Map<String, Answers> answers;
        try {
            answers = kept.load();
        } catch (NewerFormatException e) {
            // a later jwd's view: the message server is asked as without one, and the file is not written over
            keptRefused = true;
            keptError = e.getMessage() + "; the answers are not kept until it is moved away";
            LOG.warn("jwd: discovery: {}", keptError);
            return;
        } catch (IOException e) {
            keptError = e.getMessage();
            LOG.warn("jwd: discovery: {}", e.getMessage());
            return;
        }
        boolean any = false;
        for (SystemRefresh s : systems.values()) {
            Answers a = answers.get(s.source().key());
            if (a != null && s.source().serverList().toString().equals(a.source()) && s.keep(a)) {
                LOG.info("jwd: discovery of {}: serving the view kept in {} (of {}) until the message server"
                        + " answers", s.source().key(), kept.file(), java.time.Instant.ofEpochMilli(a.atMillis()));
                any = true;
            }
        }
        snapshot();
        if (any) {
            publish.accept(this);
        }
    }

    /**
     * Asks every system once, synchronously (the first requests see what it found), then every
     * {@code wdisp/auto_refresh} as a job of {@code scheduler}, until {@link #close}.
     */
    public synchronized void start(ScheduledExecutorService scheduler) {
        if (closed || refreshes != null || systems.isEmpty()) {
            return;
        }
        refreshNow();
        long every = config.refresh().toMillis();
        refreshes = scheduler.scheduleWithFixedDelay(this::refreshNow, every, every, TimeUnit.MILLISECONDS);
    }

    /** Asks every system now; publishes when a view changed. Never throws: a scheduled job that throws ends. */
    public synchronized void refreshNow() {
        boolean changed = false;
        try {
            for (SystemRefresh s : systems.values()) {
                changed |= s.refresh(fetcher, clock.getAsLong()) != null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            LOG.warn("jwd: discovery failed", e);
        }
        snapshot();
        if (changed && !closed) {
            publish.accept(this);
        }
        store();
    }

    /** Takes the views and statuses the readers see. Guarded by this. */
    private void snapshot() {
        Map<String, SystemView> next = new LinkedHashMap<>();
        List<SystemStatus> nextStatus = new ArrayList<>();
        systems.forEach((key, s) -> {
            if (s.view() != null) {
                next.put(key, s.view());
            }
            nextStatus.add(s.status());
        });
        views = java.util.Collections.unmodifiableMap(next);
        status = List.copyOf(nextStatus);
    }

    private void store() {
        Map<String, Answers> answers = new LinkedHashMap<>();
        systems.forEach((key, s) -> {
            if (s.answers() != null) {
                answers.put(key, s.answers());
            }
        });
        if (answers.isEmpty() || keptRefused) {
            return;
        }
        try {
            kept.store(answers);
        } catch (IOException e) {
            LOG.warn("jwd: discovery: cannot keep the view in {}: {}", kept.file(), e.toString());
        }
    }

    /** Every system's view in force, by system key; a system without one yet is absent. Read without a lock. */
    public Map<String, SystemView> views() {
        return views;
    }

    /** Each system's status after the last refresh, in entry order. Read without a lock. */
    public List<SystemStatus> status() {
        return status;
    }

    /** Why the kept file could not be read at the start, or {@code null}. */
    public String keptError() {
        return keptError;
    }

    /** Where the last good view is kept. */
    public KeptViews kept() {
        return kept;
    }

    /** Stops the refreshes; never waits for one under way, whose answers are then not published. */
    @Override
    public void close() {
        closed = true;
        ScheduledFuture<?> r = refreshes;
        if (r != null) {
            r.cancel(true);
        }
    }

    @Override
    public String toString() {
        return "Discovery[" + config + ", " + kept + "]";
    }
}
