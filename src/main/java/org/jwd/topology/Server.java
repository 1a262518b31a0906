package org.jwd.topology;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.jwd.config.ServerConfig;
import org.jwd.limits.ServerSlots;

/**
 * A server process at run time: its configuration plus the state and counters that routing, balancing and
 * the admin page read. Counters are atomics so that a pick or a completed request never takes a lock.
 */
public final class Server {
    /** Whether a server takes requests. */
    public enum State {
        /** takes new requests and its sessions */
        UP,
        /** takes no new bindings, but the sessions it holds continue */
        DRAINED,
        /** failed its health checks: takes nothing; its sessions are rebound */
        DOWN,
        /** switched off by an operator: takes nothing */
        DISABLED
    }

    /** What an operator decided; health checks never override it. */
    public enum AdminState { ENABLED, DRAINED, DISABLED }

    private final ServerConfig config;
    private volatile boolean healthy = true;
    private volatile AdminState adminState = AdminState.ENABLED;
    private final AtomicInteger consecutiveFailures = new AtomicInteger();
    private final AtomicInteger consecutiveSuccesses = new AtomicInteger();
    private volatile String lastCheck = "not checked yet";
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder served = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder stateful = new LongAdder();
    /** Its connection limit; set by the dispatcher, the same object for the server's id across topologies. */
    private volatile ServerSlots slots = ServerSlots.UNLIMITED;

    public Server(ServerConfig config) {
        this.config = config;
    }

    public ServerConfig config() {
        return config;
    }

    public String id() {
        return config.id();
    }

    public ServerType type() {
        return config.type();
    }

    public int capacity() {
        return config.capacity();
    }

    /** The state routing goes by: the operator's choice first, then health. */
    public State state() {
        AdminState admin = adminState;
        if (admin == AdminState.DISABLED) {
            return State.DISABLED;
        }
        if (!healthy) {
            return State.DOWN;
        }
        return admin == AdminState.DRAINED ? State.DRAINED : State.UP;
    }

    /** Sets the state as an operator or a test would: DOWN and UP set health, DRAINED and DISABLED the admin state. */
    public void setState(State state) {
        switch (state) {
            case UP -> {
                healthy = true;
                adminState = AdminState.ENABLED;
            }
            case DOWN -> healthy = false;
            case DRAINED -> adminState = AdminState.DRAINED;
            case DISABLED -> adminState = AdminState.DISABLED;
        }
    }

    public AdminState adminState() {
        return adminState;
    }

    public void setAdminState(AdminState adminState) {
        this.adminState = adminState;
    }

    public boolean healthy() {
        return healthy;
    }

    /** The outcome of the last active check or failed request, for the admin page. */
    public String lastCheck() {
        return lastCheck;
    }

    /**
     * A health check passed, or a request was answered: after {@code rise} in a row a down server is back.
     *
     * @return true when this brought the server back
     */
    public boolean recordSuccess(int rise, String detail) {
        consecutiveFailures.set(0);
        lastCheck = detail;
        if (!healthy && consecutiveSuccesses.incrementAndGet() >= rise) {
            healthy = true;
            consecutiveSuccesses.set(0);
            return true;
        }
        return false;
    }

    /**
     * A health check failed, or a request could not reach the server: after {@code fall} in a row it is down.
     *
     * @return true when this marked the server down
     */
    public boolean recordFailure(int fall, String detail) {
        consecutiveSuccesses.set(0);
        lastCheck = detail;
        if (healthy && consecutiveFailures.incrementAndGet() >= fall) {
            healthy = false;
            consecutiveFailures.set(0);
            return true;
        }
        return false;
    }

    /** A request was answered: the failures counted towards {@code fall} were not in a row. */
    public void resetFailures() {
        if (consecutiveFailures.get() != 0) {
            consecutiveFailures.set(0);
        }
    }

    /** May this server be chosen for a request that is not bound to it yet? */
    public boolean takesNewRequests() {
        return healthy && adminState == AdminState.ENABLED;
    }

    /** May a request of a session this server already holds still go to it? */
    public boolean servesItsSessions() {
        return healthy && adminState != AdminState.DISABLED;
    }

    /** Its connection slots ({@code server.<id>.max_connections}, {@code max_queue}). */
    public ServerSlots slots() {
        return slots;
    }

    public void useSlots(ServerSlots slots) {
        this.slots = slots;
    }

    /** Requests sent to this server whose response has not completed or failed yet. */
    public int inFlight() {
        return inFlight.get();
    }

    public long served() {
        return served.sum();
    }

    public long errors() {
        return errors.sum();
    }

    public long statefulRequests() {
        return stateful.sum();
    }

    /** A request was routed to this server; {@code bound} when it followed a session rather than the balancer. */
    public void requestStarted(boolean bound) {
        inFlight.incrementAndGet();
        if (bound) {
            stateful.increment();
        }
    }

    /** The request's response completed ({@code failed} when the server did not answer properly). */
    public void requestFinished(boolean failed) {
        inFlight.decrementAndGet();
        served.increment();
        if (failed) {
            errors.increment();
        }
    }

    @Override
    public String toString() {
        return id() + "[" + state() + ", in flight " + inFlight() + "]";
    }
}
