package org.jwd.affinity;

import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.config.units.EntryUnit;
import org.ehcache.config.units.MemoryUnit;
import org.ehcache.core.internal.statistics.DefaultStatisticsService;
import org.ehcache.core.statistics.TierStatistics;
import org.ehcache.expiry.ExpiryPolicy;
import org.ehcache.impl.internal.TimeSourceConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session table in an Ehcache 3 cache configured in code: session id -> server id, each entry expiring
 * after its kind's idle timeout ({@link SessionTimeouts}: {@code wdisp/HTTP/context_timeout} for ESIDs,
 * {@code SessionTableTimeout} or {@code context_timeout} for JSESSIONIDs) without a lookup, bind or rebind
 * (time-to-idle). The only class of jwd that uses Ehcache.
 *
 * <h2>Storage: one tier, on heap or off heap</h2>
 * <ul>
 *   <li><b>Heap</b> ({@code offHeapMegabytes == 0}): a heap tier of {@code min(maxEntries, heapEntries)} entries.
 *       Values are shared {@code String} instances (one per server), so an entry costs its key, Ehcache's
 *       value holder and a map node; see the benchmark for the measured bytes per entry.</li>
 *   <li><b>Off heap</b> ({@code offHeapMegabytes > 0}): a single off-heap tier of that size, and no heap tier:
 *       the Java heap holds no entry at all; {@code heapEntries} is not used. Needs
 *       {@code -XX:MaxDirectMemorySize} above that size. Lookups deserialize the value; it is mapped back
 *       to the shared server-id instance.<br>
 *       Why no heap tier in front: in Ehcache 3 a hit in the heap tier refreshes the idle time of the heap copy
 *       only, while {@code putIfAbsent}/{@code replace} go to the off-heap (authoritative) tier, whose copy
 *       then looks expired although the session is busy: a bind would overwrite a live binding and a sweep
 *       would expire it. A single tier has one idle time per entry, so first-binding-wins holds.</li>
 * </ul>
 *
 * <h2>A full table never fails a request</h2>
 * At most {@link #capacity()} entries are stored. When that many are live, a new binding is <em>not</em>
 * stored: {@link #bind} returns the requested server (the caller balances, as without a table) and counts it in
 * {@code rejected}. Existing entries are never evicted to make room, so idle-but-valid sessions keep their
 * server. The count is {@code insertions - expirations - evictions}: insertions is an {@link AtomicLong}
 * reserved before each {@code putIfAbsent} (so the bound is exact under concurrency), expirations and
 * evictions are Ehcache's own tier statistics (Ehcache has no {@code size()}). The heap tier is sized to the
 * bound, so Ehcache never evicts; an off-heap tier too small for {@code maxEntries} does evict (counted in
 * {@link #evictions()}, warned about at start and when it happens).
 *
 * <h2>Expiry</h2>
 * Ehcache notices that an entry expired only when it is touched, so an idle entry stays counted until then.
 * {@link #sweep()} walks the table and removes what expired; it runs every {@code sweepInterval} on a daemon
 * thread when one is given, and whenever a bind finds the table full (at most once a second).
 * {@code expirations} counts entries removed after {@code SessionTableTimeout} of inactivity, whoever
 * noticed. (Ehcache 3.11 delivers even synchronous {@code CacheEventListener}s through an executor and waits
 * for it on every put; its tier statistics count the same expirations without that cost.)
 */
public final class EhcacheSessionTable implements SessionTable {

    private static final Logger LOG = LoggerFactory.getLogger(EhcacheSessionTable.class);

    static final String ALIAS = "jwd-session-table";
    /**
     * Off-heap bytes one entry needs, measured with 32-40 character session ids
     * ({@code SessionTableBenchmark.main}); used to warn when {@code SessionTable.offheap_MB} is too small.
     */
    public static final long OFF_HEAP_BYTES_PER_ENTRY = 160;
    /** A full table sweeps at most this often (clock time) to make room. */
    static final long MIN_SWEEP_GAP_MILLIS = 1_000;
    /** A full table warns at most this often. */
    static final long FULL_WARNING_GAP_MILLIS = 5 * 60_000;
    private static final int MAX_SHARED_SERVER_IDS = 10_000;

    /** The idle timeouts; a reload may change them ({@link #changeTimeouts}), read by the expiry policy. */
    private volatile SessionTimeouts timeouts;
    /** Set while {@link #peek} reads: the read then leaves the entry's idle time as it is. */
    private static final ThreadLocal<Boolean> PEEKING = new ThreadLocal<>();
    private final long capacity;
    private final boolean offHeap;
    private final long offHeapMegabytes;
    private final LongSupplier clock;
    private final CacheManager cacheManager;
    private final Cache<String, String> cache;
    private final TierStatistics tier;
    private final ScheduledExecutorService sweeper;

    /** Entries ever inserted (including reservations in flight); live = inserted - expired - evicted. */
    private final AtomicLong inserted = new AtomicLong();
    /** The last read of expired + evicted: a lower bound, so fullness estimates from it are conservative. */
    private volatile long removedSeen;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder bindings = new LongAdder();
    private final LongAdder rebindings = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final ConcurrentHashMap<String, String> serverIds = new ConcurrentHashMap<>();

    private final ReentrantLock sweepLock = new ReentrantLock();
    private final AtomicBoolean sweepRequested = new AtomicBoolean();
    private volatile long lastSweepMillis = Long.MIN_VALUE / 2;
    private final AtomicLong lastFullWarningMillis = new AtomicLong(Long.MIN_VALUE / 2);
    private volatile long evictionsLogged;
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile boolean closed;

    /**
     * A table with Ehcache's system clock and no background sweeping.
     *
     * @see #EhcacheSessionTable(Duration, long, long, long, LongSupplier, Duration)
     */
    public EhcacheSessionTable(Duration timeout, long maxEntries, long heapEntries, long offHeapMegabytes) {
        this(SessionTimeouts.both(timeout), maxEntries, heapEntries, offHeapMegabytes, null, null);
    }

    /** A table whose entries all idle-expire after {@code timeout}. */
    public EhcacheSessionTable(Duration timeout, long maxEntries, long heapEntries, long offHeapMegabytes,
                               LongSupplier clockMillis, Duration sweepInterval) {
        this(SessionTimeouts.both(timeout), maxEntries, heapEntries, offHeapMegabytes, clockMillis, sweepInterval);
    }

    /**
     * @param timeouts         idle time after which an entry expires, by its kind
     * @param maxEntries       most entries stored ({@code wdisp/HTTP/max_session_tab_entries})
     * @param heapEntries      heap tier size in entries when on heap ({@code SessionTable.heap_entries}); the
     *                         table then holds {@code min(maxEntries, heapEntries)}; unused off heap
     * @param offHeapMegabytes {@code 0}: on heap; else the size of the single off-heap tier
     *                         ({@code SessionTable.offheap_MB})
     * @param clockMillis      the clock in epoch milliseconds Ehcache's expiry and the sweeps use, or
     *                         {@code null} for the system clock; tests move it by hand
     * @param sweepInterval    how often a daemon thread sweeps expired entries, or {@code null}/zero for none
     *                         (then only full-table binds, touches and {@link #sweep()} remove them)
     */
    public EhcacheSessionTable(SessionTimeouts timeouts, long maxEntries, long heapEntries, long offHeapMegabytes,
                               LongSupplier clockMillis, Duration sweepInterval) {
        Objects.requireNonNull(timeouts, "timeouts");
        if (maxEntries < 1 || heapEntries < 1 || offHeapMegabytes < 0) {
            throw new IllegalArgumentException("session table sizes: maxEntries " + maxEntries
                    + ", heapEntries " + heapEntries + ", offHeapMegabytes " + offHeapMegabytes);
        }
        this.timeouts = timeouts;
        this.offHeap = offHeapMegabytes > 0;
        this.offHeapMegabytes = offHeapMegabytes;
        this.capacity = offHeap ? maxEntries : Math.min(maxEntries, heapEntries);
        this.clock = clockMillis != null ? clockMillis : System::currentTimeMillis;

        ResourcePoolsBuilder pools = offHeap
                ? ResourcePoolsBuilder.newResourcePoolsBuilder().offheap(offHeapMegabytes, MemoryUnit.MB)
                : ResourcePoolsBuilder.newResourcePoolsBuilder().heap(capacity, EntryUnit.ENTRIES);
        DefaultStatisticsService statistics = new DefaultStatisticsService();
        CacheManagerBuilder<CacheManager> builder = CacheManagerBuilder.newCacheManagerBuilder().using(statistics);
        if (clockMillis != null) {
            builder = builder.using(new TimeSourceConfiguration(clockMillis::getAsLong));
        }
        this.cacheManager = builder
                .withCache(ALIAS, CacheConfigurationBuilder
                        .newCacheConfigurationBuilder(String.class, String.class, pools)
                        .withExpiry(new IdleExpiry()))
                .build(true);
        this.cache = cacheManager.getCache(ALIAS, String.class, String.class);
        this.tier = statistics.getCacheStatistics(ALIAS).getTierStatistics().values().iterator().next();

        if (offHeap) {
            long fits = (offHeapMegabytes << 20) / OFF_HEAP_BYTES_PER_ENTRY;
            LOG.info("Session table off heap: {} MB, idle timeout {}, at most {} entries",
                    offHeapMegabytes, timeouts, capacity);
            if (fits < maxEntries) {
                LOG.warn("Session table: {} MB off heap hold about {} entries, fewer than the {} allowed "
                                + "(wdisp/HTTP/max_session_tab_entries); idle sessions will be evicted. "
                                + "SessionTable.offheap_MB of about {} avoids that",
                        offHeapMegabytes, fits, maxEntries, (maxEntries * OFF_HEAP_BYTES_PER_ENTRY >> 20) + 1);
            }
        } else {
            LOG.info("Session table on heap: idle timeout {}, at most {} entries", timeouts, capacity);
            if (heapEntries < maxEntries) {
                LOG.info("Session table holds {} entries (SessionTable.heap_entries) rather than {} "
                        + "(wdisp/HTTP/max_session_tab_entries): it has no off-heap tier", heapEntries, maxEntries);
            }
        }

        if (sweepInterval != null && !sweepInterval.isZero() && !sweepInterval.isNegative()) {
            this.sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "jwd-session-table-sweeper");
                thread.setDaemon(true);
                return thread;
            });
            long millis = Math.max(1, sweepInterval.toMillis());
            sweeper.scheduleWithFixedDelay(this::sweepQuietly, millis, millis, TimeUnit.MILLISECONDS);
        } else {
            this.sweeper = null;
        }
    }

    @Override
    public String lookup(String sessionId) {
        if (sessionId == null || closed) {
            return null;
        }
        String server;
        try {
            server = cache.get(sessionId);
        } catch (IllegalStateException closedMeanwhile) {
            return null;
        }
        if (server == null) {
            misses.increment();
            return null;
        }
        hits.increment();
        return offHeap ? shared(server) : server;
    }

    @Override
    public void touch(String sessionId) {
        if (sessionId == null || closed) {
            return;
        }
        try {
            cache.get(sessionId);
        } catch (IllegalStateException closedMeanwhile) {
            // closing: nothing to renew
        }
    }

    /** As {@link #lookup}, without counting and without renewing the entry's idle time. */
    @Override
    public String peek(String sessionId) {
        if (sessionId == null || closed) {
            return null;
        }
        PEEKING.set(Boolean.TRUE);
        try {
            String server = cache.get(sessionId);
            return server == null ? null : shared(server);
        } catch (IllegalStateException closedMeanwhile) {
            return null;
        } finally {
            PEEKING.remove();
        }
    }

    /**
     * Whether a new binding would be refused now: the live entries fill the capacity. Two volatile reads while the
     * table has room; when it looks full, the removals are counted again and, at most once a second, a sweep makes
     * room, exactly as a bind would.
     */
    @Override
    public boolean isFull() {
        if (closed || inserted.get() - removedSeen < capacity) {
            return false;
        }
        if (inserted.get() - refreshRemoved() < capacity) {
            return false;
        }
        return !(sweepForRoom() && inserted.get() - refreshRemoved() < capacity);
    }

    @Override
    public String bind(String sessionId, String serverId) {
        String server = shared(Objects.requireNonNull(serverId, "serverId"));
        if (sessionId == null || closed) {
            return server;
        }
        try {
            // Most binds of a known id come from servers repeating its Set-Cookie: a read (lock-free on heap,
            // and it renews the idle time as putIfAbsent would) answers them without taking a slot and the
            // map's lock, which every response carrying the same id would otherwise contend for.
            String bound = cache.get(sessionId);
            if (bound != null) {
                return shared(bound);
            }
            if (!reserve()) {
                if (!(sweepForRoom() && reserve())) {
                    rejected.increment();
                    warnFull();
                    return server;
                }
            }
            String previous = cache.putIfAbsent(sessionId, server);
            if (previous == null) {
                bindings.increment();
                return server;
            }
            inserted.decrementAndGet();
            return shared(previous);
        } catch (IllegalStateException closedMeanwhile) {
            return server;
        }
    }

    @Override
    public String rebind(String sessionId, String expectedServerId, String newServerId) {
        String server = shared(Objects.requireNonNull(newServerId, "newServerId"));
        if (sessionId == null || closed) {
            return server;
        }
        try {
            if (expectedServerId != null && cache.replace(sessionId, expectedServerId, server)) {
                rebindings.increment();
                return server;
            }
            String bound = cache.get(sessionId);
            if (bound != null) {
                return shared(bound);
            }
        } catch (IllegalStateException closedMeanwhile) {
            return server;
        }
        return bind(sessionId, server);
    }

    @Override
    public SessionTableStats stats() {
        long expirations = tier.getExpirations();
        long removed = expirations + tier.getEvictions();
        return new SessionTableStats(Math.max(0, inserted.get() - removed), hits.sum(), misses.sum(),
                bindings.sum(), rebindings.sum(), expirations, rejected.sum());
    }

    /** Entries Ehcache evicted because the off-heap tier was full (always 0 on heap). */
    public long evictions() {
        return tier.getEvictions();
    }

    /** The most entries this table stores: {@code maxEntries}, or {@code min(maxEntries, heapEntries)} on heap. */
    public long capacity() {
        return capacity;
    }

    /** Is the table kept off heap? */
    public boolean offHeap() {
        return offHeap;
    }

    public SessionTimeouts timeouts() {
        return timeouts;
    }

    @Override
    public boolean canChangeTimeout() {
        return true;
    }

    /**
     * Reloaded timeouts ({@code SessionTableTimeout}, {@code wdisp/HTTP/context_timeout}); no binding is dropped
     * by the change itself. New entries get them at once. An existing entry gets its kind's from its next use,
     * but Ehcache never brings a deadline forward: with a shorter timeout an entry keeps at least the deadline its
     * last use under the old timeout gave it; a longer one extends it at its next use.
     */
    @Override
    public void changeTimeouts(SessionTimeouts next) {
        SessionTimeouts before = timeouts;
        timeouts = Objects.requireNonNull(next, "timeouts");
        LOG.info("Session table: idle timeout {} (was {}), for each entry from its next use", next, before);
    }

    /**
     * Time to idle, as {@code ExpiryPolicyBuilder.timeToIdleExpiration}, but with the timeout of the entry's kind in
     * force at each use, so that a reload can change it without a new cache (which would lose the bindings). A
     * {@link #peek} leaves the idle time alone ({@code null}: Ehcache keeps the expiry as it is).
     */
    private final class IdleExpiry implements ExpiryPolicy<String, String> {
        @Override
        public Duration getExpiryForCreation(String key, String value) {
            return timeouts.forKey(key);
        }

        @Override
        public Duration getExpiryForAccess(String key, Supplier<? extends String> value) {
            return PEEKING.get() != null ? null : timeouts.forKey(key);
        }

        @Override
        public Duration getExpiryForUpdate(String key, Supplier<? extends String> oldValue, String newValue) {
            return timeouts.forKey(key);
        }
    }

    /**
     * Walks the table and removes the entries idle past the timeout (Ehcache otherwise notices expiry only when
     * an entry is touched), so that {@code entries} and {@code expirations} are current and their room is free.
     * Concurrent lookups and binds go on meanwhile.
     *
     * @return how many entries expired while it ran
     */
    public long sweep() {
        sweepLock.lock();
        try {
            return sweepLocked();
        } finally {
            sweepLock.unlock();
        }
    }

    private long sweepLocked() {
        if (closed) {
            return 0;
        }
        long before = tier.getExpirations();
        lastSweepMillis = clock.getAsLong();
        long live = 0;
        Iterator<Cache.Entry<String, String>> entries = cache.iterator();
        while (!closed && entries.hasNext()) {
            Cache.Entry<String, String> entry = entries.next();
            // On heap, the iterator itself expires what it passes; off heap it does not, but containsKey does
            // (without refreshing the idle time, unlike get).
            if (!offHeap || cache.containsKey(entry.getKey())) {
                live++;
            }
        }
        long expired = tier.getExpirations() - before;
        refreshRemoved();
        long evictions = tier.getEvictions();
        if (evictions > evictionsLogged) {
            LOG.warn("Session table: {} sessions evicted so far because {} MB off heap are full; raise "
                    + "SessionTable.offheap_MB", evictions, offHeapMegabytes);
            evictionsLogged = evictions;
        }
        LOG.debug("Session table sweep: {} live entries, {} expired", live, expired);
        return expired;
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.warn("Session table sweep failed", e);
            }
        }
    }

    /**
     * The table looks full: sweep for room, unless one ran within {@link #MIN_SWEEP_GAP_MILLIS}. With a sweeper
     * thread the sweep is handed to it and this bind does not wait.
     *
     * @return whether a sweep ran here (then the caller tries to reserve again)
     */
    private boolean sweepForRoom() {
        if (clock.getAsLong() - lastSweepMillis < MIN_SWEEP_GAP_MILLIS) {
            return false;
        }
        if (sweeper != null) {
            if (sweepRequested.compareAndSet(false, true)) {
                try {
                    sweeper.execute(() -> {
                        sweepRequested.set(false);
                        sweepQuietly();
                    });
                } catch (RuntimeException rejectedAfterClose) {
                    sweepRequested.set(false);
                }
            }
            return false;
        }
        if (!sweepLock.tryLock()) {
            return false;
        }
        try {
            sweepLocked();
            return true;
        } finally {
            sweepLock.unlock();
        }
    }

    /** A full table is worth a warning, but not one per request: at most one every {@link #FULL_WARNING_GAP_MILLIS}. */
    private void warnFull() {
        long now = clock.getAsLong();
        long last = lastFullWarningMillis.get();
        if (now - last >= FULL_WARNING_GAP_MILLIS && lastFullWarningMillis.compareAndSet(last, now)) {
            LOG.warn("Session table full ({} entries, {} bindings refused so far): requests it does not hold go to "
                    + "their group's default server until entries expire", capacity, rejected.sum());
        }
    }

    /** Takes one slot of the capacity, unless the table is full. */
    private boolean reserve() {
        while (true) {
            long current = inserted.get();
            if (current - removedSeen >= capacity && current - refreshRemoved() >= capacity) {
                return false;
            }
            if (inserted.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    private long refreshRemoved() {
        long removed = tier.getExpirations() + tier.getEvictions();
        removedSeen = removed;
        return removed;
    }

    /** The one shared instance of a server id, so that a million entries share a few value objects. */
    private String shared(String serverId) {
        String shared = serverIds.get(serverId);
        if (shared != null) {
            return shared;
        }
        if (serverIds.size() >= MAX_SHARED_SERVER_IDS) {
            return serverId;
        }
        shared = serverIds.putIfAbsent(serverId, serverId);
        return shared != null ? shared : serverId;
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed = true;
        if (sweeper != null) {
            sweeper.shutdownNow();
        }
        sweepLock.lock();
        try {
            cacheManager.close();
        } finally {
            sweepLock.unlock();
        }
    }

    @Override
    public String toString() {
        return "EhcacheSessionTable[" + (offHeap ? "off heap" : "heap") + ", timeout " + timeouts
                + ", capacity " + capacity + ", " + stats() + "]";
    }
}
