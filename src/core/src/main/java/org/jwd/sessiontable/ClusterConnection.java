package org.jwd.sessiontable;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the clustered table can use its Terracotta server now ({@link ClusterState}), and the probe that brings
 * it back: {@link #lost} turns it {@link ClusterState#DISCONNECTED} with one warning and asks for a probe at once;
 * the probe runs then and every probe interval on the shared scheduler until the server answers a write. A client
 * still failing {@link ClusteredSessionTable#FRESH_START_AFTER_MILLIS} after the loss is dropped and built anew,
 * and again every as long, because Ehcache's own reconnection does not always recover from a server restart.
 *
 * <p>A new binding made without the server is what splits a session between two nodes, so for the
 * {@code bindWait} after a loss a binding waits for the server ({@link #awaitConnected}) instead of being made on
 * this node alone: a server that was only slow (a timeout under CPU starvation) answers the probe within it.
 */
final class ClusterConnection {
    private static final Logger LOG = LoggerFactory.getLogger(ClusteredSessionTable.class);

    private final String name;
    private final BindingStore cluster;
    private final LongSupplier clock;
    private final ScheduledExecutorService scheduler;
    private final ScheduledFuture<?> periodicProbe;
    private final long bindWaitNanos;
    /** Notified when the state changes to connected, and at the close: where {@link #awaitConnected} waits. */
    private final Object changed = new Object();
    private long lostAtNanos; // guarded by changed

    private final AtomicReference<ClusterState> state = new AtomicReference<>(ClusterState.CONNECTING);
    private volatile long stateSinceMillis;
    private volatile long lastFreshStartMillis;
    private final LongAdder outages = new LongAdder();
    private final LongAdder freshStarts = new LongAdder();
    private volatile boolean closed;

    /**
     * Connects at once (waiting at most the store's connection timeout); when the server cannot be reached, the
     * connection starts {@link ClusterState#CONNECTING} and the probes go on.
     *
     * @param scheduler     where the probes run (shared, not owned), or {@code null} for none (tests call
     *                      {@link #probe()})
     * @param probeInterval how often a lost server is tried; used with a scheduler
     * @param bindWait      how long after a loss a new binding waits for the server ({@link #awaitConnected})
     */
    ClusterConnection(String name, BindingStore cluster, LongSupplier clock, ScheduledExecutorService scheduler,
                      Duration probeInterval, Duration bindWait) {
        this.name = name;
        this.bindWaitNanos = bindWait.toNanos();
        this.cluster = cluster;
        this.clock = clock;
        this.scheduler = scheduler;
        this.stateSinceMillis = clock.getAsLong();
        connectAtStart();
        if (scheduler == null) {
            this.periodicProbe = null;
        } else {
            long millis = Math.max(1, probeInterval.toMillis());
            this.periodicProbe = scheduler.scheduleWithFixedDelay(this::probeQuietly, millis, millis,
                    TimeUnit.MILLISECONDS);
        }
    }

    private void connectAtStart() {
        String unreachable = null;
        try {
            cluster.connect();
        } catch (BindingStore.UnavailableException e) {
            unreachable = e.getMessage();
        }
        if (unreachable == null && !probe()) {
            unreachable = "connected, but a write did not succeed";
        }
        if (unreachable != null) {
            LOG.warn("Session table cluster {}: not reachable at startup ({}); this node serves sessions from its "
                    + "own table and keeps trying", name, unreachable);
        }
    }

    boolean connected() {
        return state.get() == ClusterState.CONNECTED;
    }

    ClusterState state() {
        return state.get();
    }

    /** The state with its figures; {@code servedLocally}, {@code carriedOver} and the writes are the table's. */
    ClusterStatus status(long servedLocally, long carriedOver, TimedWrites writes) {
        return new ClusterStatus(name, state.get(), stateSinceMillis, outages.sum(), servedLocally, carriedOver,
                freshStarts.sum(), writes.writes(), writes.writeNanos());
    }

    /**
     * Whether a binding may be made on the server: connected now, or connected again within the bind wait after
     * the last loss (waits for that, in real time: it bounds what a user waits). Not connected at startup, or
     * disconnected longer than the wait: {@code false} at once, the binding is this node's.
     */
    boolean awaitConnected() {
        if (connected()) {
            return true;
        }
        synchronized (changed) {
            if (state.get() != ClusterState.DISCONNECTED) {
                return connected();
            }
            long deadline = lostAtNanos + bindWaitNanos;
            long left;
            while (!connected() && !closed && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(changed, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return connected();
    }

    /** An operation on the server failed: serve without it until a probe succeeds. */
    void lost(BindingStore.UnavailableException e) {
        boolean lostNow;
        synchronized (changed) {
            lostNow = state.compareAndSet(ClusterState.CONNECTED, ClusterState.DISCONNECTED);
            if (lostNow) {
                lostAtNanos = System.nanoTime();
            }
        }
        if (lostNow) {
            stateSinceMillis = clock.getAsLong();
            outages.increment();
            LOG.warn("Session table cluster {}: unreachable ({}); this node serves the sessions it knows from its own "
                    + "table, new sessions wait up to {} ms for the server before they are bound here alone", name,
                    e.getMessage(), bindWaitNanos / 1_000_000);
            // A server that was only slow for a moment answers the probe at once: the fewer requests served
            // without it, the fewer sessions two nodes can bind differently.
            if (scheduler != null && !closed) {
                try {
                    scheduler.execute(this::probeQuietly);
                } catch (RejectedExecutionException schedulerStopped) {
                    // shutting down
                }
            }
        }
    }

    /**
     * Tries the server when not connected: connects if needed, then writes one key ({@code putIfAbsent}).
     *
     * @return whether the connection is {@link ClusterState#CONNECTED} now
     */
    boolean probe() {
        ClusterState before = state.get();
        if (before == ClusterState.CONNECTED) {
            return true;
        }
        if (closed) {
            return false;
        }
        startFreshWhenStuck(before);
        try {
            cluster.connect();
            cluster.putIfAbsent(ClusteredSessionTable.PROBE_KEY, "probe");
        } catch (BindingStore.UnavailableException e) {
            LOG.debug("Session table cluster {}: still unreachable: {}", name, e.getMessage());
            return false;
        }
        if (state.compareAndSet(before, ClusterState.CONNECTED)) {
            synchronized (changed) {
                changed.notifyAll();
            }
            long now = clock.getAsLong();
            if (before == ClusterState.DISCONNECTED) {
                LOG.info("Session table cluster {}: connected again after {} s; bindings made meanwhile are "
                        + "carried over as their sessions come back", name, (now - stateSinceMillis) / 1000);
            } else {
                LOG.info("Session table cluster {}: connected; bindings are shared with every node", name);
            }
            stateSinceMillis = now;
        }
        return state.get() == ClusterState.CONNECTED;
    }

    private void startFreshWhenStuck(ClusterState before) {
        long now = clock.getAsLong();
        if (before == ClusterState.DISCONNECTED && now - Math.max(stateSinceMillis, lastFreshStartMillis)
                >= ClusteredSessionTable.FRESH_START_AFTER_MILLIS) {
            if (lastFreshStartMillis < stateSinceMillis) {
                LOG.info("Session table cluster {}: the client has not recovered in {} s; connecting anew from now "
                        + "on", name, (now - stateSinceMillis) / 1000);
            }
            lastFreshStartMillis = now;
            freshStarts.increment();
            cluster.disconnect();
        }
    }

    private void probeQuietly() {
        try {
            probe();
        } catch (RuntimeException e) {
            LOG.warn("Session table cluster {}: probe failed", name, e);
        }
    }

    /** Whether probes are scheduled (until {@link #close}). */
    boolean probesScheduled() {
        return periodicProbe != null && !periodicProbe.isCancelled();
    }

    /** Stops probing; the store is the table's to close. */
    void close() {
        closed = true;
        synchronized (changed) {
            changed.notifyAll();
        }
        if (periodicProbe != null) {
            periodicProbe.cancel(false);
        }
    }
}
