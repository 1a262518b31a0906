package org.jwd.sessiontable;

import java.time.Duration;
import java.util.Map;

import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.clustered.client.config.builders.ClusteredResourcePoolBuilder;
import org.ehcache.clustered.client.config.builders.ClusteredStoreConfigurationBuilder;
import org.ehcache.clustered.client.config.builders.ClusteringServiceConfigurationBuilder;
import org.ehcache.clustered.client.config.builders.TimeoutsBuilder;
import org.ehcache.clustered.common.Consistency;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ExpiryPolicyBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.EntryUnit;
import org.ehcache.config.units.MemoryUnit;
import org.ehcache.spi.resilience.ResilienceStrategy;
import org.ehcache.spi.resilience.StoreAccessException;
import org.jwd.config.ClusterConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared session table on a Terracotta server: an Ehcache 3 clustered cache with a small heap tier in front
 * and the authoritative copy on the server, {@link Consistency#STRONG} so that {@code putIfAbsent} and
 * {@code replace} are atomic across every node. Besides {@link EhcacheSessionTable} the only class of jwd that
 * uses Ehcache.
 *
 * <ul>
 *   <li><b>Server side</b>: a dedicated pool of the server's offheap resource {@value #SERVER_RESOURCE} (the
 *       Terracotta kit's default: {@code offheap-resources=main:512MB}), {@link #SERVER_BYTES_PER_ENTRY} bytes
 *       per allowed entry, at least {@link #MIN_SERVER_MEGABYTES} MB. The entity and the cache are created when
 *       missing, and created again when a restarted server has lost them ({@code autoCreateOnReconnect}).</li>
 *   <li><b>Expiry</b>: time-to-live from the last write ({@link ClusterBinding#storedFor}); the table itself
 *       judges liveness from the stamp in the value, because Ehcache's idle expiry on the clustered tier is only
 *       best effort.</li>
 *   <li><b>Failures are not hidden</b>: Ehcache's default resilience strategy answers a failed {@code get} with
 *       {@code null} and a failed {@code putIfAbsent} with "stored", so a node that lost the server would
 *       believe it won every binding. This store's strategy throws {@link BindingStore.UnavailableException}
 *       instead, and the table falls back to the node's own table. Read and write timeouts are short
 *       ({@link #READ_TIMEOUT}, {@link #WRITE_TIMEOUT}), so a request never hangs long on a lost server. A read that
 *       times out is answered as a miss by Ehcache itself, bypassing the strategy; {@link #get} recognizes it by
 *       its duration and throws too.</li>
 * </ul>
 */
final class TerracottaBindingStore implements BindingStore {
    private static final Logger LOG = LoggerFactory.getLogger(TerracottaBindingStore.class);

    static final String ALIAS = "jwd-session-table";
    static final String SERVER_RESOURCE = "main";
    static final long SERVER_BYTES_PER_ENTRY = 256;
    static final long MIN_SERVER_MEGABYTES = 16;
    static final long MAX_HEAP_ENTRIES = 100_000;
    static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
    private static final long READ_TIMEOUT_NANOS = READ_TIMEOUT.toNanos() * 95 / 100;
    static final Duration WRITE_TIMEOUT = Duration.ofSeconds(2);
    static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);
    /** How long {@link #close()} waits for the client to let go of a server that may be gone. */
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final ClusterConfig cluster;
    private final Duration timeToLive;
    private final long heapEntries;
    private final long serverMegabytes;

    private final Object connectLock = new Object();
    private CacheManager manager; // guarded by connectLock
    private volatile Cache<String, String> cache;
    private volatile boolean closed;

    /**
     * @param timeout     the longest idle timeout of an entry ({@link SessionTimeouts#longest()}); entries are stored
     *                    {@link ClusterBinding#storedFor} it, and each kind's binding counts live for its own
     * @param maxEntries  {@code wdisp/HTTP/max_session_tab_entries}: sizes the server-side pool
     * @param heapEntries {@code SessionTable.heap_entries}: the heap tier holds at most {@link #MAX_HEAP_ENTRIES}
     */
    TerracottaBindingStore(ClusterConfig cluster, Duration timeout, long maxEntries, long heapEntries) {
        this.cluster = cluster;
        this.timeToLive = Duration.ofMillis(ClusterBinding.storedFor(timeout.toMillis()));
        this.heapEntries = Math.max(1, Math.min(heapEntries, Math.min(maxEntries, MAX_HEAP_ENTRIES)));
        this.serverMegabytes = Math.max(MIN_SERVER_MEGABYTES,
                (maxEntries * SERVER_BYTES_PER_ENTRY + (1 << 20) - 1) >> 20);
    }

    @Override
    public void connect() {
        synchronized (connectLock) {
            if (cache != null || closed) {
                return;
            }
            CacheManager candidate = CacheManagerBuilder.newCacheManagerBuilder()
                    .with(ClusteringServiceConfigurationBuilder.cluster(cluster.uri())
                            .timeouts(TimeoutsBuilder.timeouts().read(READ_TIMEOUT).write(WRITE_TIMEOUT)
                                    .connection(CONNECTION_TIMEOUT))
                            .autoCreateOnReconnect(server -> server.defaultServerResource(SERVER_RESOURCE)))
                    .withCache(ALIAS, CacheConfigurationBuilder
                            .newCacheConfigurationBuilder(String.class, String.class,
                                    ResourcePoolsBuilder.newResourcePoolsBuilder()
                                            .heap(heapEntries, EntryUnit.ENTRIES)
                                            .with(ClusteredResourcePoolBuilder.clusteredDedicated(
                                                    SERVER_RESOURCE, serverMegabytes, MemoryUnit.MB)))
                            .withService(ClusteredStoreConfigurationBuilder.withConsistency(Consistency.STRONG))
                            .withExpiry(ExpiryPolicyBuilder.timeToLiveExpiration(timeToLive))
                            .withResilienceStrategy(new Rethrowing()))
                    .build(false);
            try {
                candidate.init();
            } catch (RuntimeException e) {
                closeQuietly(candidate);
                throw new UnavailableException("cannot connect to " + cluster + ": " + rootCause(e), e);
            }
            manager = candidate;
            cache = candidate.getCache(ALIAS, String.class, String.class);
            LOG.info("Session table cluster {}: connected; {} MB of the server's '{}' resource, {} entries on the "
                    + "heap, entries kept {} after their last write", cluster, serverMegabytes, SERVER_RESOURCE,
                    heapEntries, timeToLive);
        }
    }

    @Override
    public String get(String key) {
        long start = System.nanoTime();
        try {
            String value = cache().get(key);
            // Ehcache answers a read that timed out as a miss; a miss that took the whole read timeout is one.
            if (value == null && System.nanoTime() - start >= READ_TIMEOUT_NANOS) {
                throw new UnavailableException("session table cluster: a read timed out after " + READ_TIMEOUT,
                        null);
            }
            return value;
        } catch (UnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            // Closed meanwhile (IllegalStateException), or a failure that bypassed the resilience strategy.
            throw new UnavailableException("session table cluster: " + rootCause(e), e);
        }
    }

    @Override
    public String putIfAbsent(String key, String value) {
        try {
            return cache().putIfAbsent(key, value);
        } catch (UnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            // Closed meanwhile (IllegalStateException), or a failure that bypassed the resilience strategy.
            throw new UnavailableException("session table cluster: " + rootCause(e), e);
        }
    }

    @Override
    public boolean replace(String key, String expected, String value) {
        try {
            return cache().replace(key, expected, value);
        } catch (UnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            // Closed meanwhile (IllegalStateException), or a failure that bypassed the resilience strategy.
            throw new UnavailableException("session table cluster: " + rootCause(e), e);
        }
    }

    private Cache<String, String> cache() {
        Cache<String, String> current = cache;
        if (current == null) {
            throw new UnavailableException("not connected to " + cluster, null);
        }
        return current;
    }

    /**
     * Ehcache's client reconnects by itself after a loss, but not always: seen here, after a server restart the
     * client's own reconnection can end without a connection and without a word. The table then calls this,
     * and {@link #connect()} builds a new client.
     */
    @Override
    public void disconnect() {
        CacheManager toClose;
        synchronized (connectLock) {
            cache = null;
            toClose = manager;
            manager = null;
        }
        closeBounded(toClose);
    }

    /** Lets go of the server. */
    @Override
    public void close() {
        CacheManager toClose;
        synchronized (connectLock) {
            closed = true;
            cache = null;
            toClose = manager;
            manager = null;
        }
        closeBounded(toClose);
    }

    /**
     * The client's close can wait long on a server that is gone, so it runs on its own thread and is given up
     * after {@link #CLOSE_TIMEOUT}.
     */
    private void closeBounded(CacheManager toClose) {
        closeBounded(toClose, cluster);
    }

    /** As {@link #closeBounded(CacheManager)}, for any client of {@code cluster} (the operator's shared state too). */
    static void closeBounded(CacheManager toClose, Object cluster) {
        if (toClose == null) {
            return;
        }
        Thread closer = new Thread(() -> closeQuietly(toClose), "jwd-session-table-cluster-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(CLOSE_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            LOG.warn("Session table cluster {}: the connection did not close within {}; left behind", cluster,
                    CLOSE_TIMEOUT);
        }
    }

    private static void closeQuietly(CacheManager manager) {
        try {
            manager.close();
        } catch (RuntimeException e) {
            LOG.debug("Closing the session table cluster's cache manager failed", e);
        }
    }

    static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
    }

    @Override
    public String toString() {
        return "TerracottaBindingStore[" + cluster + ", " + serverMegabytes + " MB of '" + SERVER_RESOURCE + "']";
    }

    /** Every failure of the clustered tier (timeout, reconnect in progress, server gone) reaches the table. */
    static final class Rethrowing implements ResilienceStrategy<String, String> {
        private static UnavailableException unavailable(StoreAccessException e) {
            return new UnavailableException("session table cluster unavailable: " + rootCause(e), e);
        }

        @Override
        public String getFailure(String key, StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public boolean containsKeyFailure(String key, StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public void putFailure(String key, String value, StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public void removeFailure(String key, StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public void clearFailure(StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public Cache.Entry<String, String> iteratorFailure(StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public String putIfAbsentFailure(String key, String value, StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public boolean removeFailure(String key, String value, StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public String replaceFailure(String key, String value, StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public boolean replaceFailure(String key, String value, String newValue, StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public Map<String, String> getAllFailure(Iterable<? extends String> keys, StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public void putAllFailure(Map<? extends String, ? extends String> entries, StoreAccessException e) {
            throw unavailable(e);
        }

        @Override
        public void removeAllFailure(Iterable<? extends String> keys, StoreAccessException e) {
            throw unavailable(e);
        }
    }
}
