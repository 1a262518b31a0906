package org.jwd.balancing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.random.RandomGenerator;

import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;

/**
 * {@code weighted_round_robin}, the default: the member with the lowest load factor gets the next request,
 * and assigning it raises that member's load factor by {@code 1/capacity}. A member's load factor counts
 * the request being assigned, so it starts at {@code 1/capacity}: the big members go first and the small
 * ones are spread between them instead of all members tying at zero.
 *
 * <pre>
 * capacities a=1, b=2, c=3, nothing in flight, scan starting at a  -> c b c a b c c b c a b c ...
 *   load factors before each pick (a b c): 1 .5 .33 | 1 .5 .67 | 1 1 .67 | 1 1 1 (tie: a) | 2 1 1 | ...
 * the same with b down or drained                                -> c c a c c c a c ...
 * </pre>
 *
 * <p><b>Requests in flight act on the rate.</b> Members are ordered first by {@code inFlight/capacity}
 * (read live from {@link Server#inFlight()}), and only then by load factor. Adding the in-flight count to
 * an ever-growing load factor would not do: a slow server's constant backlog is a constant offset, and a
 * constant offset leaves its share of new requests unchanged. As primary key it does change it: while a
 * member holds more requests per capacity than another, it gets none, so a member that answers slowly gets
 * fewer new requests for as long as it is slow. With nothing in flight (sequential requests) every member
 * ties on the first key, and the load factors alone give the exact, smooth sequence above. (This is the
 * rule of nginx's {@code least_conn} with weights: fewest connections per weight, ties by weighted round
 * robin.)
 *
 * <p><b>Ties.</b> The scan starts at a random member, fixed per balancer, so equal members do not all
 * receive the first request of every freshly started dispatcher. Simultaneous picks cannot all choose the
 * same member either: a pick raises the load factor with a compare-and-set of the value it scanned, and a
 * thread whose CAS fails scans again and sees the raised value.
 *
 * <p><b>Bounded load factors.</b> Load factors are integers in units of {@code 1/scale}, where scale is
 * the least common multiple of the capacities (up to 2<sup>40</sup>), so {@code 1/capacity} is exact. They
 * are only ever compared by their difference, as TCP compares sequence numbers, so the stored values may
 * wrap around {@code Long.MAX_VALUE}; what must stay bounded is their spread. A member that was down, or
 * held back by its requests in flight, falls behind; were it credited for all that time it would receive
 * every request until it caught up. So when it is picked it is first lifted to {@link #SLACK_ROUNDS}
 * rounds (load factor 2) below the highest load factor, and a renormalization pass, run whenever a load
 * factor crosses a multiple of 2<sup>10</sup> to 2<sup>11</sup> rounds (rare enough to cost nothing per
 * pick), lifts the members that take no requests in the same way. The smooth sequence never spreads more
 * than one round, so the lift never changes it when nothing is held in flight.
 *
 * <p>A pick is one scan over the members without allocation plus one CAS: lock-free. The scan also keeps
 * the second best member, so a thread that loses the CAS to another thread picking the same member
 * usually takes the second best instead of scanning again.
 */
final class WeightedRoundRobin implements Balancer {
    /** how far, in rounds (load factor 1), a member may lag behind the leader */
    static final int SLACK_ROUNDS = 2;
    private static final long MAX_SCALE = 1L << 40;

    private final ServerGroup group;
    private final Server[] servers;
    /** whether the group's requests go over HTTPS: then a member takes them by its HTTPS port's health */
    private final boolean secure;
    private final int[] capacities;
    /** 1/capacity in units of 1/scale */
    private final long[] steps;
    private final long scale;
    private final long slack;
    /** renormalize whenever a load factor crosses a multiple of 2^renormalizeBit (about 1024 rounds) */
    private final int renormalizeBit;
    /** where each scan starts, so that ties go to a random member, different for each balancer */
    private final int offset;
    private final AtomicLongArray loadFactors;
    /** Run between a pick's scan and its claim; tests place a concurrent pick there ({@link #afterScan}). */
    private Runnable scanned = () -> { };

    WeightedRoundRobin(ServerGroup group, RandomGenerator random) {
        this(group, group.members().isEmpty() ? 0 : Balancers.uniform(random, group.members().size()), 0L);
    }

    /** @param origin where load factors start counting: lets tests begin just below the wrap-around */
    WeightedRoundRobin(ServerGroup group, int offset, long origin) {
        this.group = group;
        this.servers = group.members().toArray(new Server[0]);
        this.secure = group.secure();
        int n = servers.length;
        this.capacities = new int[n];
        long lcm = 1;
        for (int i = 0; i < n; i++) {
            capacities[i] = Math.max(1, servers[i].capacity());
            long factor = capacities[i] / gcd(lcm, capacities[i]);
            lcm = lcm > MAX_SCALE / factor ? MAX_SCALE + 1 : lcm * factor;
        }
        // exact steps while the lcm is small enough; otherwise steps rounded to 1 part in 2^40/capacity
        this.scale = Math.min(lcm, MAX_SCALE);
        this.slack = SLACK_ROUNDS * scale;
        this.renormalizeBit = 64 - Long.numberOfLeadingZeros(scale) + 10;
        this.steps = new long[n];
        this.loadFactors = new AtomicLongArray(n);
        for (int i = 0; i < n; i++) {
            steps[i] = Math.max(1, Math.round((double) scale / capacities[i]));
            loadFactors.set(i, origin + steps[i]);
        }
        this.offset = n == 0 ? 0 : Math.floorMod(offset, n);
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** Is member i (flight, cap, lf) preferable to the best so far? Fewer in flight per capacity, then lower lf. */
    private static boolean better(int flight, int cap, long lf, int bestFlight, int bestCap, long bestLf) {
        long byFlight = (long) flight * bestCap - (long) bestFlight * cap;
        return byFlight < 0 || (byFlight == 0 && lf - bestLf < 0);
    }

    @Override
    public Server pick() {
        Podium podium = new Podium();
        for (;;) {
            long max = scan(podium);
            scanned.run();
            int best = podium.best;
            if (best < 0) {
                return null;
            }
            // Succeeds only if nobody assigned to this member since the scan; all other load factors can only
            // have grown meanwhile, so it still is the lowest.
            long floor = max - slack;
            if (assign(best, podium.bestTie, floor)) {
                return servers[best];
            }
            // Another thread took the best one first (with two threads on one balancer this is common). The
            // second best is now the lowest, unless the best still is even after its step: no need to scan.
            int second = podium.second;
            if (second >= 0 && better((int) podium.secondKey, capacities[second], podium.secondTie,
                    servers[best].inFlight(), capacities[best], loadFactors.get(best))
                    && assign(second, podium.secondTie, floor)) {
                return servers[second];
            }
        }
    }

    /**
     * Ranks the best and second best member that take new requests, by requests in flight (key) and load factor
     * (tie), into the podium; returns the highest load factor of all members.
     */
    private long scan(Podium podium) {
        final Server[] servers = this.servers;
        final int[] capacities = this.capacities;
        final int n = servers.length;
        podium.clear();
        long max = 0;
        for (int k = 0, i = offset; k < n; k++, i = i + 1 == n ? 0 : i + 1) {
            long lf = loadFactors.get(i);
            if (k == 0 || lf - max > 0) {
                max = lf;
            }
            // Against a rival with nothing in flight, a member with a load factor no lower cannot win:
            // skip it without reading its in-flight count and state, two pointer hops into the Server.
            // Under light load this leaves most members at one read of this array.
            if (podium.second >= 0 && podium.secondKey == 0 && lf - podium.secondTie >= 0) {
                continue;
            }
            Server s = servers[i];
            int flight = s.inFlight();
            // the state, too, is read only for members that would rank
            if (podium.best < 0 || better(flight, capacities[i], lf,
                    (int) podium.bestKey, capacities[podium.best], podium.bestTie)) {
                if (s.takesNewRequests(secure)) {
                    podium.newBest(i, flight, lf);
                }
            } else if ((podium.second < 0 || better(flight, capacities[i], lf,
                    (int) podium.secondKey, capacities[podium.second], podium.secondTie))
                    && s.takesNewRequests(secure)) {
                podium.newSecond(i, flight, lf);
            }
        }
        return max;
    }

    /**
     * For tests: {@code action} runs after each scan, before the pick claims the member it found, where another
     * thread's pick can take that member first. Not thread-safe: set before the picks.
     */
    void afterScan(Runnable action) {
        this.scanned = action;
    }

    /** Raises member i's load factor by one step if it is still {@code seen}; a laggard is lifted to floor first. */
    private boolean assign(int i, long seen, long floor) {
        // A laggard is lifted before the step, so it catches up with at most SLACK_ROUNDS*capacity picks.
        long next = (seen - floor < 0 ? floor : seen) + steps[i];
        if (!loadFactors.compareAndSet(i, seen, next)) {
            return false;
        }
        if (((seen ^ next) >>> renormalizeBit) != 0) {
            renormalize();
        }
        return true;
    }

    /** Lifts members that lag far behind the leader, so the spread stays bounded even for members down for years. */
    private void renormalize() {
        long max = loadFactors.get(0);
        for (int i = 1; i < servers.length; i++) {
            long lf = loadFactors.get(i);
            if (lf - max > 0) {
                max = lf;
            }
        }
        for (int i = 0; i < servers.length; i++) {
            long lf = loadFactors.get(i);
            if (max - lf > 2 * slack) {
                // losing the race to a pick is fine: that pick lifted it itself
                loadFactors.compareAndSet(i, lf, max - slack);
            }
        }
    }

    /** The raw load factor of member i, in units of 1/{@link #scale()}; for tests. */
    long rawLoadFactor(int i) {
        return loadFactors.get(i);
    }

    /** 1/capacity of member i in units of 1/{@link #scale()}; for tests. */
    long step(int i) {
        return steps[i];
    }

    /** How often, in units of 1/{@link #scale()}, a renormalization pass runs at the least; for tests. */
    long renormalizeInterval() {
        return 1L << renormalizeBit;
    }

    long scale() {
        return scale;
    }

    /**
     * Weights are load factors in rounds, relative to the lowest member's (lagging members counted as
     * lifted), so they stay small however long the dispatcher runs. The favorite is the member the next
     * pick would choose given the requests in flight now.
     */
    @Override
    public BalancerSnapshot snapshot() {
        int n = servers.length;
        long[] lf = new long[n];
        int[] flight = new int[n];
        long max = 0;
        for (int i = 0; i < n; i++) {
            lf[i] = loadFactors.get(i);
            flight[i] = servers[i].inFlight();
            if (i == 0 || lf[i] - max > 0) {
                max = lf[i];
            }
        }
        long floor = max - slack;
        long min = max;
        for (int i = 0; i < n; i++) {
            if (lf[i] - floor < 0) {
                lf[i] = floor;
            }
            if (lf[i] - min < 0) {
                min = lf[i];
            }
        }
        List<BalancerSnapshot.Member> members = new ArrayList<>(n);
        int best = -1;
        for (int k = 0, i = offset; k < n; k++, i = i + 1 == n ? 0 : i + 1) {
            if (servers[i].takesNewRequests(secure) && (best < 0
                    || better(flight[i], capacities[i], lf[i], flight[best], capacities[best], lf[best]))) {
                best = i;
            }
        }
        for (int i = 0; i < n; i++) {
            Server s = servers[i];
            members.add(new BalancerSnapshot.Member(s.id(), capacities[i], (double) (lf[i] - min) / scale,
                    flight[i], s.served()));
        }
        return new BalancerSnapshot(DispatcherConfig.WEIGHTED_ROUND_ROBIN, members,
                best < 0 ? null : servers[best].id());
    }

    @Override
    public String toString() {
        return DispatcherConfig.WEIGHTED_ROUND_ROBIN + " over " + group + " capacities "
                + Arrays.toString(capacities) + ", ties from " + (servers.length == 0 ? "-" : servers[offset].id());
    }
}
