package org.jwd.topology;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.jwd.config.ServerConfig;

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

    private final ServerConfig config;
    private volatile State state = State.UP;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder served = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder stateful = new LongAdder();

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

    public State state() {
        return state;
    }

    public void setState(State state) {
        this.state = state;
    }

    /** May this server be chosen for a request that is not bound to it yet? */
    public boolean takesNewRequests() {
        return state == State.UP;
    }

    /** May a request of a session this server already holds still go to it? */
    public boolean servesItsSessions() {
        return state == State.UP || state == State.DRAINED;
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
        return id() + "[" + state + ", in flight " + inFlight() + "]";
    }
}
