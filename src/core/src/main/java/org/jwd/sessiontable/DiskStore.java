package org.jwd.sessiontable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.MemoryUnit;
import org.ehcache.expiry.ExpiryPolicy;

/**
 * One generation of the persistent tier, open: an Ehcache disk store (a single persistent disk tier) of session
 * id -> {@link ClusterBinding} ({@code "server|last use"}, epoch milliseconds). Ehcache expires each entry when its
 * idle time runs out, counted from the last use the value carries, so what a flush writes needs no sweep on disk.
 * Opened for a restore or a flush, and closed at once: only a closed store survives a crash.
 */
final class DiskStore implements AutoCloseable {
    static final String ALIAS = "jwd-session-table-disk";
    /**
     * Disk bytes allowed per entry of the table. An entry takes about 250 bytes with 40-character ids, but Ehcache
     * splits the store into segments of equal size and evicts from a full one: the margin keeps an unlucky segment
     * from evicting (seen with 512 bytes at 100,000 entries). The file grows with what it holds, not to this bound.
     */
    static final long BYTES_PER_ENTRY = 1024;
    private static final long MIN_MEGABYTES = 16;

    private final CacheManager manager;
    private final Cache<String, String> cache;

    /**
     * @param generation the generation's directory
     * @param maxEntries {@code wdisp/HTTP/max_session_tab_entries}: sizes the disk tier
     * @param timeouts   the idle timeouts by kind of entry
     * @param clockMillis epoch milliseconds for Ehcache's expiry, or {@code null} for the system clock
     */
    DiskStore(Path generation, long maxEntries, Supplier<SessionTimeouts> timeouts, LongSupplier clockMillis) {
        long megabytes = megabytesFor(maxEntries);
        LongSupplier clock = clockMillis != null ? clockMillis : System::currentTimeMillis;
        this.manager = new EhcacheInternals(clockMillis).cacheManagerBuilder()
                .with(CacheManagerBuilder.persistence(generation.toFile()))
                .withCache(ALIAS, CacheConfigurationBuilder.newCacheConfigurationBuilder(String.class, String.class,
                                ResourcePoolsBuilder.newResourcePoolsBuilder().disk(megabytes, MemoryUnit.MB, true))
                        .withExpiry(new LastUseExpiry(timeouts, clock)))
                .build(true);
        this.cache = manager.getCache(ALIAS, String.class, String.class);
    }

    /** The disk tier's size for a table of {@code maxEntries}: {@link #BYTES_PER_ENTRY} each, at least 16 MB. */
    static long megabytesFor(long maxEntries) {
        return Math.max(MIN_MEGABYTES, (maxEntries * BYTES_PER_ENTRY + (1 << 20) - 1) >> 20);
    }

    /**
     * Every binding on disk that is still live, in no order.
     *
     * @param keep told each one; {@code false} for a binding that must go (a server no longer configured, or
     *             unreadable): it is removed from this generation
     */
    void read(BiPredicate<String, ClusterBinding> keep) {
        for (Cache.Entry<String, String> entry : cache) {
            ClusterBinding binding = ClusterBinding.decode(entry.getValue());
            if (binding == null || !keep.test(entry.getKey(), binding)) {
                cache.remove(entry.getKey());
            }
        }
    }

    /** Writes the last uses since the previous flush. */
    void write(Map<String, ClusterBinding> uses) {
        for (Map.Entry<String, ClusterBinding> use : uses.entrySet()) {
            cache.put(use.getKey(), use.getValue().encode());
        }
    }

    @Override
    public void close() {
        manager.close();
    }

    /** Idle time counted from the last use that the value carries, not from the write. */
    private static final class LastUseExpiry implements ExpiryPolicy<String, String> {
        private final Supplier<SessionTimeouts> timeouts;
        private final LongSupplier clock;

        LastUseExpiry(Supplier<SessionTimeouts> timeouts, LongSupplier clock) {
            this.timeouts = timeouts;
            this.clock = clock;
        }

        private Duration remaining(String key, String value) {
            ClusterBinding binding = ClusterBinding.decode(value);
            if (binding == null) {
                return Duration.ZERO;
            }
            long left = timeouts.get().forKey(key).toMillis() - (clock.getAsLong() - binding.stampMillis());
            return left > 0 ? Duration.ofMillis(left) : Duration.ZERO;
        }

        @Override
        public Duration getExpiryForCreation(String key, String value) {
            return remaining(key, value);
        }

        @Override
        public Duration getExpiryForAccess(String key, Supplier<? extends String> value) {
            return null;
        }

        @Override
        public Duration getExpiryForUpdate(String key, Supplier<? extends String> oldValue, String newValue) {
            return remaining(key, newValue);
        }
    }
}
