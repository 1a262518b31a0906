package org.jwd.proxy;

import org.eclipse.jetty.util.Callback;
import org.jwd.limits.BodyPace;

/**
 * What the servlet's reader of a client's body sees, chunk by chunk: the body is counted against
 * {@code icm/HTTP/max_request_size_KB} (a body without Content-Length may grow past it while it streams: it stops
 * there) and paced against {@code jwd.min_request_data_rate} ({@link BodyPace}: slower, it stops), and a failure
 * to read it (a bad chunk, a reset) is noted in the exchange, so that the answer blames the client. A failure on the way to the server reaches the reader too, but is not the client's.
 */
final class BodyCount {
    private final Exchange exchange;
    /** icm/HTTP/max_request_size_KB in bytes, or -1 */
    private final long limit;
    private final BodyPace pace;
    /** bytes read so far; Jetty hands the chunks over one at a time */
    private long read;
    private volatile boolean failedTowardsServer;

    /** @param minRate {@code jwd.min_request_data_rate} in bytes per second, 0 for none */
    BodyCount(Exchange exchange, long limit, long minRate) {
        this.exchange = exchange;
        this.limit = limit;
        this.pace = new BodyPace(minRate, exchange.timing().arrivedNanos);
    }

    /**
     * A chunk of {@code length} bytes was read; {@code written} is to be called once it went to the server.
     *
     * @return the callback to write the chunk with, or {@code null} when the body is too large now (then
     *         {@code written} has failed with {@link BodyTooLargeException}), or too slow (then with
     *         {@link BodyTooSlowException})
     */
    Callback chunk(int length, Callback written) {
        read += length;
        exchange.timing().received(length);
        if (limit >= 0 && read > limit) {
            written.failed(new BodyTooLargeException(limit));
            return null;
        }
        if (!pace.arrived(length, System.nanoTime())) {
            written.failed(new BodyTooSlowException(pace.minBytesPerSecond()));
            return null;
        }
        return Callback.from(written.getInvocationType(), () -> {
            pace.delivered(System.nanoTime());
            written.succeeded();
        }, failure -> {
            failedTowardsServer = true;
            written.failed(failure);
        });
    }

    /** The reader failed: reading the body did, unless writing a chunk towards the server did first. */
    void failed(Throwable failure) {
        if (!failedTowardsServer) {
            exchange.clientFailed(failure);
        }
    }
}
