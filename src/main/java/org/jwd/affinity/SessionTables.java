package org.jwd.affinity;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.jwd.config.ClusterConfig;
import org.jwd.config.DispatcherConfig;

/** Makes the session table the configuration asks for. */
public final class SessionTables {

    /** The background sweep runs every {@code SessionTableTimeout}, but at least every minute and at most every second. */
    static final Duration MIN_SWEEP_INTERVAL = Duration.ofSeconds(1);
    static final Duration MAX_SWEEP_INTERVAL = Duration.ofMinutes(1);
    /** Cluster mode: how often a lost Terracotta server is tried again. */
    static final Duration CLUSTER_PROBE_INTERVAL = Duration.ofSeconds(1);

    private SessionTables() {
    }

    /**
     * The table for this configuration: {@link DisabledSessionTable} when {@code SessionTableTimeout} is 0,
     * else an {@link EhcacheSessionTable} with the configured sizes, the system clock and a daemon thread that
     * sweeps expired entries (see {@link #sweepInterval}); with {@code SessionTable.cluster_uri}, a
     * {@link ClusteredSessionTable} shared with the other nodes, that one as its local copy. Close it when the
     * configuration is replaced.
     */
    public static SessionTable create(DispatcherConfig config) {
        if (!config.sessionTableEnabled()) {
            return DisabledSessionTable.INSTANCE;
        }
        SessionTable local = new EhcacheSessionTable(config.sessionTableTimeout(), config.maxSessionTableEntries(),
                config.sessionTableHeapEntries(), config.sessionTableOffHeapMegabytes(), null,
                sweepInterval(config.sessionTableTimeout()));
        return clustered(config, local, null, CLUSTER_PROBE_INTERVAL);
    }

    /**
     * For tests: like {@link #create(DispatcherConfig)}, on the given clock (epoch milliseconds, moved by hand)
     * and without the background sweeper, so nothing happens behind the test's back. Expired entries are then
     * removed when touched, when a bind finds the table full, or by {@link EhcacheSessionTable#sweep()}.
     * Clustered, it tries a lost server only when {@code ClusteredSessionTable.probe()} is called.
     */
    public static SessionTable create(DispatcherConfig config, LongSupplier clockMillis) {
        if (!config.sessionTableEnabled()) {
            return DisabledSessionTable.INSTANCE;
        }
        SessionTable local = new EhcacheSessionTable(config.sessionTableTimeout(), config.maxSessionTableEntries(),
                config.sessionTableHeapEntries(), config.sessionTableOffHeapMegabytes(), clockMillis, null);
        return clustered(config, local, clockMillis, null);
    }

    /** Cluster mode ({@code SessionTable.cluster_uri}) wraps the node's table; without the key it is returned as is. */
    private static SessionTable clustered(DispatcherConfig config, SessionTable local, LongSupplier clockMillis,
                                          Duration probeInterval) {
        ClusterConfig cluster = ClusterConfig.of(config);
        if (cluster == null) {
            return local;
        }
        BindingStore store = new TerracottaBindingStore(cluster, config.sessionTableTimeout(),
                config.maxSessionTableEntries(), config.sessionTableHeapEntries());
        return new ClusteredSessionTable(cluster.toString(), store, local, config.sessionTableTimeout(), clockMillis,
                probeInterval);
    }

    /** How often the background sweep runs: the timeout, kept between 1 s and 1 min. */
    static Duration sweepInterval(Duration timeout) {
        if (timeout.compareTo(MIN_SWEEP_INTERVAL) < 0) {
            return MIN_SWEEP_INTERVAL;
        }
        return timeout.compareTo(MAX_SWEEP_INTERVAL) > 0 ? MAX_SWEEP_INTERVAL : timeout;
    }
}
