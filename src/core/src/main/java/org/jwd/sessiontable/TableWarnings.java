package org.jwd.sessiontable;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the session table tells the operator: its sizes at start, and the two ways it turns sessions away. A full
 * table is worth a warning but not one per request: at most one every {@link #FULL_WARNING_GAP_MILLIS}; evictions
 * (an off-heap tier too small) are warned about when their count grew since the last warning.
 */
final class TableWarnings {
    private static final Logger LOG = LoggerFactory.getLogger(EhcacheSessionTable.class);

    /** A full table warns at most this often. */
    static final long FULL_WARNING_GAP_MILLIS = 5 * 60_000;

    private final LongSupplier clock;
    private final AtomicLong lastFullWarningMillis = new AtomicLong(Long.MIN_VALUE / 2);
    private volatile long evictionsLogged;

    TableWarnings(LongSupplier clock) {
        this.clock = clock;
    }

    /** At start: where the entries live, how many fit, and whether the off-heap size is too small for them. */
    static void sizes(SessionTimeouts timeouts, long maxEntries, long heapEntries, long offHeapMegabytes,
                      long capacity) {
        if (offHeapMegabytes > 0) {
            long fits = (offHeapMegabytes << 20) / EhcacheSessionTable.OFF_HEAP_BYTES_PER_ENTRY;
            LOG.info("Session table off heap: {} MB, idle timeout {}, at most {} entries",
                    offHeapMegabytes, timeouts, capacity);
            if (fits < maxEntries) {
                LOG.warn("Session table: {} MB off heap hold about {} entries, fewer than the {} allowed "
                                + "(wdisp/HTTP/max_session_tab_entries); idle sessions will be evicted. "
                                + "SessionTable.offheap_MB of about {} avoids that", offHeapMegabytes, fits, maxEntries,
                        (maxEntries * EhcacheSessionTable.OFF_HEAP_BYTES_PER_ENTRY >> 20) + 1);
            }
        } else {
            LOG.info("Session table on heap: idle timeout {}, at most {} entries", timeouts, capacity);
            if (heapEntries < maxEntries) {
                LOG.info("Session table holds {} entries (SessionTable.heap_entries) rather than {} "
                        + "(wdisp/HTTP/max_session_tab_entries): it has no off-heap tier", heapEntries, maxEntries);
            }
        }
    }

    /** A binding was refused because the table is full. */
    void full(long capacity, long rejectedSoFar) {
        long now = clock.getAsLong();
        long last = lastFullWarningMillis.get();
        if (now - last >= FULL_WARNING_GAP_MILLIS && lastFullWarningMillis.compareAndSet(last, now)) {
            LOG.warn("Session table full ({} entries, {} bindings refused so far): requests it does not hold go to "
                    + "their group's default server until entries expire", capacity, rejectedSoFar);
        }
    }

    /** After a sweep: the evictions so far, warned about when they grew. */
    void evictions(long evictions, long offHeapMegabytes) {
        if (evictions > evictionsLogged) {
            LOG.warn("Session table: {} sessions evicted so far because {} MB off heap are full; raise "
                    + "SessionTable.offheap_MB", evictions, offHeapMegabytes);
            evictionsLogged = evictions;
        }
    }
}
