package org.jwd.sessiontable;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The shared store with its writes timed: the Terracotta server's write latency as this node sees it, for
 * {@link ClusterStatus#writes()} and {@link ClusterStatus#writeNanos()} (their rates' quotient is the mean). Every
 * write of a session's entry goes through here ({@code putIfAbsent} and {@code replace}: a binding, a rebinding, a
 * renewal, the "no binding" marker); the probe's writes do not, nor do reads, which the heap tier in front mostly
 * answers. Only writes the server answered count: one that failed is an outage ({@link ClusterStatus#outages()}).
 * Two clock reads and two adder increments per write, nothing allocated.
 */
final class TimedWrites implements BindingStore {
    private final BindingStore store;
    private final LongSupplier nanoClock;
    private final LongAdder writes = new LongAdder();
    private final LongAdder writeNanos = new LongAdder();

    /**
     * @param store     the store written to (not closed by this view: its table closes it)
     * @param nanoClock {@link System#nanoTime()}; tests move it by hand
     */
    TimedWrites(BindingStore store, LongSupplier nanoClock) {
        this.store = store;
        this.nanoClock = nanoClock;
    }

    @Override
    public void connect() {
        store.connect();
    }

    @Override
    public void disconnect() {
        store.disconnect();
    }

    @Override
    public String get(String key) {
        return store.get(key);
    }

    @Override
    public String putIfAbsent(String key, String value) {
        long start = nanoClock.getAsLong();
        String previous = store.putIfAbsent(key, value);
        answered(start);
        return previous;
    }

    @Override
    public boolean replace(String key, String expected, String value) {
        long start = nanoClock.getAsLong();
        boolean replaced = store.replace(key, expected, value);
        answered(start);
        return replaced;
    }

    private void answered(long start) {
        writeNanos.add(nanoClock.getAsLong() - start);
        writes.increment();
    }

    /** Writes the server answered so far. */
    long writes() {
        return writes.sum();
    }

    /** Their time, from the call to the answer, in nanoseconds. */
    long writeNanos() {
        return writeNanos.sum();
    }

    /** Nothing: the store is its table's to close. */
    @Override
    public void close() {
    }
}
