package org.jwd.balancing;

import java.util.Arrays;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

import org.jwd.topology.ServerGroup;

/**
 * Logon group types {@code R} and {@code W}: fixed qualities, restored at each refresh of the view, and
 * a fixed delta per member.
 *
 * <ul>
 * <li>{@code R} round robin: every member has quality 1000 and delta 1, so equal members take turns in the
 *     view's random order, whatever their capacities:
 * <pre>
 * a, b, c, view order a b c  -> a b c a b c ...   (qualities 1000 1000 1000 -> 999 999 999 -> ...)
 * </pre>
 * <li>{@code W} weighted round robin: every member has quality 10,000,000 and delta 10,000/capacity
 *     (integer division), so the shares follow the capacities:
 * <pre>
 * capacities a=1, b=2, c=3, view order a b c  -> a b c c b c c a b c ...
 *   qualities before each pick, minus 9,980,000 (a b c): 20000 20000 20000 | 10000 20000 20000 |
 *   10000 15000 20000 | 10000 15000 16667 | 10000 15000 13334 | 10000 10000 13334 | 10000 10000 10001 | ...
 * </pre>
 * </ul>
 */
final class QualityRoundRobin extends LogonGroupBalancer {
    static final long R_QUALITY = 1000;
    static final long R_DELTA = 1;
    static final long W_QUALITY = 10_000_000;
    static final long W_DELTA = 10_000;

    private final String type;
    private final long[] deltas;

    private QualityRoundRobin(String type, ServerGroup group, long quality, long[] deltas, LongSupplier nanoTime,
                              RandomGenerator random) {
        super(group, filled(group.members().size(), quality), 0, nanoTime, random);
        this.type = type;
        this.deltas = deltas;
    }

    static QualityRoundRobin roundRobin(ServerGroup group, LongSupplier nanoTime, RandomGenerator random) {
        return new QualityRoundRobin("R", group, R_QUALITY, filled(group.members().size(), R_DELTA), nanoTime,
                random);
    }

    static QualityRoundRobin weighted(ServerGroup group, LongSupplier nanoTime, RandomGenerator random) {
        long[] deltas = new long[group.members().size()];
        for (int i = 0; i < deltas.length; i++) {
            deltas[i] = Math.max(1, W_DELTA / Math.max(1, group.members().get(i).capacity()));
        }
        return new QualityRoundRobin("W", group, W_QUALITY, deltas, nanoTime, random);
    }

    private static long[] filled(int n, long value) {
        long[] a = new long[n];
        Arrays.fill(a, value);
        return a;
    }

    @Override
    String type() {
        return type;
    }

    /** The quality is kept as it is; it may go below zero when a refresh is long in coming, which is fine. */
    @Override
    long lowered(int i, long quality) {
        return quality - deltas[i];
    }

    @Override
    double display(long quality) {
        return quality;
    }

    @Override
    public String toString() {
        return super.toString() + ", deltas " + Arrays.toString(deltas);
    }
}
