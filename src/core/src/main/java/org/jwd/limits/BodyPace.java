package org.jwd.limits;

/**
 * Whether a request's body keeps up with {@code jwd.min_request_data_rate}. Only the time jwd waits for the client
 * counts: from the request's arrival, and from each chunk's delivery towards the server to the next chunk's arrival.
 * The time a chunk waits for a slow server (flow control) is not the client's fault and is left out. The first second
 * is a grace: a small body in two packets a few hundred milliseconds apart is not cut off.
 *
 * <pre>
 * 1024 bytes/s: 20 bytes at 0 s, 20 more at 5 s        -> 40 &lt; 1024 x (5 - 1): too slow, at 5 s
 *               100 bytes at 0 s, 100 more at 0.8 s    -> within the grace: kept
 *               64 KB at once, a server that takes 1 minute to read it, 64 KB more at once -> kept
 * </pre>
 *
 * <p>Not thread-safe beyond what the body's reader guarantees: one chunk at a time, each delivered before the next is
 * read (hence the volatile fields: delivery and arrival may run on different threads).
 */
public final class BodyPace {
    private static final long GRACE_NANOS = 1_000_000_000L;

    private final long minBytesPerSecond;
    private volatile long waitedNanos;
    private volatile long readySince;
    private volatile long bytes;

    /**
     * @param minBytesPerSecond {@code jwd.min_request_data_rate}; 0 for no check
     * @param startNanos        when jwd began to wait for the body (the request's arrival), in {@link System#nanoTime}
     */
    public BodyPace(long minBytesPerSecond, long startNanos) {
        this.minBytesPerSecond = minBytesPerSecond;
        this.readySince = startNanos;
    }

    /**
     * A chunk of {@code length} bytes arrived at {@code nowNanos}.
     *
     * @return false when the body so far came slower than the minimum
     */
    public boolean arrived(long length, long nowNanos) {
        waitedNanos += nowNanos - readySince;
        bytes += length;
        return minBytesPerSecond <= 0 || waitedNanos <= GRACE_NANOS
                || bytes >= (double) minBytesPerSecond * (waitedNanos - GRACE_NANOS) / 1e9;
    }

    /** The last chunk went towards the server at {@code nowNanos}: jwd waits for the client again. */
    public void delivered(long nowNanos) {
        readySince = nowNanos;
    }

    public long minBytesPerSecond() {
        return minBytesPerSecond;
    }
}
