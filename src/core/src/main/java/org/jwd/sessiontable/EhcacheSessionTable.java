package org.jwd.sessiontable;

import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.ehcache.Cache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session table in an Ehcache 3 cache configured in code: session id -> server id, each entry expiring
 * after its kind's idle timeout ({@link SessionTimeouts}: {@code wdisp/HTTP/context_timeout} for ESIDs,
 * {@code SessionTableTimeout} or {@code context_timeout} for JSESSIONIDs) without a lookup, bind or rebind
 * (time-to-idle). It and the classes it is made of ({@link SessionCache}, {@link IdleExpiry},
 * {@link EhcacheInternals}) are the only ones of jwd that use Ehcache for the node's own table.
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
 * server. The count is {@code insertions - expirations - evictions} ({@link CapacityAccounting}: insertions
 * reserved before each {@code putIfAbsent}, so the bound is exact under concurrency; expirations and evictions
 * are Ehcache's own tier statistics, as Ehcache has no {@code size()}). The heap tier is sized to the
 * bound, so Ehcache never evicts; an off-heap tier too small for {@code maxEntries} does evict (counted in
 * {@link #evictions()}, warned about at start and when it happens).
 *
 * <h2>Expiry</h2>
 * Ehcache notices that an entry expired only when it is touched, so an idle entry stays counted until then.
 * {@link #sweep()} walks the table and removes what expired; it runs on the shared scheduler of a {@link SweepSchedule}
 * when one is given, and whenever a bind finds the table full (at most once a second; {@link TableSweeper}).
 * {@code expirations} counts entries removed after {@code SessionTableTimeout} of inactivity, whoever
 * noticed. (Ehcache 3.11 delivers even synchronous {@code CacheEventListener}s through an executor and waits
 * for it on every put; its tier statistics count the same expirations without that cost.)
 */
public final class EhcacheSessionTable implements SessionTable {

    private static final Logger LOG = LoggerFactory.getLogger(EhcacheSessionTable.class);

    /**
     * Off-heap bytes one entry needs, measured with 32-40 character session ids
     * ({@code SessionTableBenchmark.main}); used to warn when {@code SessionTable.offheap_MB} is too small.
     */
    public static final long OFF_HEAP_BYTES_PER_ENTRY = 160;

    private final IdleExpiry expiry;
    /** the clock Ehcache's expiry runs on */
    private final LongSupplier clock;
    private final boolean offHeap;
    private final long offHeapMegabytes;
    private final SessionCache store;
    private final Cache<String, String> cache;
    private final CapacityAccounting places;
    private final TableSweeper sweeper;
    private final TableWarnings warnings;
    private final ServerIds serverIds = new ServerIds();

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder bindings = new LongAdder();
    private final LongAdder rebindings = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final AtomicBoolean closing = new AtomicBoolean();
    private volatile boolean closed;

    /**
     * A table with Ehcache's system clock and no background sweeping.
     *
     * @see #EhcacheSessionTable(SessionTimeouts, long, long, long, LongSupplier, SweepSchedule)
     */
    public EhcacheSessionTable(Duration timeout, long maxEntries, long heapEntries, long offHeapMegabytes) {
        this(SessionTimeouts.both(timeout), maxEntries, heapEntries, offHeapMegabytes, null, null);
    }

    /** A table whose entries all idle-expire after {@code timeout}. */
    public EhcacheSessionTable(Duration timeout, long maxEntries, long heapEntries, long offHeapMegabytes,
                               LongSupplier clockMillis, SweepSchedule sweeps) {
        this(SessionTimeouts.both(timeout), maxEntries, heapEntries, offHeapMegabytes, clockMillis, sweeps);
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
     * @param sweeps           the background sweeps of expired entries on a shared scheduler, or {@code null} for
     *                         none (then only full-table binds, touches and {@link #sweep()} remove them)
     */
    public EhcacheSessionTable(SessionTimeouts timeouts, long maxEntries, long heapEntries, long offHeapMegabytes,
                               LongSupplier clockMillis, SweepSchedule sweeps) {
        Objects.requireNonNull(timeouts, "timeouts");
        if (maxEntries < 1 || heapEntries < 1 || offHeapMegabytes < 0) {
            throw new IllegalArgumentException("session table sizes: maxEntries " + maxEntries
                    + ", heapEntries " + heapEntries + ", offHeapMegabytes " + offHeapMegabytes);
        }
        this.expiry = new IdleExpiry(timeouts);
        this.offHeap = offHeapMegabytes > 0;
        this.offHeapMegabytes = offHeapMegabytes;
        long capacity = offHeap ? maxEntries : Math.min(maxEntries, heapEntries);
        LongSupplier clock = clockMillis != null ? clockMillis : System::currentTimeMillis;
        this.clock = clock;
        this.store = new SessionCache(capacity, offHeapMegabytes, expiry, clockMillis);
        this.cache = store.cache();
        this.places = new CapacityAccounting(capacity, store::removed);
        this.warnings = new TableWarnings(clock);
        TableWarnings.sizes(timeouts, maxEntries, heapEntries, offHeapMegabytes, capacity);
        this.sweeper = new TableSweeper(this::sweepStore, clock, sweeps);
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
        return offHeap ? serverIds.shared(server) : server;
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

    /** When the entry expires unless used, from Ehcache's own record of it (see {@link EhcacheInternals}). */
    @Override
    public Duration idleLeft(String sessionId) {
        if (sessionId == null || closed) {
            return null;
        }
        try {
            long expires = IdleExpiry.peeking(() -> EhcacheInternals.expirationTime(cache, sessionId));
            return expires < 0 ? null : Duration.ofMillis(Math.max(0, expires - clock.getAsLong()));
        } catch (IllegalStateException closedMeanwhile) {
            return null;
        }
    }

    /** As {@link #lookup}, without counting and without renewing the entry's idle time. */
    @Override
    public String peek(String sessionId) {
        if (sessionId == null || closed) {
            return null;
        }
        try {
            String server = IdleExpiry.peeking(() -> cache.get(sessionId));
            return server == null ? null : serverIds.shared(server);
        } catch (IllegalStateException closedMeanwhile) {
            return null;
        }
    }

    /**
     * Whether a new binding would be refused now: the live entries fill the capacity. Two volatile reads while the
     * table has room; when it looks full, the removals are counted again and, at most once a second, a sweep makes
     * room, exactly as a bind would.
     */
    @Override
    public boolean isFull() {
        if (closed || places.hasRoom()) {
            return false;
        }
        return !(sweeper.sweepForRoom() && places.hasRoom());
    }

    @Override
    public String bind(String sessionId, String serverId) {
        String server = serverIds.shared(Objects.requireNonNull(serverId, "serverId"));
        if (sessionId == null || closed) {
            return server;
        }
        try {
            // Most binds of a known id come from servers repeating its Set-Cookie: a read (lock-free on heap,
            // and it renews the idle time as putIfAbsent would) answers them without taking a slot and the
            // map's lock, which every response carrying the same id would otherwise contend for.
            String bound = cache.get(sessionId);
            if (bound != null) {
                return serverIds.shared(bound);
            }
            if (!places.reserve() && !(sweeper.sweepForRoom() && places.reserve())) {
                rejected.increment();
                warnings.full(places.capacity(), rejected.sum());
                return server;
            }
            String previous = cache.putIfAbsent(sessionId, server);
            if (previous == null) {
                bindings.increment();
                return server;
            }
            places.release();
            return serverIds.shared(previous);
        } catch (IllegalStateException closedMeanwhile) {
            return server;
        }
    }

    @Override
    public String rebind(String sessionId, String expectedServerId, String newServerId) {
        String server = serverIds.shared(Objects.requireNonNull(newServerId, "newServerId"));
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
                return serverIds.shared(bound);
            }
        } catch (IllegalStateException closedMeanwhile) {
            return server;
        }
        return bind(sessionId, server);
    }

    /**
     * Stores a binding read back from disk with the idle time it had left, as a first binding: one made meanwhile
     * wins. Counted neither as a binding nor a hit.
     *
     * @return whether it was stored (not when the id is bound already or the table is full)
     */
    boolean restore(String sessionId, String serverId, Duration remaining) {
        String server = serverIds.shared(serverId);
        if (closed || !places.reserve()) {
            return false;
        }
        if (IdleExpiry.restoring(remaining, () -> cache.putIfAbsent(sessionId, server)) == null) {
            return true;
        }
        places.release();
        return false;
    }

    @Override
    public SessionTableStats stats() {
        long expirations = store.counters().expirations();
        return new SessionTableStats(places.live(), hits.sum(), misses.sum(), bindings.sum(), rebindings.sum(),
                expirations, rejected.sum());
    }

    /** Entries Ehcache evicted because the off-heap tier was full (always 0 on heap). */
    public long evictions() {
        return store.counters().evictions();
    }

    /** The most entries this table stores: {@code maxEntries}, or {@code min(maxEntries, heapEntries)} on heap. */
    public long capacity() {
        return places.capacity();
    }

    /** Is the table kept off heap? */
    public boolean offHeap() {
        return offHeap;
    }

    public SessionTimeouts timeouts() {
        return expiry.timeouts();
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
        SessionTimeouts before = expiry.timeouts();
        expiry.change(Objects.requireNonNull(next, "timeouts"));
        LOG.info("Session table: idle timeout {} (was {}), for each entry from its next use", next, before);
    }

    /**
     * Walks the table and removes the entries idle past the timeout (Ehcache otherwise notices expiry only when
     * an entry is touched), so that {@code entries} and {@code expirations} are current and their room is free.
     * Concurrent lookups and binds go on meanwhile.
     *
     * @return how many entries expired while it ran
     */
    public long sweep() {
        return sweeper.sweep();
    }

    /** Whether background sweeps are scheduled for this table: from its start with a schedule until its close. */
    boolean sweepsScheduled() {
        return sweeper.scheduled();
    }

    /** One pass over the store, under the sweeper's lock. */
    private long sweepStore() {
        long before = store.counters().expirations();
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
        long expired = store.counters().expirations() - before;
        places.refreshRemoved();
        warnings.evictions(store.counters().evictions(), offHeapMegabytes);
        LOG.debug("Session table sweep: {} live entries, {} expired", live, expired);
        return expired;
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed = true;
        sweeper.close(store::close);
    }

    @Override
    public String toString() {
        return "EhcacheSessionTable[" + (offHeap ? "off heap" : "heap") + ", timeout " + expiry.timeouts()
                + ", capacity " + places.capacity() + ", " + stats() + "]";
    }
}
