package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.ExpiryPolicyBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.EntryUnit;
import org.ehcache.config.units.MemoryUnit;
import org.junit.jupiter.api.Test;

/**
 * What the session table relies on in Ehcache's internal packages, through {@link EhcacheInternals}: if an upgrade
 * ignores the clock or stops counting expirations and evictions per tier, these fail before the table misbehaves.
 */
class EhcacheInternalsTest {

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

    @Test
    void expiryFollowsTheClockGivenAndTheTierCountsTheExpiration() {
        EhcacheInternals internals = new EhcacheInternals(clock::get);
        try (CacheManager manager = internals.cacheManagerBuilder()
                .withCache("c", CacheConfigurationBuilder.newCacheConfigurationBuilder(String.class, String.class,
                                ResourcePoolsBuilder.newResourcePoolsBuilder().heap(10, EntryUnit.ENTRIES))
                        .withExpiry(ExpiryPolicyBuilder.timeToIdleExpiration(Duration.ofMinutes(1))))
                .build(true)) {
            Cache<String, String> cache = manager.getCache("c", String.class, String.class);
            EhcacheInternals.TierCounters counters = internals.tierCounters("c");
            cache.put("k", "v");
            clock.addAndGet(Duration.ofSeconds(59).toMillis());
            assertThat(cache.get("k")).as("idle 59 s of 60 by the moved clock").isEqualTo("v");
            clock.addAndGet(Duration.ofSeconds(60).toMillis());
            assertThat(cache.get("k")).as("idle 60 s by the moved clock").isNull();
            assertThat(counters.expirations()).isEqualTo(1);
            assertThat(counters.evictions()).isZero();
        }
    }

    @Test
    void aFullOffHeapTierCountsItsEvictions() {
        EhcacheInternals internals = new EhcacheInternals(null);
        try (CacheManager manager = internals.cacheManagerBuilder()
                .withCache("c", CacheConfigurationBuilder.newCacheConfigurationBuilder(String.class, String.class,
                        ResourcePoolsBuilder.newResourcePoolsBuilder().offheap(1, MemoryUnit.MB)))
                .build(true)) {
            Cache<String, String> cache = manager.getCache("c", String.class, String.class);
            for (int i = 0; i < 40_000; i++) {
                cache.put(String.format("%032x.node1", i), "s1");
            }
            assertThat(internals.tierCounters("c").evictions()).isPositive();
            assertThat(internals.tierCounters("c").expirations()).isZero();
        }
    }

    @Test
    void anEntrysExpirationTimeIsReadWithoutRenewingIt() {
        EhcacheInternals internals = new EhcacheInternals(clock::get);
        IdleExpiry expiry = new IdleExpiry(SessionTimeouts.both(Duration.ofMinutes(1)));
        try (CacheManager manager = internals.cacheManagerBuilder()
                .withCache("c", CacheConfigurationBuilder.newCacheConfigurationBuilder(String.class, String.class,
                                ResourcePoolsBuilder.newResourcePoolsBuilder().heap(10, EntryUnit.ENTRIES))
                        .withExpiry(expiry))
                .build(true)) {
            Cache<String, String> cache = manager.getCache("c", String.class, String.class);
            long written = clock.get();
            cache.put("k", "v");
            clock.addAndGet(Duration.ofSeconds(20).toMillis());

            long expires = IdleExpiry.peeking(() -> EhcacheInternals.expirationTime(cache, "k"));
            long again = IdleExpiry.peeking(() -> EhcacheInternals.expirationTime(cache, "k"));

            assertThat(expires).isEqualTo(written + Duration.ofMinutes(1).toMillis());
            assertThat(again).as("the read renewed nothing").isEqualTo(expires);
            assertThat(IdleExpiry.peeking(() -> EhcacheInternals.expirationTime(cache, "absent"))).isEqualTo(-1);
        }
    }
}
