package org.jwd.proxy;

import java.io.IOException;

import org.jwd.limits.LimitsConfig;

/** A request body grew past {@code icm/HTTP/max_request_size_KB} while it was read. */
final class BodyTooLargeException extends IOException {
    BodyTooLargeException(long limit) {
        super(message(limit));
    }

    /** The answer's text: the limit and its key. */
    static String message(long limit) {
        return "jwd: the request body is larger than " + limit / 1024 + " KB (" + LimitsConfig.MAX_REQUEST_SIZE + ")";
    }
}
