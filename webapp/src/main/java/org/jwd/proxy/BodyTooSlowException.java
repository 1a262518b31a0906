package org.jwd.proxy;

import java.io.IOException;

import org.jwd.limits.SlowClients;

/** A request body arrived slower than {@code jwd.min_request_data_rate} ({@link org.jwd.limits.BodyPace}). */
final class BodyTooSlowException extends IOException {
    BodyTooSlowException(long minBytesPerSecond) {
        super("jwd: the request body arrived slower than " + minBytesPerSecond + " bytes/s ("
                + SlowClients.MIN_REQUEST_DATA_RATE + ")");
    }
}
