package org.jwd.topology;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.jwd.config.ServerConfig;
import org.jwd.config.ServerType;

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
    private final PortHealth plain = new PortHealth();
    private final PortHealth https = new PortHealth();
    /** The port the no-argument methods mean: the plain one, or the HTTPS one of a server that has no other. */
    private final boolean httpsOnly;
    private volatile AdminState adminState = AdminState.ENABLED;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder served = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder stateful = new LongAdder();

    public Server(ServerConfig config) {
        this.config = config;
        this.httpsOnly = config.url() == null;
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

    /** The state of its plain port (the HTTPS port of an HTTPS-only server): the operator's choice, then health. */
    public State state() {
        return state(httpsOnly);
    }

    /** The state of its HTTPS port ({@code secure}) or plain port: the operator's choice first, then health. */
    public State state(boolean secure) {
        AdminState admin = adminState;
        if (admin == AdminState.DISABLED) {
            return State.DISABLED;
        }
        if (!healthy(secure)) {
            return State.DOWN;
        }
        return admin == AdminState.DRAINED ? State.DRAINED : State.UP;
    }

    /**
     * Sets the state as an operator or a test would: DOWN and UP set the health of both ports, DRAINED and DISABLED
     * the admin state.
     */
    public void setState(State state) {
        switch (state) {
            case UP -> {
                plain.setHealthy(true);
                https.setHealthy(true);
                adminState = AdminState.ENABLED;
            }
            case DOWN -> {
                plain.setHealthy(false);
                https.setHealthy(false);
            }
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

    /** Whether its plain port (the HTTPS port of an HTTPS-only server) passes its health checks. */
    public boolean healthy() {
        return healthy(httpsOnly);
    }

    /** Whether its HTTPS port ({@code secure}) or plain port passes its health checks. */
    public boolean healthy(boolean secure) {
        return port(secure).healthy();
    }

    /** Whether it has the port a request needs: an {@code https_url} ({@code secure}) or a {@code url}. */
    public boolean hasPort(boolean secure) {
        return secure ? config.httpsUrl() != null : !httpsOnly;
    }

    /** The outcome of the last active check or failed request on its plain port (HTTPS port if it has no other). */
    public String lastCheck() {
        return lastCheck(httpsOnly);
    }

    /** The outcome of the last active check or failed request on its HTTPS port ({@code secure}) or plain port. */
    public String lastCheck(boolean secure) {
        return port(secure).lastCheck();
    }

    /**
     * A health check of a port passed, or a request through it was answered: after {@code rise} in a row a
     * down port is back.
     *
     * @param secure the HTTPS port, or the plain one
     * @return true when this brought the port back
     */
    public boolean recordSuccess(boolean secure, int rise, String detail) {
        return port(secure).record(true, rise, detail);
    }

    /**
     * A health check of a port failed, or a request could not reach it: after {@code fall} in a row it is down.
     *
     * @param secure the HTTPS port, or the plain one
     * @return true when this marked the port down
     */
    public boolean recordFailure(boolean secure, int fall, String detail) {
        return port(secure).record(false, fall, detail);
    }

    /** A request through this port was answered: the failures counted towards {@code fall} were not in a row. */
    public void resetFailures(boolean secure) {
        port(secure).resetFailures();
    }

    /** May this server be chosen for a request that is not bound to it yet, through its plain port? */
    public boolean takesNewRequests() {
        return takesNewRequests(httpsOnly);
    }

    /**
     * May this server be chosen for a request that is not bound to it yet and must go over HTTPS ({@code secure}:
     * it needs an {@code https_url} whose port is healthy) or plain HTTP (a {@code url} whose port is healthy)?
     */
    public boolean takesNewRequests(boolean secure) {
        return adminState == AdminState.ENABLED && hasPort(secure) && port(secure).healthy();
    }

    /** May a request of a session this server already holds still go to it, through its plain port? */
    public boolean servesItsSessions() {
        return servesItsSessions(httpsOnly);
    }

    /**
     * May a request of a session this server already holds still go to it over HTTPS ({@code secure}) or plain
     * HTTP? As {@link #takesNewRequests(boolean)}, but a drained server still serves its sessions.
     */
    public boolean servesItsSessions(boolean secure) {
        return adminState != AdminState.DISABLED && hasPort(secure) && port(secure).healthy();
    }

    private PortHealth port(boolean secure) {
        return secure ? https : plain;
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
