package org.jwd.balancing;

import java.time.Duration;
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
 * {@link WeightedRoundRobin}. Equal fractions give equal qualities (division is correctly rounded), so
 * equal qualities really tie and the view's random order decides.
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
 * <p>A refresh sets the qualities back to the last measurement, which is what SAP's view does with the
 * deltas its dispatches took.
 */
final class BestQuality extends LogonGroupBalancer {
    /** the quality of an idle member per unit of capacity */
    static final double QUALITY_PER_CAPACITY = 1000;

    private final Duration autoAbapTime;

    BestQuality(ServerGroup group, Duration autoAbapTime, LongSupplier nanoTime, RandomGenerator random) {
        super(group, measure(group.members().toArray(new Server[0])), Math.max(1, Balancers.nanos(autoAbapTime)),
                nanoTime, random);
        this.autoAbapTime = autoAbapTime;
    }

    private static long[] measure(Server[] servers) {
        long[] qualities = new long[servers.length];
        for (int i = 0; i < servers.length; i++) {
            qualities[i] = quality(Math.max(1, servers[i].capacity()), Math.max(0, servers[i].inFlight()));
        }
        return qualities;
    }

    /**
     * The quality as the raw bits of a positive double: for positive doubles these order as the values do,
     * so the scan compares plain longs. Division is correctly rounded, so equal fractions give equal bits.
     */
    private static long quality(int capacity, long f) {
        return Double.doubleToRawLongBits(QUALITY_PER_CAPACITY * capacity / (1 + f));
    }

    @Override
    String type() {
        return "B";
    }

    @Override
    long[] measure() {
        return measure(servers);
    }

    /** One more request in flight: f is recovered from the quality exactly (the error is far below 1/2). */
    @Override
    long lowered(int i, long quality) {
        long f = Math.round(QUALITY_PER_CAPACITY * capacities[i] / Double.longBitsToDouble(quality)) - 1;
        return quality(capacities[i], f + 1);
    }

    @Override
    double display(long quality) {
        return Double.longBitsToDouble(quality);
    }

    @Override
    public String toString() {
        return super.toString() + ", qualities recomputed every " + Durations.format(autoAbapTime);
    }
}
