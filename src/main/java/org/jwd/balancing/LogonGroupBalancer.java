package org.jwd.balancing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

import org.jwd.config.Durations;
import org.jwd.config.LogonGroupConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;

/**
 * What the logon group types {@code B}, {@code R} and {@code W} share: SAP's message server view of a
 * group. Each member has a quality; the best quality gets the dispatch and its quality falls by the
 * member's delta. The subclasses say what a quality is and how it falls.
 *
 * <p><b>The view</b> holds the qualities and the order in which equal qualities win. It is refreshed every
 * {@code refresh} or after {@code refresh_dispatches} dispatches, whichever comes first: the qualities start
 * again from the group's current base qualities (the deltas the dispatches took are forgotten) and the
 * order is shuffled, so equal qualities are reordered at random and simultaneous starts do not all choose
 * one server. Base qualities that depend on load ({@code B}) are recomputed every
 * {@code rdisp/autoabaptime}; a recompute also refreshes the view. Whether a member takes new requests is
 * read live at each pick, so a member that goes down is never chosen, not even until the next refresh.
 *
 * <p><b>{@code ext_rfc=false}</b>: every dispatch goes to the favorite, the member the view ranks best; the
 * qualities do not fall, so the favorite only changes at a refresh, or when it stops taking requests.
 *
 * <p>Time comes only from the injected clock. A pick reads the clock, the view (one volatile read), scans
 * the members and changes one quality with a CAS; the refresh allocates a new view, built by one thread at
 * a time (the others keep using the old view meanwhile, without waiting), which is also what keeps the
 * non-thread-safe random generator to one thread.
 */
abstract class LogonGroupBalancer implements Balancer {
    final ServerGroup group;
    final Server[] servers;
    final int[] capacities;
    private final boolean extRfc;
    private final long refreshNanos;
    private final int refreshDispatches;
    /** how often base qualities are recomputed from load, or 0 when they never change */
    private final long recomputeNanos;
    private final LongSupplier nanoTime;
    private final RandomGenerator random;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile View view;

    /** One refresh's worth of state, replaced whole. */
    static final class View {
        /** per member: its place in the view's random order; among equal qualities the lower rank wins */
        final int[] rank;
        /** per member: the quality, or what the subclass keeps instead */
        final AtomicLongArray state;
        /** what {@link #state} starts from at each refresh until the next recompute */
        final long[] base;
        final long refreshAt;
        final long recomputeAt;
        final AtomicInteger dispatches = new AtomicInteger();

        View(int[] rank, long[] base, long refreshAt, long recomputeAt) {
            this.rank = rank;
            this.state = new AtomicLongArray(base);
            this.base = base;
            this.refreshAt = refreshAt;
            this.recomputeAt = recomputeAt;
        }
    }

    /**
     * @param initialBase    the base state at start (subclasses compute it before their own fields exist)
     * @param recomputeNanos how often {@link #measure()} is called, or 0 for never
     */
    LogonGroupBalancer(ServerGroup group, long[] initialBase, long recomputeNanos, LongSupplier nanoTime,
                       RandomGenerator random) {
        LogonGroupConfig lg = group.logonGroup();
        this.group = group;
        this.servers = group.members().toArray(new Server[0]);
        this.capacities = capacities(servers);
        this.extRfc = lg.extRfc();
        this.refreshNanos = Balancers.nanos(lg.refresh());
        this.refreshDispatches = Math.max(1, lg.refreshDispatches());
        this.recomputeNanos = recomputeNanos;
        this.nanoTime = nanoTime;
        this.random = random;
        long now = nanoTime.getAsLong();
        this.view = new View(randomRanks(), initialBase, now + refreshNanos, now + recomputeNanos);
    }

    static int[] capacities(Server[] servers) {
        int[] caps = new int[servers.length];
        for (int i = 0; i < servers.length; i++) {
            caps[i] = Math.max(1, servers[i].capacity());
        }
        return caps;
    }

    /** {@code B}, {@code R} or {@code W}. */
    abstract String type();

    /** Chooses the best member of the view that takes new requests and takes its delta; -1 when none. */
    abstract int dispatch(View view);

    /** The best member of the view that takes new requests, unchanged; -1 when none. */
    abstract int favorite(View view);

    /** Member i's quality in this view, as the admin page shows it. */
    abstract double quality(View view, int i);

    /** New base state from the members' load; only called when a recompute interval was given. */
    long[] measure() {
        throw new UnsupportedOperationException(type() + " has fixed qualities");
    }

    @Override
    public final Server pick() {
        View v = view;
        long now = nanoTime.getAsLong();
        if (due(v, now)) {
            v = refresh(v, now);
        }
        int i = extRfc ? dispatch(v) : favorite(v);
        if (i < 0) {
            return null;
        }
        v.dispatches.incrementAndGet();
        return servers[i];
    }

    private boolean due(View v, long now) {
        return v.dispatches.get() >= refreshDispatches || now - v.refreshAt >= 0
                || (recomputeNanos > 0 && now - v.recomputeAt >= 0);
    }

    private View refresh(View seen, long now) {
        if (!refreshing.compareAndSet(false, true)) {
            return seen; // another thread is building the next view; this pick uses the current one
        }
        try {
            View current = view;
            if (current != seen && !due(current, now)) {
                return current; // refreshed by another thread since this pick looked
            }
            boolean recompute = recomputeNanos > 0 && now - current.recomputeAt >= 0;
            long[] base = recompute ? measure() : current.base;
            long recomputeAt = recompute ? now + recomputeNanos : current.recomputeAt;
            View next = new View(randomRanks(), base, now + refreshNanos, recomputeAt);
            view = next;
            return next;
        } finally {
            refreshing.set(false);
        }
    }

    /**
     * A random permutation: Fisher-Yates from the front, so a generator that always answers 0 keeps the
     * group's order. Ranks rather than a shuffled list of members, so that scans still walk the members'
     * arrays in order, which is what the hardware prefetches.
     */
    private int[] randomRanks() {
        int n = servers.length;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = 0; i < n - 1; i++) {
            int j = i + Balancers.uniform(random, n - i);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    /** Weights are qualities (higher is better); the favorite is the member the next pick would choose. */
    @Override
    public final BalancerSnapshot snapshot() {
        View v = view;
        List<BalancerSnapshot.Member> members = new ArrayList<>(servers.length);
        for (int i = 0; i < servers.length; i++) {
            Server s = servers[i];
            members.add(new BalancerSnapshot.Member(s.id(), capacities[i], quality(v, i), s.inFlight(), s.served()));
        }
        int favorite = favorite(v);
        return new BalancerSnapshot(type(), members, favorite < 0 ? null : servers[favorite].id());
    }

    @Override
    public String toString() {
        View v = view;
        String[] byRank = new String[servers.length];
        for (int i = 0; i < servers.length; i++) {
            byRank[v.rank[i]] = servers[i].id();
        }
        String order = String.join(" ", byRank);
        return "logon group " + group.name() + " type " + type() + (extRfc ? "" : " (ext_rfc off: favorite only)")
                + " over " + Arrays.stream(servers).map(Server::id).toList()
                + ", refresh " + Durations.format(group.logonGroup().refresh()) + " or " + refreshDispatches
                + " dispatches (" + v.dispatches.get() + " so far), tie order [" + order + "]";
    }
}
