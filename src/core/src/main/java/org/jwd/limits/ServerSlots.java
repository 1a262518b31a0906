package org.jwd.limits;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;

/**
 * A server's connection slots, as HAProxy's {@code maxconn} and {@code queue}: at most {@code maxConnections}
 * requests in flight to the server; further ones wait, first come first served, in a queue of at most
 * {@code maxQueue}; beyond that they are refused. A waiting request holds no thread: it leaves a {@link Waiter}
 * whose {@link Waiter#admitted()} runs, on the thread that freed the slot, when its turn comes.
 *
 * <pre>
 * max_connections 2, max_queue 1:  acquire a -> ADMITTED, b -> ADMITTED, c -> QUEUED, d -> REJECTED
 *                                  release (a ends)  -> c admitted (the slot passes to it: in flight stays 2)
 *                                  release, release  -> in flight 0
 * </pre>
 *
 * <p>One object per server id, kept across topology rebuilds, so that requests in flight release the slots they
 * took. {@link #UNLIMITED} counts nothing and takes no lock.
 */
public final class ServerSlots {
    /** No limit: every request is admitted at once. */
    public static final ServerSlots UNLIMITED = new ServerSlots(0, 0);

    /** What became of a request that asked for a slot. */
    public enum Admission { ADMITTED, QUEUED, REJECTED }

    /** A request waiting for a slot. */
    @FunctionalInterface
    public interface Waiter {
        /** The request holds a slot now and may go; runs on the thread that released it, must not block. */
        void admitted();
    }

    private final int maxConnections;
    private final int maxQueue;
    /** written under the lock, read without it by the balancers' preference and the admin page */
    private volatile int active;
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>(); // guarded by this
    private volatile int queued;
    private final LongAdder rejected = new LongAdder();
    private final LongAdder timedOut = new LongAdder();

    /**
     * @param maxConnections requests in flight at most; 0 for no limit
     * @param maxQueue       requests waiting at most; {@link LimitsConfig.ServerLimit#UNBOUNDED} for no bound
     */
    public ServerSlots(int maxConnections, int maxQueue) {
        this.maxConnections = maxConnections;
        this.maxQueue = maxQueue;
    }

    public boolean isLimited() {
        return maxConnections > 0;
    }

    /** 0: no limit */
    public int maxConnections() {
        return maxConnections;
    }

    /** -1: no bound */
    public int maxQueue() {
        return maxQueue;
    }

    /** Requests holding a slot (0 when unlimited: {@code Server.inFlight()} counts those). */
    public int active() {
        return active;
    }

    public int queued() {
        return queued;
    }

    /** Requests refused because the queue was full. */
    public long rejected() {
        return rejected.sum();
    }

    /** Requests that waited in the queue until the queue timeout. */
    public long timedOut() {
        return timedOut.sum();
    }

    /** Would a request be admitted at once? Read without the lock: the balancers' preference, not a promise. */
    public boolean hasRoom() {
        return maxConnections <= 0 || active < maxConnections;
    }

    /**
     * Asks for a slot. {@code ADMITTED}: the caller holds one and must {@link #release()} it once the request is
     * over. {@code QUEUED}: {@code waiter} is called when a slot is its, unless {@link #abandon} took it out first.
     * {@code REJECTED}: the queue is full, the caller holds nothing.
     */
    public Admission acquire(Waiter waiter) {
        if (maxConnections <= 0) {
            return Admission.ADMITTED;
        }
        synchronized (this) {
            if (active < maxConnections) {
                active++;
                return Admission.ADMITTED;
            }
            if (maxQueue >= 0 && queue.size() >= maxQueue) {
                rejected.increment();
                return Admission.REJECTED;
            }
            queue.addLast(waiter);
            queued = queue.size();
            return Admission.QUEUED;
        }
    }

    /** A request that held a slot is over: the slot passes to the first waiter, if any. */
    public void release() {
        if (maxConnections <= 0) {
            return;
        }
        Waiter next;
        synchronized (this) {
            next = queue.pollFirst();
            if (next == null) {
                active--;
            } else {
                queued = queue.size();
            }
        }
        if (next != null) {
            next.admitted();
        }
    }

    /**
     * Takes a waiter out of the queue (its queue timeout passed).
     *
     * @return true when it was still waiting; false when it was admitted meanwhile (it holds a slot then)
     */
    public boolean abandon(Waiter waiter, boolean timeout) {
        synchronized (this) {
            if (!queue.removeFirstOccurrence(waiter)) {
                return false;
            }
            queued = queue.size();
        }
        if (timeout) {
            timedOut.increment();
        }
        return true;
    }

    /** Describes the limit in words, for error answers: {@code max_connections 2, queue full (3 waiting)}. */
    public String describe() {
        return "max_connections " + maxConnections + ", max_queue " + (maxQueue < 0 ? "unbounded" : maxQueue);
    }

    @Override
    public String toString() {
        return "ServerSlots[" + active + "/" + (maxConnections <= 0 ? "unlimited" : maxConnections) + ", queued "
                + queued + (maxQueue < 0 ? "" : "/" + maxQueue) + "]";
    }
}
