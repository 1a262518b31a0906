package org.jwd.balancing;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

import org.jwd.config.Durations;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;

/**
 * Logon group type {@code B}, best quality (the default): the member with the best quality gets the
 * dispatch, and the best member is the group's favorite.
 *
 * <p><b>Quality.</b> {@code quality = 1000 * capacity / (1 + f)}, where {@code f} is the member's requests
 * in flight as measured at the last recompute (every {@code rdisp/autoabaptime}), plus the dispatches it got
 * since the view was last refreshed. So a dispatch counts as one more request in flight, and the quality
 * falls by {@code delta = 1000 * capacity / ((1 + f) * (2 + f))}. An idle member's quality is 1000 per unit
 * of capacity; a member with a backlog starts lower and gets fewer dispatches until the others have taken
 * as many per capacity. Among members with equal load the shares follow the capacities, as in
 * {@link WeightedRoundRobin}. Qualities are compared exactly ({@code capacity_i * (1 + f_j)} against
 * {@code capacity_j * (1 + f_i)}), so equal qualities really tie and the view's random order decides.
 *
 * <pre>
 * capacities a=1, b=2, c=3, all idle, view order a b c  -> c b c a b c c b c a b c ...
 *   qualities before each pick (a b c): 1000 2000 3000 | 1000 2000 1500 | 1000 1000 1500 |
 *   1000 1000 1000 (tie: a) | 500 1000 1000 | 500 667 1000 | 500 667 750 | ...
 * capacities a=1, b=1, b had 3 requests in flight at the last recompute, view order b a
 *                                                       -> a a a b a b a b ...
 *   qualities (a b): 1000 250 | 500 250 | 333 250 | 250 250 (tie: b) | 250 200 | ...
 * </pre>
 *
 * <p>The estimate {@code f} is kept per member in the view and raised with a CAS; a refresh sets it back
 * to the last measurement, which is what SAP's view does with the deltas its dispatches took.
 */
final class BestQuality extends LogonGroupBalancer {
    /** the quality of an idle member per unit of capacity */
    static final long QUALITY_PER_CAPACITY = 1000;

    private final Duration autoAbapTime;

    BestQuality(ServerGroup group, Duration autoAbapTime, LongSupplier nanoTime, RandomGenerator random) {
        super(group, inFlight(group.members().toArray(new Server[0])), Math.max(1, Balancers.nanos(autoAbapTime)),
                nanoTime, random);
        this.autoAbapTime = autoAbapTime;
    }

    private static long[] inFlight(Server[] servers) {
        long[] f = new long[servers.length];
        for (int i = 0; i < servers.length; i++) {
            f[i] = Math.max(0, servers[i].inFlight());
        }
        return f;
    }

    @Override
    String type() {
        return "B";
    }

    @Override
    long[] measure() {
        return inFlight(servers);
    }

    /**
     * Does member i (capacity/(1+f), rank) rank before the best so far? Qualities exactly, by
     * cross-multiplying; equal ones by the view's random rank.
     */
    private static boolean better(int capacity, long f, int rank, int bestCapacity, long bestF, int bestRank) {
        long byQuality = capacity * (1 + bestF) - bestCapacity * (1 + f);
        return byQuality > 0 || (byQuality == 0 && rank < bestRank);
    }

    @Override
    int dispatch(View v) {
        final Server[] servers = this.servers;
        final int[] capacities = this.capacities;
        final int[] rank = v.rank;
        final AtomicLongArray estimates = v.state;
        for (;;) {
            int best = -1;
            long bestF = 0;
            for (int i = 0; i < servers.length; i++) {
                long f = estimates.get(i);
                // the state is read only for members that would rank first
                if ((best < 0 || better(capacities[i], f, rank[i], capacities[best], bestF, rank[best]))
                        && servers[i].takesNewRequests()) {
                    best = i;
                    bestF = f;
                }
            }
            if (best < 0) {
                return -1;
            }
            // Fails only if another dispatch went to this member since the scan; estimates only grow, so
            // an unchanged member is still the best.
            if (estimates.compareAndSet(best, bestF, bestF + 1)) {
                return best;
            }
        }
    }

    @Override
    int favorite(View v) {
        int best = -1;
        long bestF = 0;
        for (int i = 0; i < servers.length; i++) {
            long f = v.state.get(i);
            if ((best < 0 || better(capacities[i], f, v.rank[i], capacities[best], bestF, v.rank[best]))
                    && servers[i].takesNewRequests()) {
                best = i;
                bestF = f;
            }
        }
        return best;
    }

    @Override
    double quality(View v, int i) {
        return (double) QUALITY_PER_CAPACITY * capacities[i] / (1 + v.state.get(i));
    }

    @Override
    public String toString() {
        return super.toString() + ", qualities recomputed every " + Durations.format(autoAbapTime);
    }
}
