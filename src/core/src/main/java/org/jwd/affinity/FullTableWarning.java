package org.jwd.affinity;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's "session table full" warning: worth saying, but not once per request. One instance serves the
 * whole JVM ({@link #SHARED}), because a dispatcher's {@link SessionAffinity} is rebuilt with every configuration
 * while a full table outlives them; tests give theirs a clock they move by hand.
 */
final class FullTableWarning {
    static final long GAP_MILLIS = 5 * 60_000;
    static final FullTableWarning SHARED = new FullTableWarning(System::currentTimeMillis);

    private static final Logger LOG = LoggerFactory.getLogger(SessionAffinity.class);

    private final LongSupplier clockMillis;
    private final AtomicLong last = new AtomicLong(Long.MIN_VALUE / 2);

    FullTableWarning(LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
    }

    /** Logs the warning unless one was logged less than {@link #GAP_MILLIS} ago. */
    void warn(ServerGroup group, Server defaultServer) {
        long now = clockMillis.getAsLong();
        long previous = last.get();
        if (now - previous >= GAP_MILLIS && last.compareAndSet(previous, now)) {
            LOG.warn("Session table full (wdisp/HTTP/max_session_tab_entries): requests it does not hold go to each"
                    + " group's default server until entries expire (group {}: {})", group.name(),
                    defaultServer.id());
        }
    }
}
