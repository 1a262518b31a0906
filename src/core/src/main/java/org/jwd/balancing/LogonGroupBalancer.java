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
 * member's delta. The subclasses say what a quality is and how a dispatch lowers it. It chooses a group's HTTP
 * requests only when the group opts in ({@code http_balancing=quality}); otherwise {@link LogonGroupByCapacity}
 * keeps it for its view, which the admin page and {@code lgtst} report.
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
 * <p><b>A pick</b> reads the injected clock (the only source of time), the view (one volatile read), scans
 * the members' qualities as plain longs (higher is better; equal ones by the view's rank) and lowers the
 * best one with a CAS of the value it scanned. Qualities only fall, so a member whose quality is unchanged
 * at the CAS is still the best; when another thread got there first, the second best of the same scan is
 * taken if it now ranks first, else the scan is repeated. A refresh allocates a new view, built by one
 * thread at a time (the others keep using the old view meanwhile, without waiting), which also keeps the
 * random generator, which need not be thread-safe, to one thread.
 */
abstract class LogonGroupBalancer implements Balancer {
    final ServerGroup group;
    final Server[] servers;
    final int[] capacities;
    /** whether the group's requests go over HTTPS: then a member takes them by its HTTPS port's health */
    private final boolean secure;
    private final boolean extRfc;
    private final long refreshNanos;
    private final int refreshDispatches;
    /** how often base qualities are recomputed from load, or 0 when they never change */
    private final long recomputeNanos;
    private final LongSupplier nanoTime;
    private final RandomGenerator random;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile View view;
    /** Run between a dispatch's ranking and its claim; tests place a concurrent pick there ({@link #afterRank}). */
    private Runnable ranked = () -> { };

    /** One refresh's worth of state, replaced whole. */
    static final class View {
        /** per member: its place in the view's random order; among equal qualities the lower rank wins */
        final int[] rank;
        /** per member: the quality, as the subclass encodes it in a long (higher is better) */
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
        this.secure = group.secure();
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

    /** Member i's quality after one more dispatch, from {@code quality} before it. */
    abstract long lowered(int i, long quality);

    /** A quality as the admin page shows it. */
    abstract double display(long quality);

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

    /** Chooses the best member of the view that takes new requests and lowers its quality; -1 when none. */
    private int dispatch(View v) {
        final AtomicLongArray qualities = v.state;
        Podium podium = new Podium();
        for (;;) {
            rank(v, podium);
            ranked.run();
            int best = podium.best;
            if (best < 0) {
                return -1;
            }
            if (qualities.compareAndSet(best, podium.bestKey, lowered(best, podium.bestKey))) {
                return best;
            }
            // Another thread dispatched to the best one first (common with two threads on one group): the
            // second best is the best now, unless the first still is even after that dispatch.
            int second = podium.second;
            if (second >= 0 && outranks(podium.secondKey, podium.secondTie, qualities.get(best), podium.bestTie)
                    && qualities.compareAndSet(second, podium.secondKey, lowered(second, podium.secondKey))) {
                return second;
            }
        }
    }

    /**
     * For tests: {@code action} runs after each ranking, before the dispatch claims the member it found, where
     * another thread's pick can take that member first. Not thread-safe: set before the picks.
     */
    void afterRank(Runnable action) {
        this.ranked = action;
    }

    /** Ranks the best and second best member that take new requests, by quality (key) and rank (tie). */
    private void rank(View v, Podium podium) {
        final Server[] servers = this.servers;
        final int[] rank = v.rank;
        final AtomicLongArray qualities = v.state;
        podium.clear();
        for (int i = 0; i < servers.length; i++) {
            // A plain read: the scan needs no ordering among the members, and the CAS checks the chosen one.
            long q = qualities.getPlain(i);
            int r = rank[i];
            // the state is read only for members that would rank: most members cost two array reads
            if (podium.best < 0 || outranks(q, r, podium.bestKey, podium.bestTie)) {
                if (servers[i].takesNewRequests(secure)) {
                    podium.newBest(i, q, r);
                }
            } else if ((podium.second < 0 || outranks(q, r, podium.secondKey, podium.secondTie))
                    && servers[i].takesNewRequests(secure)) {
                podium.newSecond(i, q, r);
            }
        }
    }

    /** A higher quality wins; among equal qualities the lower rank, the view's random order. */
    private static boolean outranks(long quality, long rank, long otherQuality, long otherRank) {
        return quality > otherQuality || (quality == otherQuality && rank < otherRank);
    }

    /** The best member of the view that takes new requests, unchanged; -1 when none. */
    private int favorite(View v) {
        int best = -1;
        long bestQuality = 0;
        int bestRank = 0;
        for (int i = 0; i < servers.length; i++) {
            long q = v.state.get(i);
            int r = v.rank[i];
            if ((best < 0 || outranks(q, r, bestQuality, bestRank)) && servers[i].takesNewRequests(secure)) {
                best = i;
                bestQuality = q;
                bestRank = r;
            }
        }
        return best;
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
        int[] ranks = new int[n];
        for (int i = 0; i < n; i++) {
            ranks[i] = i;
        }
        for (int i = 0; i < n - 1; i++) {
            int j = i + Balancers.uniform(random, n - i);
            int t = ranks[i];
            ranks[i] = ranks[j];
            ranks[j] = t;
        }
        return ranks;
    }

    /**
     * Weights are qualities (higher is better); the favorite is the member the next pick would choose. The
     * quality view is the same figures: here the message server's view is what balances.
     */
    @Override
    public final BalancerSnapshot snapshot() {
        BalancerSnapshot s = snapshot(view);
        return s.withQualityView(s);
    }

    /**
     * The view as it is now, without a dispatch, for a group whose HTTP requests another balancer chooses: it
     * is refreshed first when due, as a pick would, so that its type {@code B} qualities are still recomputed
     * from load and equal qualities reordered, although no pick ever comes.
     */
    final BalancerSnapshot currentView() {
        View v = view;
        long now = nanoTime.getAsLong();
        if (due(v, now)) {
            v = refresh(v, now);
        }
        return snapshot(v);
    }

    private BalancerSnapshot snapshot(View v) {
        List<BalancerSnapshot.Member> members = new ArrayList<>(servers.length);
        for (int i = 0; i < servers.length; i++) {
            Server s = servers[i];
            members.add(new BalancerSnapshot.Member(s.id(), capacities[i], display(v.state.get(i)), s.inFlight(),
                    s.served()));
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
