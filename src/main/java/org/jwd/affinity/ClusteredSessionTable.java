package org.jwd.affinity;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster mode: one session table for several dispatcher nodes, kept in a shared {@link BindingStore} (a
 * Terracotta server, {@code SessionTable.cluster_uri}), so that concurrent first requests of one session agree
 * on one server whichever node they reach, and a node can restart without losing a binding.
 *
 * <h2>The way of an operation</h2>
 * <ul>
 *   <li>{@link #bind}: {@code putIfAbsent(id, "server|now")} on the server: the first binding wins across all
 *       nodes. A stored binding that is no longer {@link ClusterBinding#isLive live} is replaced atomically.</li>
 *   <li>{@link #lookup}: reads the binding; when its stamp is {@link ClusterBinding#isDue due}, rewrites it with
 *       {@code replace(old, new)}, so a session kept busy through any node stays bound on every node
 *       ({@link ClusterBinding} explains the exact bounds). Most lookups are answered by the heap tier in front.</li>
 *   <li>{@link #rebind}: {@code replace(old, new)} of a live binding to the expected server.</li>
 * </ul>
 *
 * <h2>When the server is unreachable, requests are still served</h2>
 * Every binding this node reads or writes is also kept in {@code local}, this node's own table (a mirror with the
 * same idle timeout). When an operation on the server fails (timeout, connection lost), the table turns
 * {@link ClusterState#DISCONNECTED}, logs one warning, and serves from {@code local} at once, without touching
 * the server again: sessions this node knew keep their server, new sessions are bound on this node only (two
 * nodes may then bind one new session differently; nothing can prevent that without the server). A prober
 * thread tries the server at once, then every {@code probeInterval}; once it answers, the table is
 * {@link ClusterState#CONNECTED} again (a server that was only slow for a moment is back within one write).
 * Ehcache's client reconnects by itself, but after a server restart it sometimes ends up with no connection
 * and says nothing; so a client still failing {@link #FRESH_START_AFTER_MILLIS} after the loss is dropped and
 * built anew, and again every as long until the server answers. A binding the server does not know but {@code local} does (made during
 * the outage, or lost by a server restart) is carried over to the server when its session comes back
 * ({@code putIfAbsent}: if another node carried over a different one first, that one wins everywhere).
 *
 * <p>The shared copy judges expiry by its stamps, not by Ehcache's best-effort idle expiry; the mirror expires
 * no later than the shared copy (its idle time is refreshed by this node's uses only), so it never resurrects
 * a binding that expired in the cluster.
 */
public final class ClusteredSessionTable implements SessionTable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusteredSessionTable.class);

    /**
     * A key no session uses: the prober writes it to learn whether the server answers. A write, because Ehcache
     * answers a read that timed out as a miss, so a read "succeeds" on a server that is gone.
     */
    static final String PROBE_KEY = "jwd:probe";
    /**
     * A client still failing this long after the loss (or after its last fresh start) is dropped and built anew:
     * Ehcache's own reconnection does not always recover from a server restart.
     */
    static final long FRESH_START_AFTER_MILLIS = 15_000;
    /** Conditional writes retried under contention before the request is balanced without a binding. */
    private static final int MAX_ATTEMPTS = 8;

    private final String name;
    private final BindingStore cluster;
    private final SessionTable local;
    private final SessionTimeouts timeouts;
    private final LongSupplier clock;
    private final ScheduledExecutorService prober;

    private final AtomicReference<ClusterState> state = new AtomicReference<>(ClusterState.CONNECTING);
    private volatile long stateSinceMillis;
    private volatile long lastFreshStartMillis;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder bindings = new LongAdder();
    private final LongAdder rebindings = new LongAdder();
    private final LongAdder servedLocally = new LongAdder();
    private final LongAdder outages = new LongAdder();
    private final LongAdder carriedOver = new LongAdder();
    private final LongAdder freshStarts = new LongAdder();
    private volatile boolean closed;

    /**
     * Connects at once (waiting at most the store's connection timeout); when the server cannot be reached, the
     * table starts {@link ClusterState#CONNECTING} and serves from {@code local} until the prober connects.
     *
     * @param name          how to name the cluster in messages: its URI
     * @param cluster       the shared store; this table closes it
     * @param local         this node's own table: mirror and fallback; this table closes it
     * @param timeouts      the idle timeouts by kind of entry
     * @param clockMillis   epoch milliseconds; tests move it by hand
     * @param probeInterval how often a daemon thread tries a lost server, or {@code null} for none (tests call
     *                      {@link #probe()})
     */
    ClusteredSessionTable(String name, BindingStore cluster, SessionTable local, SessionTimeouts timeouts,
                          LongSupplier clockMillis, Duration probeInterval) {
        this.name = Objects.requireNonNull(name, "name");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.local = Objects.requireNonNull(local, "local");
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        this.clock = clockMillis != null ? clockMillis : System::currentTimeMillis;
        this.stateSinceMillis = clock.getAsLong();
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
        if (probeInterval != null && !probeInterval.isZero() && !probeInterval.isNegative()) {
            this.prober = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "jwd-session-table-cluster-probe");
                thread.setDaemon(true);
                return thread;
            });
            long millis = Math.max(1, probeInterval.toMillis());
            prober.scheduleWithFixedDelay(this::probeQuietly, millis, millis, TimeUnit.MILLISECONDS);
        } else {
            this.prober = null;
        }
    }

    @Override
    public String lookup(String sessionId) {
        if (sessionId == null || closed) {
            return null;
        }
        String server = find(sessionId);
        (server == null ? misses : hits).increment();
        return server;
    }

    /** As {@link #lookup}, without counting: the binding's stamp is renewed where it is due. */
    @Override
    public void touch(String sessionId) {
        if (sessionId != null && !closed) {
            find(sessionId);
        }
    }

    private String find(String sessionId) {
        String server = null;
        boolean done = false;
        if (state.get() == ClusterState.CONNECTED) {
            try {
                server = clusterLookup(sessionId);
                done = true;
            } catch (BindingStore.UnavailableException e) {
                lost(e);
            }
        }
        if (!done) {
            servedLocally.increment();
            server = local.lookup(sessionId);
        }
        return server;
    }

    /** The binding in force, without counting, refreshing or carrying anything over (the admin's explain). */
    @Override
    public String peek(String sessionId) {
        if (sessionId == null || closed) {
            return null;
        }
        if (state.get() == ClusterState.CONNECTED) {
            try {
                ClusterBinding binding = ClusterBinding.decode(cluster.get(sessionId));
                if (binding != null && binding.isLive(clock.getAsLong(), timeoutMillis(sessionId))) {
                    return binding.serverId();
                }
            } catch (BindingStore.UnavailableException e) {
                lost(e);
            }
        }
        return local.peek(sessionId);
    }

    /** This node's copy decides: the server's count is not available cheaply (see {@link #stats()}). */
    @Override
    public boolean isFull() {
        return local.isFull();
    }

    @Override
    public String bind(String sessionId, String serverId) {
        Objects.requireNonNull(serverId, "serverId");
        if (sessionId == null || closed) {
            return serverId;
        }
        String winner = null;
        if (state.get() == ClusterState.CONNECTED) {
            try {
                winner = clusterBind(sessionId, serverId, clock.getAsLong());
                mirror(sessionId, winner);
            } catch (BindingStore.UnavailableException e) {
                lost(e);
            }
        }
        if (winner == null) {
            servedLocally.increment();
            winner = local.bind(sessionId, serverId);
        }
        if (winner.equals(serverId)) {
            bindings.increment();
        }
        return winner;
    }

    @Override
    public String rebind(String sessionId, String expectedServerId, String newServerId) {
        Objects.requireNonNull(newServerId, "newServerId");
        if (sessionId == null || closed) {
            return newServerId;
        }
        if (state.get() == ClusterState.CONNECTED) {
            try {
                String winner = clusterRebind(sessionId, expectedServerId, newServerId);
                mirror(sessionId, winner);
                return winner;
            } catch (BindingStore.UnavailableException e) {
                lost(e);
            }
        }
        servedLocally.increment();
        String winner = local.rebind(sessionId, expectedServerId, newServerId);
        if (winner.equals(newServerId)) {
            rebindings.increment();
        }
        return winner;
    }

    private String clusterLookup(String sessionId) {
        long now = clock.getAsLong();
        String stored = cluster.get(sessionId);
        ClusterBinding binding = ClusterBinding.decode(stored);
        if (binding != null && binding.isLive(now, timeoutMillis(sessionId))) {
            String server = binding.isDue(now, timeoutMillis(sessionId))
                    ? refresh(sessionId, stored, binding.serverId(), now)
                    : binding.serverId();
            mirror(sessionId, server);
            return server;
        }
        // The server knows no live binding. One this node made while the server was unreachable (or that a
        // restarted server lost) is carried over; putIfAbsent makes every node agree on one.
        String known = local.lookup(sessionId);
        if (known == null) {
            return null;
        }
        String winner = clusterBind(sessionId, known, now);
        if (winner.equals(known)) {
            carriedOver.increment();
        } else {
            mirror(sessionId, winner);
        }
        return winner;
    }

    /** Rewrites the stamp of a live binding; follows whatever another node wrote meanwhile. */
    private String refresh(String sessionId, String stored, String server, long now) {
        if (cluster.replace(sessionId, stored, new ClusterBinding(server, now).encode())) {
            return server;
        }
        String current = cluster.get(sessionId);
        ClusterBinding binding = ClusterBinding.decode(current);
        if (binding != null && binding.isLive(now, timeoutMillis(sessionId))) {
            return binding.serverId();
        }
        return clusterBind(sessionId, server, now);
    }

    /** The first live binding wins; a dead one still stored is replaced atomically. */
    private String clusterBind(String sessionId, String server, long now) {
        String fresh = new ClusterBinding(server, now).encode();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            String previous = cluster.putIfAbsent(sessionId, fresh);
            if (previous == null) {
                return server;
            }
            ClusterBinding binding = ClusterBinding.decode(previous);
            if (binding != null && binding.isLive(now, timeoutMillis(sessionId))) {
                return binding.serverId();
            }
            if (cluster.replace(sessionId, previous, fresh)) {
                return server;
            }
        }
        LOG.debug("Session table cluster {}: no binding for {} after {} attempts", name, sessionId, MAX_ATTEMPTS);
        return server;
    }

    private String clusterRebind(String sessionId, String expectedServerId, String newServerId) {
        long now = clock.getAsLong();
        String fresh = new ClusterBinding(newServerId, now).encode();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            String stored = cluster.get(sessionId);
            ClusterBinding binding = ClusterBinding.decode(stored);
            if (binding == null || !binding.isLive(now, timeoutMillis(sessionId))) {
                return clusterBind(sessionId, newServerId, now);
            }
            if (!binding.serverId().equals(expectedServerId)) {
                return binding.serverId(); // rebound concurrently: follow it
            }
            if (cluster.replace(sessionId, stored, fresh)) {
                rebindings.increment();
                return newServerId;
            }
        }
        return newServerId;
    }

    /** Keeps this node's copy of a binding current, and its idle time refreshed. */
    private void mirror(String sessionId, String server) {
        String known = local.lookup(sessionId);
        if (known == null) {
            local.bind(sessionId, server);
        } else if (!known.equals(server)) {
            local.rebind(sessionId, known, server);
        }
    }

    private void lost(BindingStore.UnavailableException e) {
        if (state.compareAndSet(ClusterState.CONNECTED, ClusterState.DISCONNECTED)) {
            stateSinceMillis = clock.getAsLong();
            outages.increment();
            LOG.warn("Session table cluster {}: unreachable ({}); this node serves sessions from its own table "
                    + "until the server is back", name, e.getMessage());
            // A server that was only slow for a moment answers the probe at once: the fewer requests served
            // without it, the fewer sessions two nodes can bind differently.
            if (prober != null && !closed) {
                try {
                    prober.execute(this::probeQuietly);
                } catch (RejectedExecutionException closedMeanwhile) {
                    // closing
                }
            }
        }
    }

    /**
     * Tries the server when not connected: connects if needed, then writes one key ({@code putIfAbsent}). Runs on
     * the prober thread; tests call it by hand.
     *
     * @return whether the table is {@link ClusterState#CONNECTED} now
     */
    boolean probe() {
        ClusterState before = state.get();
        if (before == ClusterState.CONNECTED) {
            return true;
        }
        if (closed) {
            return false;
        }
        long now = clock.getAsLong();
        if (before == ClusterState.DISCONNECTED
                && now - Math.max(stateSinceMillis, lastFreshStartMillis) >= FRESH_START_AFTER_MILLIS) {
            if (lastFreshStartMillis < stateSinceMillis) {
                LOG.info("Session table cluster {}: the client has not recovered in {} s; connecting anew from now "
                        + "on", name, (now - stateSinceMillis) / 1000);
            }
            lastFreshStartMillis = now;
            freshStarts.increment();
            cluster.disconnect();
        }
        try {
            cluster.connect();
            cluster.putIfAbsent(PROBE_KEY, "probe");
        } catch (BindingStore.UnavailableException e) {
            LOG.debug("Session table cluster {}: still unreachable: {}", name, e.getMessage());
            return false;
        }
        if (state.compareAndSet(before, ClusterState.CONNECTED)) {
            now = clock.getAsLong();
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

    private void probeQuietly() {
        try {
            probe();
        } catch (RuntimeException e) {
            LOG.warn("Session table cluster {}: probe failed", name, e);
        }
    }

    @Override
    public ClusterState clusterState() {
        return state.get();
    }

    @Override
    public ClusterStatus clusterStatus() {
        return new ClusterStatus(name, state.get(), stateSinceMillis, outages.sum(), servedLocally.sum(),
                carriedOver.sum(), freshStarts.sum());
    }

    /**
     * Hits, misses, bindings and rebindings count this node's operations, wherever they were served;
     * {@code entries}, {@code expirations} and {@code rejected} are those of this node's copy (the server's count
     * is not available cheaply).
     */
    @Override
    public SessionTableStats stats() {
        SessionTableStats mine = local.stats();
        return new SessionTableStats(mine.entries(), hits.sum(), misses.sum(), bindings.sum(), rebindings.sum(),
                mine.expirations(), mine.rejected());
    }

    public SessionTimeouts timeouts() {
        return timeouts;
    }

    /** The idle timeout of this entry, in milliseconds. */
    private long timeoutMillis(String sessionId) {
        return timeouts.forKey(sessionId).toMillis();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (prober != null) {
            prober.shutdownNow();
        }
        try {
            cluster.close();
        } finally {
            local.close();
        }
    }

    @Override
    public String toString() {
        return "ClusteredSessionTable[" + name + ", " + state.get() + ", timeout " + timeouts
                + ", " + stats() + "]";
    }
}
