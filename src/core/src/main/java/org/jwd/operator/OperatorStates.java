package org.jwd.operator;

import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jwd.config.ConfigException;
import org.jwd.sessiontable.ClusterMap;
import org.jwd.statefile.NewerFormatException;
import org.jwd.topology.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's drain, disable and enable, kept across restarts and, in cluster mode, shared by every node
 * ({@link OperatorConfig} says where). A server's admin state is its {@link Decision} while the configuration still
 * says what it said when the decision was taken ({@code server.<id>.state}); once that key's value changes, the
 * configuration wins and the decision is forgotten, so that an edited file is never overruled by an old click.
 *
 * <pre>
 * server.b.state=active; drain b (page)       -> drained (kept: a restart finds it drained)
 * file: server.b.state=disabled; reload       -> disabled (the decision is forgotten)
 * </pre>
 *
 * <p>In cluster mode every node reads the shared decisions every {@link #SHARED_REFRESH_MILLIS} ms (a read the
 * server answers from the node's own copy unless someone wrote) and applies what changed.
 */
public final class OperatorStates implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorStates.class);
    static final long SHARED_REFRESH_MILLIS = 1000;

    private final StateStore store;
    private final LongSupplier clock;
    /** The decisions in force here; replaced whole under this. */
    private volatile Map<String, Decision> decisions;
    private volatile String lastFailure;
    private ScheduledFuture<?> refreshes; // guarded by this

    /** What an action came to: the server's state, and whether it was kept ({@code problem} is why not). */
    public record Outcome(Server.AdminState state, String problem) {
    }

    /** @param store where decisions are kept, or {@code null}: until the restart only */
    OperatorStates(StateStore store, LongSupplier clock) {
        this.store = store;
        this.clock = clock;
        this.decisions = store == null ? new LinkedHashMap<>() : loadOrEmpty();
    }

    /**
     * The decisions kept where {@code config} says.
     *
     * @throws ConfigException naming {@code jwd.state_file} when a later jwd wrote it: its drains and disables cannot
     *                         be read, and servers an operator took out must not take requests again unseen
     */
    public static OperatorStates open(OperatorConfig config, LongSupplier clockMillis) throws ConfigException {
        StateStore store = config.cluster() != null
                ? new ClusterStates(new ClusterMap(config.cluster(), ClusterStates.ALIAS, clockMillis))
                : config.stateFile() != null ? checked(new StateFile(config.stateFile())) : null;
        OperatorStates states = new OperatorStates(store, clockMillis);
        LOG.info("jwd: what the operator decides of servers (drain, disable, enable) is {}", config);
        return states;
    }

    private static StateFile checked(StateFile file) throws ConfigException {
        try {
            file.checkFormat();
        } catch (NewerFormatException e) {
            throw new ConfigException(OperatorConfig.STATE_FILE_KEY + ": " + e.getMessage() + "; the operator's"
                    + " drains and disables in it cannot be read, so jwd does not start: start the later jwd again,"
                    + " or move the file away (its servers then follow the configuration)");
        } catch (IOException e) {
            // unreadable: said when it is loaded, and servers follow the configuration until it can be read
        }
        return file;
    }

    private Map<String, Decision> loadOrEmpty() {
        try {
            lastFailure = null;
            return store.load();
        } catch (StateStore.StoreException e) {
            lastFailure = e.getMessage();
            LOG.warn("jwd: the operator's decisions cannot be read ({}): servers follow the configuration until they"
                    + " can", e.getMessage());
            return new LinkedHashMap<>();
        }
    }

    /**
     * Sets each server's admin state: its decision while the configuration says what it said then, else what the
     * configuration says. Decisions the configuration has overtaken are forgotten.
     */
    public synchronized void apply(Collection<Server> servers) {
        Map<String, Decision> overtaken = new LinkedHashMap<>();
        for (Server s : servers) {
            Decision d = decisions.get(s.id());
            if (d != null && d.configured() == s.config().state()) {
                s.setAdminState(d.state(), d.atMillis(), d.by());
            } else {
                if (d != null) {
                    overtaken.put(s.id(), d);
                }
                s.setAdminState(Decision.of(s.config().state()), clock.getAsLong(), null);
            }
        }
        if (!overtaken.isEmpty()) {
            LOG.info("jwd: server.<id>.state changed in the configuration for {}: it now decides their state",
                    overtaken.keySet());
            change(all -> {
                overtaken.forEach(all::remove);
                return all;
            });
        }
    }

    /** An operator sets {@code server}'s admin state: applied at once, then kept (and shared). */
    public synchronized Outcome act(Server server, Server.AdminState state, String by) {
        long now = clock.getAsLong();
        Decision d = new Decision(state, server.config().state(), now, by);
        server.setAdminState(state, now, by);
        String problem = change(all -> {
            all.put(server.id(), d);
            return all;
        });
        return new Outcome(server.adminState(), problem);
    }

    /** Changes the decisions here and where they are kept; returns why they could not be kept, or {@code null}. */
    private String change(java.util.function.UnaryOperator<Map<String, Decision>> change) {
        decisions = change.apply(new LinkedHashMap<>(decisions));
        if (store == null) {
            return null;
        }
        try {
            decisions = store.update(all -> change.apply(new LinkedHashMap<>(all)));
            lastFailure = null;
            return null;
        } catch (StateStore.StoreException e) {
            lastFailure = e.getMessage();
            LOG.warn("jwd: the operator's decision holds on this node, but is not kept: {}", e.getMessage());
            return e.getMessage();
        }
    }

    /** Cluster mode: reads the shared decisions every second and applies them to {@code servers}. */
    public synchronized void startSharing(ScheduledExecutorService scheduler, Supplier<Collection<Server>> servers) {
        if (store == null || !store.shared() || refreshes != null) {
            return;
        }
        refreshes = scheduler.scheduleWithFixedDelay(() -> refresh(servers.get()), SHARED_REFRESH_MILLIS,
                SHARED_REFRESH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Reads the shared decisions and applies them when they changed. Never throws: it runs on the scheduler. */
    void refresh(Collection<Server> servers) {
        try {
            Map<String, Decision> shared = store.load();
            lastFailure = null;
            synchronized (this) {
                if (!shared.equals(decisions)) {
                    decisions = shared;
                    apply(servers);
                }
            }
        } catch (StateStore.StoreException e) {
            if (lastFailure == null) {
                LOG.warn("jwd: the shared operator decisions cannot be read ({}); this node keeps what it has",
                        e.getMessage());
            }
            lastFailure = e.getMessage();
        } catch (RuntimeException e) {
            LOG.warn("jwd: applying the shared operator decisions failed", e);
        }
    }

    /** The decision in force for {@code serverId}, or {@code null}. */
    public Decision decision(String serverId) {
        return decisions.get(serverId);
    }

    /** Where decisions are kept, in words. */
    public String where() {
        return store == null ? "until the restart only" : String.valueOf(store);
    }

    /** Why the store could not be read or written the last time, or {@code null}. */
    public String lastFailure() {
        return lastFailure;
    }

    @Override
    public synchronized void close() {
        if (refreshes != null) {
            refreshes.cancel(false);
        }
        if (store != null) {
            store.close();
        }
    }

    @Override
    public String toString() {
        return "OperatorStates[" + where() + ", " + decisions.size() + " decisions]";
    }
}
