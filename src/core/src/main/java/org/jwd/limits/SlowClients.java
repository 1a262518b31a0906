package org.jwd.limits;

import org.jwd.config.KeyReader;
import org.jwd.config.ValueSyntax;

/**
 * What a slow client may hold of jwd and of the servers behind it. A request's body is read up to
 * {@code requestBufferSize} before the request takes one of its server's connections, so that a body that trickles
 * holds a client connection and a few bytes, never a server's connection; a larger body streams on from there. A body
 * that arrives slower than {@code minRequestDataRate} ({@link BodyPace}) is cut off with 408, so that a trickling
 * client does not hold even its own connection for long.
 *
 * <pre>
 * defaults, a POST of 8 KB arriving at 10 bytes every 5 s:
 *   buffered while it trickles (no server connection taken); 408 at its second chunk (too slow)
 * a POST of 8 KB arriving at once     -> buffered whole, then sent: the server's connection is busy for
 *                                        its answer alone
 * an upload of 100 MB                 -> the first 64 KB buffered, then the rest streams to the server
 * </pre>
 *
 * <p>Jetty 12.1's own minimum data rates ({@code MinimumDataRateHandler}) are not used: they divide the bytes of
 * all requests by one request's time, so under any other traffic a trickling body looks fast.
 *
 * @param requestBufferSize  {@code jwd.request_buffer_size}: bytes of a body read before its server is asked for a
 *                           connection; 0 streams every body from its first byte
 * @param minRequestDataRate {@code jwd.min_request_data_rate}: bytes per second a body must arrive at while jwd waits
 *                           for it, after a first second of grace; 0 for none
 */
public record SlowClients(int requestBufferSize, long minRequestDataRate) {
    public static final String REQUEST_BUFFER_SIZE = "jwd.request_buffer_size";
    public static final String MIN_REQUEST_DATA_RATE = "jwd.min_request_data_rate";
    public static final int DEFAULT_REQUEST_BUFFER_SIZE = 64 * 1024;
    public static final long DEFAULT_MIN_REQUEST_DATA_RATE = 1024;
    /** A buffer per request in flight: more than a few megabytes each would let a few thousand clients fill a heap. */
    private static final int MAX_REQUEST_BUFFER_SIZE = 16 * 1024 * 1024;
    private static final long MAX_RATE = 1024L * 1024 * 1024;

    /** Reads the keys; both apply to the requests that arrive after a reload. */
    public static SlowClients read(KeyReader keys) {
        int buffer = (int) keys.size(REQUEST_BUFFER_SIZE, DEFAULT_REQUEST_BUFFER_SIZE, 0, MAX_REQUEST_BUFFER_SIZE,
                "a size up to 16MB: bytes, or a number with a unit (16KB, 1MB); 0 streams every body at once");
        long rate = keys.value(MIN_REQUEST_DATA_RATE, DEFAULT_MIN_REQUEST_DATA_RATE,
                "bytes per second up to 1GB/s, a number or with a unit (512, 1KB/s, 1MB/s); 0 for none", text -> {
                    Long n = ValueSyntax.bytesPerSecond(text);
                    return n == null || n > MAX_RATE ? null : n;
                });
        return new SlowClients(buffer, rate);
    }

    public boolean buffersBodies() {
        return requestBufferSize > 0;
    }

    @Override
    public String toString() {
        return "SlowClients[" + REQUEST_BUFFER_SIZE + " " + requestBufferSize + ", " + MIN_REQUEST_DATA_RATE + " "
                + minRequestDataRate + "/s]";
    }
}
