package org.jwd.sessiontable;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Cluster mode: one session table for several dispatcher nodes, kept in a shared {@link BindingStore} (a
 * Terracotta server, {@code SessionTable.cluster_uri}), so that concurrent first requests of one session agree
 * on one server whichever node they reach, and a node can restart without losing a binding.
 *
 * <h2>The way of an operation</h2>
 * <ul>
 *   <li>{@link #bind}: {@code putIfAbsent(id, "server|now")} on the server: the first binding wins across all
 *       nodes. A stored binding that is no longer {@link ClusterBinding#isLive live} is replaced atomically;
 *       liveness is judged at the time the binding was asked for, so a request held up by a stalled server
 *       follows what a concurrent request bound just before the stall.</li>
 *   <li>{@link #lookup}: reads the binding; when its stamp is {@link ClusterBinding#isDue due}, rewrites it with
 *       {@code replace(old, new)}, so a session kept busy through any node stays bound on every node
 *       ({@link ClusterBinding} explains the exact bounds). Most lookups are answered by the heap tier in front.</li>
 *   <li>{@link #rebind}: {@code replace(old, new)} of a live binding to the expected server.</li>
 * </ul>
 * Every write of these is timed ({@link TimedWrites}): the server's write latency as this node sees it, in
 * {@link #clusterStatus()}.
 *
 * <h2>When the server is unreachable, requests are still served</h2>
 * Every binding this node reads or writes is also kept in {@code local}, this node's own table (a mirror with the
 * same idle timeout). When an operation on the server fails (timeout, connection lost), the table turns
 * {@link ClusterState#DISCONNECTED}, logs one warning, and serves lookups from {@code local} at once, without
 * touching the server again: sessions this node knew keep their server. A new binding waits for the server for
 * up to {@link #BIND_WAIT} after the loss ({@link ClusterConnection#awaitConnected}), and tries again after each new
 * loss for as long after its own first failure ({@link #onServer}): a server that only timed out
 * (a node or the server starved of CPU) is back within it, and binding on this node alone meanwhile is what
 * splits a session between two nodes, which cluster mode exists to prevent. Past the wait, new sessions are bound
 * on this node only (two nodes may then bind one new session differently; nothing can prevent that without the
 * server). A probe
 * ({@link ClusterConnection}) tries the server at once, then every {@link #PROBE_INTERVAL} on the shared scheduler; once it answers, the table is
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

    /**
     * A key no session uses: the probe writes it to learn whether the server answers. A write, because Ehcache
     * answers a read that timed out as a miss, so a read "succeeds" on a server that is gone.
     */
    static final String PROBE_KEY = "jwd:probe";
    /**
     * A client still failing this long after the loss (or after its last fresh start) is dropped and built anew:
     * Ehcache's own reconnection does not always recover from a server restart.
     */
    static final long FRESH_START_AFTER_MILLIS = 15_000;
    /** How often a lost Terracotta server is tried again. */
    static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
    /**
     * How long after a loss a new binding waits for the server rather than be made on this node alone: several
     * probes' worth (a probe is a write that may itself time out after 2 s), so that a server or node starved of
     * CPU for a few seconds splits no session; an outage costs a new session's first request this wait once.
     */
    static final Duration BIND_WAIT = Duration.ofSeconds(10);
    /**
     * A binding tries the server at most this often, and for at most the bind wait after its first failure: a
     * server that answered the probe may time out again at once (the backlog of the stall that lost it: three
     * tries were too few under CPU pressure, and the fourth binding on this node alone split sessions), but one
     * that comes and goes does not hold a request much longer than the wait.
     */
    private static final int BIND_ATTEMPTS = 10;

    private final String name;
    private final BindingStore cluster;
    private final SessionTable local;
    private final SessionTimeouts timeouts;
    private final ClusterConnection connection;
    private final SharedBindings shared;
    private final TimedWrites writes;
    private final LongSupplier clock;
    private final long bindWaitNanos;

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder bindings = new LongAdder();
    private final LongAdder rebindings = new LongAdder();
    private final LongAdder servedLocally = new LongAdder();
    private final LongAdder carriedOver = new LongAdder();
    private volatile boolean closed;

    /**
     * Connects at once (waiting at most the store's connection timeout); when the server cannot be reached, the
     * table starts {@link ClusterState#CONNECTING} and serves from {@code local} until a probe connects.
     *
     * @param name        how to name the cluster in messages: its URI
     * @param cluster     the shared store; this table closes it
     * @param local       this node's own table: mirror and fallback; this table closes it
     * @param timeouts    the idle timeouts by kind of entry
     * @param clockMillis epoch milliseconds; tests move it by hand
     * @param scheduler   where a lost server is probed every {@link #PROBE_INTERVAL} (shared, not owned), or
     *                    {@code null} for no probes (tests call {@link #probe()})
     * @param bindWait    how long after a loss a new binding waits for the server ({@link #BIND_WAIT})
     */
    ClusteredSessionTable(String name, BindingStore cluster, SessionTable local, SessionTimeouts timeouts,
                          LongSupplier clockMillis, ScheduledExecutorService scheduler, Duration bindWait) {
        this(name, cluster, local, timeouts, clockMillis, System::nanoTime, scheduler, bindWait);
    }

    /** As above, the server's writes timed by {@code nanoClock} ({@link TimedWrites}); tests move it by hand. */
    ClusteredSessionTable(String name, BindingStore cluster, SessionTable local, SessionTimeouts timeouts,
                          LongSupplier clockMillis, LongSupplier nanoClock, ScheduledExecutorService scheduler,
                          Duration bindWait) {
        this.name = Objects.requireNonNull(name, "name");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.local = Objects.requireNonNull(local, "local");
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
        this.clock = clockMillis != null ? clockMillis : System::currentTimeMillis;
        this.writes = new TimedWrites(cluster, Objects.requireNonNull(nanoClock, "nanoClock"));
        this.shared = new SharedBindings(name, writes, local, timeouts, clock);
        this.connection = new ClusterConnection(name, cluster, clock, scheduler, PROBE_INTERVAL, bindWait);
        this.bindWaitNanos = bindWait.toNanos();
    }

    @Override
    public String lookup(String sessionId) {
        if (sessionId == null || closed) {
            return null;
        }
        String server = find(sessionId, false);
        (server == null ? misses : hits).increment();
        return server;
    }

    /**
     * As {@link #lookup}, without counting: the binding's stamp is renewed where it is due. A key the server does not
     * hold is stored as having no binding ({@link SharedBindings#NO_BINDING}), so that the next touches of it are
     * answered by the heap tier, not by the server.
     */
    @Override
    public void touch(String sessionId) {
        if (sessionId != null && !closed) {
            find(sessionId, true);
        }
    }

    private String find(String sessionId, boolean touching) {
        if (connection.connected()) {
            try {
                return shared.lookup(sessionId, carriedOver::increment, touching);
            } catch (BindingStore.UnavailableException e) {
                connection.lost(e);
            }
        }
        servedLocally.increment();
        return local.lookup(sessionId);
    }

    @Override
    public java.time.Duration idleLeft(String sessionId) {
        if (sessionId == null || closed) {
            return null;
        }
        if (connection.connected()) {
            try {
                java.time.Duration left = shared.idleLeft(sessionId);
                if (left != null) {
                    return left;
                }
            } catch (BindingStore.UnavailableException e) {
                connection.lost(e);
            }
        }
        return local.idleLeft(sessionId);
    }

    /** The binding in force, without counting, refreshing or carrying anything over (the admin's explain). */
    @Override
    public String peek(String sessionId) {
        if (sessionId == null || closed) {
            return null;
        }
        if (connection.connected()) {
            try {
                String server = shared.peek(sessionId);
                if (server != null) {
                    return server;
                }
            } catch (BindingStore.UnavailableException e) {
                connection.lost(e);
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
        long arrived = clock.getAsLong();
        String winner = onServer(() -> shared.bindAndMirror(sessionId, serverId, arrived));
        if (winner == null) {
            servedLocally.increment();
            winner = local.bind(sessionId, serverId);
        }
        if (winner.equals(serverId)) {
            bindings.increment();
        }
        return winner;
    }

    /**
     * A write on the server, tried again after each loss once the server is back
     * ({@link ClusterConnection#awaitConnected}), for at most the bind wait after the first failure and
     * {@link #BIND_ATTEMPTS} tries.
     *
     * @return what the write returned (never {@code null}), or {@code null} when it must be made on this node alone
     */
    private String onServer(java.util.function.Supplier<String> write) {
        long giveUpAt = 0;
        for (int attempt = 0; attempt < BIND_ATTEMPTS && connection.awaitConnected(); attempt++) {
            try {
                return write.get();
            } catch (BindingStore.UnavailableException e) {
                connection.lost(e);
                long now = System.nanoTime();
                if (attempt == 0) {
                    giveUpAt = now + bindWaitNanos;
                } else if (now - giveUpAt >= 0) {
                    return null;
                }
            }
        }
        return null;
    }

    @Override
    public String rebind(String sessionId, String expectedServerId, String newServerId) {
        Objects.requireNonNull(newServerId, "newServerId");
        if (sessionId == null || closed) {
            return newServerId;
        }
        long arrived = clock.getAsLong();
        String onServer = onServer(() -> shared.rebindAndMirror(sessionId, expectedServerId, newServerId, arrived,
                rebindings::increment));
        if (onServer != null) {
            return onServer;
        }
        servedLocally.increment();
        String winner = local.rebind(sessionId, expectedServerId, newServerId);
        if (winner.equals(newServerId)) {
            rebindings.increment();
        }
        return winner;
    }

    /**
     * Tries the server when not connected; runs on the shared scheduler, tests call it by hand.
     *
     * @return whether the table is {@link ClusterState#CONNECTED} now
     */
    boolean probe() {
        return connection.probe();
    }

    /** Whether a lost server is probed in the background (from the start with a scheduler until the close). */
    boolean probesScheduled() {
        return connection.probesScheduled();
    }

    @Override
    public ClusterState clusterState() {
        return connection.state();
    }

    @Override
    public ClusterStatus clusterStatus() {
        return connection.status(servedLocally.sum(), carriedOver.sum(), writes);
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

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        connection.close();
        try {
            cluster.close();
        } finally {
            local.close();
        }
    }

    @Override
    public String toString() {
        return "ClusteredSessionTable[" + name + ", " + connection.state() + ", timeout " + timeouts
                + ", " + stats() + "]";
    }
}
