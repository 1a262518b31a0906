package org.jwd.sessiontable;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * How many entries the session table holds, and whether one more fits ({@code wdisp/HTTP/max_session_tab_entries}).
 * The store counts no size, only what it removed (expired or evicted), so live = inserted - removed: an insertion
 * is reserved here before the store's {@code putIfAbsent}, which keeps the bound exact under concurrency, and
 * given back when another binding won. The removals are re-read only when the table looks full: the last read is a
 * lower bound, so an estimate from it errs towards "full" and is then checked.
 *
 * <p>Example, capacity 2: reserve, reserve -> true, true; reserve -> false; the store expires one entry;
 * reserve -> true (the removals are read again).
 */
final class CapacityAccounting {
    private final long capacity;
    private final LongSupplier removed;
    /** Entries ever inserted, reservations in flight included. */
    private final AtomicLong inserted = new AtomicLong();
    /** The last read of {@link #removed}. */
    private volatile long removedSeen;

    /**
     * @param capacity the most entries stored; positive
     * @param removed  entries the store removed so far (expired + evicted); never decreasing
     */
    CapacityAccounting(long capacity, LongSupplier removed) {
        if (capacity < 1) {
            throw new IllegalArgumentException("session table capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.removed = removed;
    }

    long capacity() {
        return capacity;
    }

    /** Whether one more entry fits: one volatile read while there is room, else the removals are read again. */
    boolean hasRoom() {
        long current = inserted.get();
        return current - removedSeen < capacity || current - refreshRemoved() < capacity;
    }

    /** Takes one place for an insertion, unless the table is full. */
    boolean reserve() {
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

    /** Gives back a reserved place that was not used (another binding won the {@code putIfAbsent}). */
    void release() {
        inserted.decrementAndGet();
    }

    /** The entries held now, with the removals read again. */
    long live() {
        return Math.max(0, inserted.get() - refreshRemoved());
    }

    /** Reads the store's removals again (after a sweep, so the next estimates start from them). */
    long refreshRemoved() {
        long now = removed.getAsLong();
        removedSeen = now;
        return now;
    }

    @Override
    public String toString() {
        return "CapacityAccounting[" + (inserted.get() - removedSeen) + " of " + capacity + "]";
    }
}
