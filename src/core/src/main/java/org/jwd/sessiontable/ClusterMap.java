package org.jwd.sessiontable;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.clustered.client.config.builders.ClusteredResourcePoolBuilder;
import org.ehcache.clustered.client.config.builders.ClusteredStoreConfigurationBuilder;
import org.ehcache.clustered.client.config.builders.ClusteringServiceConfigurationBuilder;
import org.ehcache.clustered.client.config.builders.TimeoutsBuilder;
import org.ehcache.clustered.common.Consistency;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.EntryUnit;
import org.ehcache.config.units.MemoryUnit;
import org.jwd.config.ClusterConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A few strings every node of a cluster shares, beside the session table on the same Terracotta server: a small
 * clustered cache of its own ({@code alias}), {@link Consistency#STRONG}, with a heap tier in front that the server
 * keeps in step, so that a node reading a value nobody changed asks no one. What the operator decided of each
 * server lives here in cluster mode. Operations fail with {@link BindingStore.UnavailableException} rather than
 * answer as Ehcache's default strategy would (a failed read as "absent"); a node that is not connected tries
 * again at most every {@link #RETRY}.
 */
public final class ClusterMap implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMap.class);
    static final Duration RETRY = Duration.ofSeconds(5);
    private static final long SERVER_MEGABYTES = 2;

    private final ClusterConfig cluster;
    private final String alias;
    private final LongSupplier clock;
    private final Object lock = new Object();
    private CacheManager manager; // guarded by lock
    private volatile Cache<String, String> cache;
    private long lastAttempt = Long.MIN_VALUE / 2; // guarded by lock
    private volatile boolean closed;

    public ClusterMap(ClusterConfig cluster, String alias, LongSupplier clockMillis) {
        this.cluster = cluster;
        this.alias = alias;
        this.clock = clockMillis;
    }

    /** The value of {@code key}, or {@code null}. */
    public String get(String key) {
        try {
            return cache().get(key);
        } catch (BindingStore.UnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            throw lost(e);
        }
    }

    /** Replaces {@code expected} ({@code null}: absent) with {@code value}, atomically across the nodes. */
    public boolean replace(String key, String expected, String value) {
        try {
            return expected == null ? cache().putIfAbsent(key, value) == null : cache().replace(key, expected, value);
        } catch (BindingStore.UnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            throw lost(e);
        }
    }

    private BindingStore.UnavailableException lost(RuntimeException e) {
        return new BindingStore.UnavailableException(cluster + " (" + alias + "): "
                + TerracottaBindingStore.rootCause(e), e);
    }

    private Cache<String, String> cache() {
        Cache<String, String> current = cache;
        if (current != null) {
            return current;
        }
        synchronized (lock) {
            if (cache == null && !closed && clock.getAsLong() - lastAttempt >= RETRY.toMillis()) {
                lastAttempt = clock.getAsLong();
                connect();
            }
            if (cache == null) {
                throw new BindingStore.UnavailableException("not connected to " + cluster + " (" + alias + ")", null);
            }
            return cache;
        }
    }

    private void connect() { // guarded by lock
        CacheManager candidate = CacheManagerBuilder.newCacheManagerBuilder()
                .with(ClusteringServiceConfigurationBuilder.cluster(cluster.uri())
                        .timeouts(TimeoutsBuilder.timeouts().read(TerracottaBindingStore.READ_TIMEOUT)
                                .write(TerracottaBindingStore.WRITE_TIMEOUT)
                                .connection(TerracottaBindingStore.CONNECTION_TIMEOUT))
                        .autoCreateOnReconnect(server -> server.defaultServerResource(
                                TerracottaBindingStore.SERVER_RESOURCE)))
                .withCache(alias, CacheConfigurationBuilder.newCacheConfigurationBuilder(String.class, String.class,
                                ResourcePoolsBuilder.newResourcePoolsBuilder().heap(16, EntryUnit.ENTRIES)
                                        .with(ClusteredResourcePoolBuilder.clusteredDedicated(
                                                TerracottaBindingStore.SERVER_RESOURCE, SERVER_MEGABYTES,
                                                MemoryUnit.MB)))
                        .withService(ClusteredStoreConfigurationBuilder.withConsistency(Consistency.STRONG))
                        .withResilienceStrategy(new TerracottaBindingStore.Rethrowing()))
                .build(false);
        try {
            candidate.init();
        } catch (RuntimeException e) {
            try {
                candidate.close();
            } catch (RuntimeException ignored) {
                // it never opened
            }
            LOG.debug("{} ({}): cannot connect", cluster, alias, e);
            return;
        }
        manager = candidate;
        cache = candidate.getCache(alias, String.class, String.class);
        LOG.info("{}: shared {} connected", cluster, alias);
    }

    @Override
    public void close() {
        CacheManager toClose;
        synchronized (lock) {
            closed = true;
            cache = null;
            toClose = manager;
            manager = null;
        }
        // a server that is gone can hold the client's close: given up after a while, as the session table's
        TerracottaBindingStore.closeBounded(toClose, this);
    }

    @Override
    public String toString() {
        return cluster + " (" + alias + ")";
    }
}
