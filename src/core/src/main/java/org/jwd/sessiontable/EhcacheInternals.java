package org.jwd.sessiontable;

import java.util.function.LongSupplier;

import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.core.internal.statistics.DefaultStatisticsService;
import org.ehcache.core.statistics.TierStatistics;
import org.ehcache.impl.internal.TimeSourceConfiguration;

/**
 * The things the session table needs that Ehcache 3 offers only in its {@code internal} packages, kept in this
 * one class so that an upgrade that moves them breaks here alone ({@code EhcacheInternalsTest} proves them):
 * <ul>
 *   <li>a clock of jwd's choosing ({@code TimeSourceConfiguration}): tests move it by hand, and expiry follows;</li>
 *   <li>the tier's expiration and eviction counts ({@code DefaultStatisticsService}): Ehcache has no
 *       {@code size()}, so the table counts its live entries as insertions minus these;</li>
 *   <li>an entry's expiration time (the cache's {@code Store} and its value holder): the admin's session lookup
 *       says how long a binding stays idle.</li>
 * </ul>
 */
final class EhcacheInternals {

    /** Entries one cache tier removed, as Ehcache counts them. */
    interface TierCounters {
        /** Entries removed because they were idle past their timeout. */
        long expirations();

        /** Entries removed to make room in a full tier. */
        long evictions();
    }

    private final DefaultStatisticsService statistics = new DefaultStatisticsService();
    private final LongSupplier clockMillis;

    /** @param clockMillis epoch milliseconds for expiry, or {@code null} for Ehcache's system clock */
    EhcacheInternals(LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
    }

    /**
     * When {@code key}'s entry expires (epoch milliseconds of the cache's clock), or {@code -1} when there is none or
     * it does not expire. Read through the cache's store, which Ehcache keeps in a protected field of its cache; the
     * caller reads inside {@link IdleExpiry#peeking} so that the read renews nothing.
     */
    @SuppressWarnings("unchecked")
    static long expirationTime(org.ehcache.Cache<String, String> cache, String key) {
        try {
            java.lang.reflect.Field field = org.ehcache.core.EhcacheBase.class.getDeclaredField("store");
            field.setAccessible(true);
            org.ehcache.core.spi.store.Store<String, String> store =
                    (org.ehcache.core.spi.store.Store<String, String>) field.get(cache);
            org.ehcache.core.spi.store.Store.ValueHolder<String> holder = store.get(key);
            return holder == null || holder.expirationTime() == org.ehcache.core.spi.store.Store.ValueHolder.NO_EXPIRE
                    ? -1 : holder.expirationTime();
        } catch (ReflectiveOperationException | org.ehcache.spi.resilience.StoreAccessException e) {
            throw new IllegalStateException("Ehcache " + cache.getClass().getName() + " keeps its store elsewhere: "
                    + e, e);
        }
    }

    /** A cache manager builder that keeps statistics and, when one was given, runs on the clock. */
    CacheManagerBuilder<CacheManager> cacheManagerBuilder() {
        CacheManagerBuilder<CacheManager> builder = CacheManagerBuilder.newCacheManagerBuilder().using(statistics);
        return clockMillis == null ? builder : builder.using(new TimeSourceConfiguration(clockMillis::getAsLong));
    }

    /** The counters of the single tier of cache {@code alias}, once its manager built from here is initialized. */
    TierCounters tierCounters(String alias) {
        TierStatistics tier = statistics.getCacheStatistics(alias).getTierStatistics().values().iterator().next();
        return new TierCounters() {
            @Override
            public long expirations() {
                return tier.getExpirations();
            }

            @Override
            public long evictions() {
                return tier.getEvictions();
            }
        };
    }
}
