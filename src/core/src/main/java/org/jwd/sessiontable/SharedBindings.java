package org.jwd.sessiontable;

import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clustered table's operations on the shared store while it is reachable, each binding stamped
 * ({@link ClusterBinding}) and mirrored into this node's own table. Every method may throw
 * {@link BindingStore.UnavailableException}; {@link ClusteredSessionTable} then serves from the mirror.
 */
final class SharedBindings {
    private static final Logger LOG = LoggerFactory.getLogger(ClusteredSessionTable.class);

    /**
     * What the shared store holds for a learned JSESSIONID that has no binding: a value no binding decodes to
     * ({@link ClusterBinding#decode} answers {@code null}), so that the heap tier in front answers the next lookups
     * of that key without a read from the server. The Terracotta client keeps its heap tier coherent ({@code STRONG}):
     * when a node binds the key (a {@code replace} of this value, as of any dead binding), every node's copy is
     * invalidated. It expires as any entry does, after the store's time-to-live from its write.
     */
    static final String NO_BINDING = "-";
    /** Conditional writes retried under contention before the request is balanced without a binding. */
    private static final int MAX_ATTEMPTS = 8;

    private final String name;
    private final BindingStore cluster;
    private final SessionTable local;
    private final SessionTimeouts timeouts;
    private final LongSupplier clock;

    SharedBindings(String name, BindingStore cluster, SessionTable local, SessionTimeouts timeouts,
                   LongSupplier clock) {
        this.name = name;
        this.cluster = cluster;
        this.local = local;
        this.timeouts = timeouts;
        this.clock = clock;
    }

    /**
     * The live binding on the server, its stamp renewed when due; else one this node made while the server was
     * unreachable (or that a restarted server lost), carried over: {@code putIfAbsent} makes every node agree.
     * A key neither holds is stored as {@link #NO_BINDING} when it is a learned JSESSIONID's, or when
     * {@code touching}: a touch reads a key no request of the session will bind (the request went by a route
     * suffix, say, and each key of its JSESSIONID is refreshed), so that key is read again on every request.
     *
     * @param carriedOver counted when this node's binding was carried over and won
     * @param touching    whether the read refreshes a key the request did not route by ({@link SessionTable#touch})
     */
    String lookup(String sessionId, Runnable carriedOver, boolean touching) {
        long now = clock.getAsLong();
        String stored = cluster.get(sessionId);
        ClusterBinding binding = ClusterBinding.decode(stored);
        if (binding != null && binding.isLive(now, timeoutMillis(sessionId))) {
            String server = follow(sessionId, stored, binding, now);
            mirror(sessionId, server);
            return server;
        }
        String known = local.lookup(sessionId);
        if (known == null) {
            return stored == null && (touching || SessionTimeouts.isLearnedJsessionid(sessionId))
                    ? noBinding(sessionId, now) : null;
        }
        String winner = bind(sessionId, known, now);
        if (winner.equals(known)) {
            carriedOver.run();
        } else {
            mirror(sessionId, winner);
        }
        return winner;
    }

    /**
     * A key the server does not hold and every request of its session reads: {@link #NO_BINDING} is stored for it,
     * once, so that those reads are answered by the heap tier rather than by a read from the server each (cluster
     * mode's cost per request: a round trip; the heap tier keeps entries, not absences). Such keys are a learned
     * JSESSIONID's when the session is bound in the temporary table only (read first each time), and any key a
     * request touches without routing by it. Should another node have bound the key just now, its binding is
     * followed.
     */
    private String noBinding(String sessionId, long now) {
        String previous = cluster.putIfAbsent(sessionId, NO_BINDING);
        ClusterBinding binding = ClusterBinding.decode(previous);
        if (binding == null || !binding.isLive(now, timeoutMillis(sessionId))) {
            return null;
        }
        String server = follow(sessionId, previous, binding, now);
        mirror(sessionId, server);
        return server;
    }

    /** How long the live binding on the server stays without a use (at least; at most a quarter more), or null. */
    java.time.Duration idleLeft(String sessionId) {
        ClusterBinding binding = ClusterBinding.decode(cluster.get(sessionId));
        long now = clock.getAsLong();
        long timeout = timeoutMillis(sessionId);
        return binding == null || !binding.isLive(now, timeout) ? null
                : java.time.Duration.ofMillis(Math.max(0, binding.stampMillis() + timeout - now));
    }

    /** The live binding on the server, read only. */
    String peek(String sessionId) {
        ClusterBinding binding = ClusterBinding.decode(cluster.get(sessionId));
        return binding != null && binding.isLive(clock.getAsLong(), timeoutMillis(sessionId))
                ? binding.serverId() : null;
    }

    /** The server of a live binding, its stamp ({@code stored}) renewed when due: a use of it at {@code now}. */
    private String follow(String sessionId, String stored, ClusterBinding binding, long now) {
        return binding.isDue(now, timeoutMillis(sessionId)) ? refresh(sessionId, stored, binding.serverId(), now)
                : binding.serverId();
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
        return bind(sessionId, server, now);
    }

    /**
     * The first live binding wins, mirrored here.
     *
     * @param arrivedMillis when the request came: what was live then is followed, however long the server held it
     */
    String bindAndMirror(String sessionId, String server, long arrivedMillis) {
        String winner = bind(sessionId, server, arrivedMillis);
        mirror(sessionId, winner);
        return winner;
    }

    /**
     * The first live binding wins; a dead one still stored is replaced atomically. Liveness is judged at the
     * request's arrival, not at the try: a request held up by a stalled server (seconds, then a retry) must follow
     * the binding a concurrent request made just before the stall, which is older than the timeout by the time the
     * retry reads it when the timeout is short; that binding is renewed (the held request is a use of it).
     */
    private String bind(String sessionId, String server, long arrivedMillis) {
        long now = Math.max(arrivedMillis, clock.getAsLong());
        long timeout = timeoutMillis(sessionId);
        String fresh = new ClusterBinding(server, now).encode();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            String previous = cluster.putIfAbsent(sessionId, fresh);
            if (previous == null) {
                return server;
            }
            ClusterBinding binding = ClusterBinding.decode(previous);
            if (binding != null && binding.isLive(arrivedMillis, timeout)) {
                return follow(sessionId, previous, binding, now);
            }
            if (cluster.replace(sessionId, previous, fresh)) {
                return server;
            }
        }
        LOG.debug("Session table cluster {}: no binding for {} after {} attempts", name, sessionId, MAX_ATTEMPTS);
        return server;
    }

    /**
     * Replaces a live binding to {@code expectedServerId}, mirrored here.
     *
     * @param rebound counted when this call replaced it
     */
    String rebindAndMirror(String sessionId, String expectedServerId, String newServerId, long arrivedMillis,
                           Runnable rebound) {
        String winner = rebind(sessionId, expectedServerId, newServerId, arrivedMillis, rebound);
        mirror(sessionId, winner);
        return winner;
    }

    /** As {@link #bind}, liveness is judged at the request's arrival. */
    private String rebind(String sessionId, String expectedServerId, String newServerId, long arrivedMillis,
                          Runnable rebound) {
        long now = Math.max(arrivedMillis, clock.getAsLong());
        String fresh = new ClusterBinding(newServerId, now).encode();
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            String stored = cluster.get(sessionId);
            ClusterBinding binding = ClusterBinding.decode(stored);
            if (binding == null || !binding.isLive(arrivedMillis, timeoutMillis(sessionId))) {
                return bind(sessionId, newServerId, arrivedMillis);
            }
            if (!binding.serverId().equals(expectedServerId)) {
                return binding.serverId(); // rebound concurrently: follow it
            }
            if (cluster.replace(sessionId, stored, fresh)) {
                rebound.run();
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

    /** The idle timeout of this entry, in milliseconds. */
    private long timeoutMillis(String sessionId) {
        return timeouts.forKey(sessionId).toMillis();
    }
}
