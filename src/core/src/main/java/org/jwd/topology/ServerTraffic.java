package org.jwd.topology;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one server's requests came to, for the admin page: the answers by class, told apart by who wrote them (the
 * server's own 4xx and 5xx; the 502, 503 and 504 jwd answered itself when the server failed, timed out or had no
 * room), and the bytes of the bodies each way. Counted once per request at its end; adders, no lock.
 */
public final class ServerTraffic {
    private final LongAdder serverClientErrors = new LongAdder();
    private final LongAdder serverServerErrors = new LongAdder();
    private final LongAdder own502 = new LongAdder();
    private final LongAdder own503 = new LongAdder();
    private final LongAdder own504 = new LongAdder();
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();

    /** The figures at one moment. */
    public record Counts(long serverClientErrors, long serverServerErrors, long own502, long own503, long own504,
                         long bytesIn, long bytesOut) {
    }

    /**
     * A request ended with {@code status}.
     *
     * @param fromServer whether the status is the server's own answer (else jwd answered for it)
     * @param bytesIn    the request body's bytes read from the client
     * @param bytesOut   the answer body's bytes sent to the client
     */
    public void ended(int status, boolean fromServer, long bytesIn, long bytesOut) {
        if (fromServer) {
            if (status >= 400 && status < 500) {
                serverClientErrors.increment();
            } else if (status >= 500) {
                serverServerErrors.increment();
            }
        } else {
            switch (status) {
                case 502 -> own502.increment();
                case 503 -> own503.increment();
                case 504 -> own504.increment();
                default -> { }
            }
        }
        if (bytesIn > 0) {
            this.bytesIn.add(bytesIn);
        }
        if (bytesOut > 0) {
            this.bytesOut.add(bytesOut);
        }
    }

    public Counts counts() {
        return new Counts(serverClientErrors.sum(), serverServerErrors.sum(), own502.sum(), own503.sum(),
                own504.sum(), bytesIn.sum(), bytesOut.sum());
    }
}
