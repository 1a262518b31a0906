package org.jwd.sessiontable;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jwd.config.ClusterConfig;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.PerSystemConfigs;
import org.jwd.config.ServerConfig;
import org.jwd.config.SessionTableDiskConfig;

/** Makes the session table the configuration asks for. */
public final class SessionTables {

    /** The background sweep runs every shortest idle timeout, but at least every minute and at most every second. */
    static final Duration MIN_SWEEP_INTERVAL = Duration.ofSeconds(1);
    static final Duration MAX_SWEEP_INTERVAL = Duration.ofMinutes(1);

    private SessionTables() {
    }

    /**
     * The table for this configuration: {@link DisabledSessionTable} when neither SAP's session ID table
     * ({@code wdisp/HTTP/esid_support}, {@code wdisp/HTTP/jsessionid_tab_support}) nor the temporary table
     * ({@code SessionTableTimeout}) is on, else an {@link EhcacheSessionTable} with the configured sizes and
     * timeouts ({@link SessionTimeouts#of}), the system clock and sweeps of expired entries on {@code scheduler}
     * (see {@link #sweepInterval}); with {@code SessionTable.cluster_uri}, a {@link ClusteredSessionTable} shared
     * with the other nodes, that one as its local copy, probing a lost server on {@code scheduler}; with
     * {@code SessionTable.disk_path}, a {@link PersistentSessionTable} that restores the bindings on disk now and
     * writes them on {@code scheduler}. Close it when the dispatcher stops (a persistent table writes its bindings
     * then); the scheduler is the caller's and stays running.
     */
    public static SessionTable create(DispatcherConfig config, ScheduledExecutorService scheduler) {
        Objects.requireNonNull(scheduler, "scheduler");
        if (!config.sessionTableEnabled()) {
            return DisabledSessionTable.INSTANCE;
        }
        SessionTimeouts timeouts = SessionTimeouts.of(config);
        EhcacheSessionTable local = new EhcacheSessionTable(timeouts, config.sessions().maxSessionTableEntries(),
                config.sessions().sessionTableHeapEntries(), config.sessions().sessionTableOffHeapMegabytes(), null,
                new SweepSchedule(scheduler, sweepInterval(timeouts.shortest())));
        SessionTableDiskConfig disk = SessionTableDiskConfig.of(config);
        if (disk != null) {
            // with wdisp/system_<xx> entries the servers are the systems' (the whole file has no unscoped ones)
            Set<String> servers = Stream.concat(config.servers().stream(), PerSystemConfigs.of(config).values()
                    .stream().flatMap(c -> c.servers().stream())).map(ServerConfig::id).collect(Collectors.toSet());
            return new PersistentSessionTable(local, disk, config.sessions().maxSessionTableEntries(), servers::contains, null,
                    scheduler);
        }
        return clustered(config, local, null, scheduler);
    }

    /**
     * Like {@link #create(DispatcherConfig, ScheduledExecutorService)} without a scheduler nor a disk tier, for tests and
     * benchmarks: nothing sweeps in the background (expired entries are removed when touched, when a bind finds
     * the table full, or by {@link EhcacheSessionTable#sweep()}), and a lost cluster server is not probed.
     */
    public static SessionTable create(DispatcherConfig config) {
        return create(config, (LongSupplier) null);
    }

    /**
     * For tests: like {@link #create(DispatcherConfig)}, on the given clock (epoch milliseconds, moved by hand), so
     * nothing happens behind the test's back. Clustered, it tries a lost server only when
     * {@code ClusteredSessionTable.probe()} is called.
     */
    public static SessionTable create(DispatcherConfig config, LongSupplier clockMillis) {
        if (!config.sessionTableEnabled()) {
            return DisabledSessionTable.INSTANCE;
        }
        SessionTable local = new EhcacheSessionTable(SessionTimeouts.of(config), config.sessions().maxSessionTableEntries(),
                config.sessions().sessionTableHeapEntries(), config.sessions().sessionTableOffHeapMegabytes(), clockMillis, null);
        return clustered(config, local, clockMillis, null);
    }

    /** Cluster mode ({@code SessionTable.cluster_uri}) wraps the node's table; without the key it is returned as is. */
    private static SessionTable clustered(DispatcherConfig config, SessionTable local, LongSupplier clockMillis,
                                          ScheduledExecutorService scheduler) {
        ClusterConfig cluster = ClusterConfig.of(config);
        if (cluster == null) {
            return local;
        }
        SessionTimeouts timeouts = SessionTimeouts.of(config);
        BindingStore store = new TerracottaBindingStore(cluster, timeouts.longest(),
                config.sessions().maxSessionTableEntries(), config.sessions().sessionTableHeapEntries());
        return new ClusteredSessionTable(cluster.toString(), store, local, timeouts, clockMillis, scheduler,
                ClusteredSessionTable.BIND_WAIT);
    }

    /** How often the background sweep runs: the timeout, kept between 1 s and 1 min. */
    static Duration sweepInterval(Duration timeout) {
        if (timeout.compareTo(MIN_SWEEP_INTERVAL) < 0) {
            return MIN_SWEEP_INTERVAL;
        }
        return timeout.compareTo(MAX_SWEEP_INTERVAL) > 0 ? MAX_SWEEP_INTERVAL : timeout;
    }
}
