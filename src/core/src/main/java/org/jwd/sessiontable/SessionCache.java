package org.jwd.sessiontable;

import java.util.function.LongSupplier;

import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.EntryUnit;
import org.ehcache.config.units.MemoryUnit;

/**
 * The Ehcache cache behind {@link EhcacheSessionTable}, configured in code: one tier, on heap
 * ({@code heapEntries} entries) or, with {@code offHeapMegabytes > 0}, off heap and no heap tier (the table's
 * Javadoc says why), expiring by {@link IdleExpiry}, with its tier's counters.
 */
final class SessionCache implements AutoCloseable {
    static final String ALIAS = "jwd-session-table";

    private final CacheManager manager;
    private final Cache<String, String> cache;
    private final EhcacheInternals.TierCounters counters;

    /**
     * @param heapEntries      the heap tier's size, when on heap
     * @param offHeapMegabytes {@code 0}: on heap; else the off-heap tier's size
     * @param clockMillis      epoch milliseconds for expiry, or {@code null} for the system clock
     */
    SessionCache(long heapEntries, long offHeapMegabytes, IdleExpiry expiry, LongSupplier clockMillis) {
        ResourcePoolsBuilder pools = offHeapMegabytes > 0
                ? ResourcePoolsBuilder.newResourcePoolsBuilder().offheap(offHeapMegabytes, MemoryUnit.MB)
                : ResourcePoolsBuilder.newResourcePoolsBuilder().heap(heapEntries, EntryUnit.ENTRIES);
        EhcacheInternals internals = new EhcacheInternals(clockMillis);
        this.manager = internals.cacheManagerBuilder()
                .withCache(ALIAS, CacheConfigurationBuilder
                        .newCacheConfigurationBuilder(String.class, String.class, pools)
                        .withExpiry(expiry))
                .build(true);
        this.cache = manager.getCache(ALIAS, String.class, String.class);
        this.counters = internals.tierCounters(ALIAS);
    }

    Cache<String, String> cache() {
        return cache;
    }

    EhcacheInternals.TierCounters counters() {
        return counters;
    }

    /** Entries the store removed: what {@link CapacityAccounting} subtracts from its insertions. */
    long removed() {
        return counters.expirations() + counters.evictions();
    }

    @Override
    public void close() {
        manager.close();
    }
}
