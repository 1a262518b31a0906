package org.jwd.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One server's response times over the last minute, for the admin page's p50 and p99, as HAProxy's stats page
 * shows them: six slots of ten seconds, each a histogram of the time to the server's first byte and to its last.
 * A recording is two increments; a slot older than a minute is cleared by the first recording that reuses it.
 *
 * <p>Buckets grow by a quarter from 100 µs (100, 125, 156, ... µs; the last ends near 11 s, with one more for
 * anything longer): a quantile is reported as its bucket's upper bound, at most 25 % above the true value.
 */
public final class ResponseTimes {
    static final long SLOT_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final int SLOTS = 6;
    private static final double FIRST_BOUND_MICROS = 100;
    private static final double GROWTH = 1.25;
    private static final int BUCKETS = 53;
    private static final long[] BOUNDS_MICROS = new long[BUCKETS];

    static {
        for (int i = 0; i < BUCKETS; i++) {
            BOUNDS_MICROS[i] = Math.round(FIRST_BOUND_MICROS * Math.pow(GROWTH, i));
        }
    }

    /** p50 and p99 of the time to the first and the last byte, in milliseconds; {@code count} answers. */
    public record Quantiles(long count, double firstByteP50, double firstByteP99, double lastByteP50, double lastByteP99) {
    }

    /** which ten-second slot each slot holds now; guarded by this for writes */
    private final long[] slotOf = new long[SLOTS];
    /** slot * (BUCKETS + 1) + bucket, for the first byte and the last */
    private final AtomicLongArray firstByte = new AtomicLongArray(SLOTS * (BUCKETS + 1));
    private final AtomicLongArray lastByte = new AtomicLongArray(SLOTS * (BUCKETS + 1));

    ResponseTimes() {
        java.util.Arrays.fill(slotOf, -1);
    }

    void record(long firstByteNanos, long lastByteNanos, long nowNanos) {
        long slot = Math.floorDiv(nowNanos, SLOT_NANOS);
        int at = (int) Math.floorMod(slot, SLOTS);
        if (slotOf[at] != slot) {
            claim(at, slot);
        }
        int base = at * (BUCKETS + 1);
        firstByte.incrementAndGet(base + bucket(firstByteNanos));
        lastByte.incrementAndGet(base + bucket(lastByteNanos));
    }

    private synchronized void claim(int at, long slot) {
        if (slotOf[at] < slot) {
            int base = at * (BUCKETS + 1);
            for (int i = 0; i <= BUCKETS; i++) {
                firstByte.set(base + i, 0);
                lastByte.set(base + i, 0);
            }
            slotOf[at] = slot;
        }
    }

    /** The quantiles of the answers recorded in the minute before {@code nowNanos}. */
    synchronized Quantiles lastMinute(long nowNanos) {
        long slot = Math.floorDiv(nowNanos, SLOT_NANOS);
        long[] first = new long[BUCKETS + 1];
        long[] last = new long[BUCKETS + 1];
        long count = 0;
        for (int at = 0; at < SLOTS; at++) {
            if (slotOf[at] > slot - SLOTS && slotOf[at] <= slot) {
                int base = at * (BUCKETS + 1);
                for (int i = 0; i <= BUCKETS; i++) {
                    first[i] += firstByte.get(base + i);
                    last[i] += lastByte.get(base + i);
                    count += lastByte.get(base + i);
                }
            }
        }
        return new Quantiles(count, quantile(first, 0.5), quantile(first, 0.99), quantile(last, 0.5),
                quantile(last, 0.99));
    }

    /** In milliseconds: the upper bound of the bucket the quantile falls in; 0 without answers. */
    private static double quantile(long[] counts, double q) {
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                // past the last bound: reported as the last bound, the page's "at least"
                return BOUNDS_MICROS[Math.min(i, BUCKETS - 1)] / 1000.0;
            }
        }
        return BOUNDS_MICROS[BUCKETS - 1] / 1000.0;
    }

    static int bucket(long nanos) {
        double micros = nanos / 1000.0;
        if (micros <= FIRST_BOUND_MICROS) {
            return 0;
        }
        int i = (int) Math.min(BUCKETS, Math.ceil(Math.log(micros / FIRST_BOUND_MICROS) / Math.log(GROWTH) - 1e-9));
        while (i < BUCKETS && BOUNDS_MICROS[i] < micros) {
            i++;
        }
        while (i > 0 && BOUNDS_MICROS[i - 1] >= micros) {
            i--;
        }
        return i;
    }
}
