package org.jwd.proxy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.eclipse.jetty.util.Pool;

/**
 * Jetty's {@link Pool} for objects used by one holder at a time (an HTTP/1.1 connection carries one exchange), whose
 * idle entries wait on a stack: acquiring, releasing and failing to reserve in a full pool cost the same whatever
 * its size. Jetty's {@code ConcurrentPool} scans its entries to acquire one and sweeps them under a lock for each
 * reservation refused, which with 256 connections per server busy under 4,000 clients took a tenth of jwd's CPU
 * (docs/performance.md). The most recently released entry is acquired first, as the scan from the first entry did,
 * so a quiet pool uses few connections and lets the others reach their idle timeout.
 *
 * <p>An entry's life: reserved (no object yet) -> enabled idle or in use -> in use <-> idle -> removed. An entry
 * waits on the stack only while idle; one removed while on it is dropped by the next acquire that meets it, and
 * taken off at once besides, so that it never holds its closed connection.
 */
final class IdleStackPool<P> implements Pool<P> {
    private final int maxSize;
    /** Reserved and enabled entries, not removed: what {@link #size()} counts. */
    private final AtomicInteger size = new AtomicInteger();
    private final Set<StackEntry<P>> entries = ConcurrentHashMap.newKeySet();
    /** Idle entries, the most recently released first; may briefly hold one just removed. */
    private final Deque<StackEntry<P>> idle = new ConcurrentLinkedDeque<>();
    private volatile boolean terminated;

    IdleStackPool(int maxSize) {
        if (maxSize < 1) {
            throw new IllegalArgumentException("a pool holds at least one entry: " + maxSize);
        }
        this.maxSize = maxSize;
    }

    @Override
    public Entry<P> reserve() {
        if (terminated) {
            return null;
        }
        int current;
        do {
            current = size.get();
            if (current >= maxSize) {
                return null;
            }
        } while (!size.compareAndSet(current, current + 1));
        StackEntry<P> entry = new StackEntry<>(this);
        entries.add(entry);
        // terminate() sets the flag before it collects the entries: it saw this one, or this sees the flag.
        if (terminated) {
            entry.remove();
            return null;
        }
        return entry;
    }

    @Override
    public Entry<P> acquire() {
        for (StackEntry<P> entry = idle.pollFirst(); entry != null; entry = idle.pollFirst()) {
            if (entry.state.compareAndSet(State.IDLE, State.IN_USE)) {
                return entry;
            }
        }
        return null;
    }

    @Override
    public boolean isTerminated() {
        return terminated;
    }

    @Override
    public Collection<Entry<P>> terminate() {
        terminated = true;
        List<Entry<P>> all = new ArrayList<>(entries);
        for (Entry<P> entry : all) {
            ((StackEntry<P>) entry).terminate();
        }
        idle.clear();
        return all;
    }

    @Override
    public int size() {
        return size.get();
    }

    @Override
    public int getMaxSize() {
        return maxSize;
    }

    @Override
    public Stream<Entry<P>> stream() {
        return entries.stream().map(entry -> entry);
    }

    @Override
    public String toString() {
        return "IdleStackPool[size=" + size() + ",max=" + maxSize + ",idle=" + getIdleCount() + ",terminated="
                + terminated + "]";
    }

    private enum State { RESERVED, IDLE, IN_USE, TERMINATED, REMOVED }

    /** One pooled object and its state; the object is set once, before the state that publishes it. */
    private static final class StackEntry<E> implements Entry<E> {
        private final IdleStackPool<E> pool;
        private final AtomicReference<State> state = new AtomicReference<>(State.RESERVED);
        private volatile E pooled;

        StackEntry(IdleStackPool<E> pool) {
            this.pool = pool;
        }

        @Override
        public boolean enable(E object, boolean acquire) {
            Objects.requireNonNull(object);
            if (state.get() != State.RESERVED) {
                if (isTerminated()) {
                    return false;
                }
                throw new IllegalStateException("entry already enabled: " + this);
            }
            pooled = object;
            if (!state.compareAndSet(State.RESERVED, acquire ? State.IN_USE : State.IDLE)) {
                pooled = null;
                return false;
            }
            if (!acquire) {
                stack();
            }
            return true;
        }

        @Override
        public E getPooled() {
            return pooled;
        }

        /** Back on the stack; false if it was not in use (removed or terminated meanwhile). */
        @Override
        public boolean release() {
            if (!state.compareAndSet(State.IN_USE, State.IDLE)) {
                return false;
            }
            stack();
            return true;
        }

        private void stack() {
            pool.idle.offerFirst(this);
            // remove() or terminate() may have run between the state's change and the push, and looked for it in
            // vain. Only their states are final: an entry in use again may already be back on the stack.
            if (isTerminated()) {
                pool.idle.remove(this);
            }
        }

        /** Out of the pool, whatever its state; true the first time only. */
        @Override
        public boolean remove() {
            State before = state.getAndSet(State.REMOVED);
            if (before == State.REMOVED) {
                return false;
            }
            if (pool.entries.remove(this)) {
                pool.size.decrementAndGet();
            }
            if (before == State.IDLE) {
                pool.idle.remove(this);
            }
            return true;
        }

        void terminate() {
            state.updateAndGet(current -> current == State.REMOVED ? current : State.TERMINATED);
        }

        @Override
        public boolean isReserved() {
            return state.get() == State.RESERVED;
        }

        @Override
        public boolean isIdle() {
            return state.get() == State.IDLE;
        }

        @Override
        public boolean isInUse() {
            return state.get() == State.IN_USE;
        }

        @Override
        public boolean isTerminated() {
            State current = state.get();
            return current == State.TERMINATED || current == State.REMOVED;
        }

        @Override
        public String toString() {
            return "IdleStackPool.Entry[" + state.get() + "," + pooled + "]";
        }
    }
}
