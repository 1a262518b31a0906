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

    /**
     * The last change of the admin state: what, when (epoch milliseconds) and by whom ({@code null}: the
     * configuration, {@code server.<id>.state}).
     */
    public record AdminChange(AdminState state, long atMillis, String by) {
    }

    /** When the server's {@link #state()} became what it is, as the admin page shows it. */
    private record Shown(State state, long sinceMillis) {
    }

    /** Replaced only by {@link #reconfigure} with a description of the same server process. */
    private volatile ServerConfig config;
    private final PortHealth plain = new PortHealth();
    private final PortHealth https = new PortHealth();
    /** The port the no-argument methods mean: the plain one, or the HTTPS one of a server that has no other. */
    private final boolean httpsOnly;
    private volatile AdminChange adminChange;
    private volatile Shown shown;
    private final ServerTraffic traffic = new ServerTraffic();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder served = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder stateful = new LongAdder();

    public Server(ServerConfig config) {
        this.config = config;
        this.httpsOnly = config.url() == null;
        long now = System.currentTimeMillis();
        this.adminChange = new AdminChange(AdminState.ENABLED, now, null);
        this.shown = new Shown(State.UP, now);
    }

    public ServerConfig config() {
        return config;
    }

    /**
     * Takes {@code next}, a description of the same server process that differs only in what the configuration
     * says of its state ({@link ServerConfig#sameServer}): the server keeps its health and counters.
     *
     * @throws IllegalArgumentException for any other change, which needs a new server
     */
    public void reconfigure(ServerConfig next) {
        if (!config.sameServer(next)) {
            throw new IllegalArgumentException("server " + id() + ": " + next + " is another server than " + config);
        }
        this.config = next;
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
        AdminState admin = adminChange.state();
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
                setAdminState(AdminState.ENABLED);
            }
            case DOWN -> {
                plain.setHealthy(false);
                https.setHealthy(false);
            }
            case DRAINED -> setAdminState(AdminState.DRAINED);
            case DISABLED -> setAdminState(AdminState.DISABLED);
        }
        noteState(System.currentTimeMillis());
    }

    public AdminState adminState() {
        return adminChange.state();
    }

    /** The last change of the admin state. */
    public AdminChange adminChange() {
        return adminChange;
    }

    /** Sets the admin state now, as the configuration does. */
    public void setAdminState(AdminState adminState) {
        setAdminState(adminState, System.currentTimeMillis(), null);
    }

    /**
     * Sets the admin state as decided at {@code atMillis} by {@code by} ({@code null}: the configuration); a state
     * it has already keeps its time.
     */
    public void setAdminState(AdminState adminState, long atMillis, String by) {
        AdminChange before = adminChange;
        if (before.state() != adminState || !java.util.Objects.equals(before.by(), by)) {
            adminChange = new AdminChange(adminState, before.state() == adminState ? before.atMillis() : atMillis,
                    by);
        }
        noteState(atMillis);
    }

    /** Since when (epoch milliseconds) its {@link #state()} is what it is. */
    public long stateSinceMillis() {
        noteState(System.currentTimeMillis());
        return shown.sinceMillis();
    }

    /** Notes a change of {@link #state()} at {@code nowMillis}, if there was one. */
    private synchronized void noteState(long nowMillis) {
        State now = state();
        if (shown.state() != now) {
            shown = new Shown(now, nowMillis);
        }
    }

    /** Its answers by class and its bytes. */
    public ServerTraffic traffic() {
        return traffic;
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
        return recorded(port(secure).record(true, rise, detail, false, System.currentTimeMillis()));
    }

    /** An active health check of a port passed: as {@link #recordSuccess}, and the port counts as checked. */
    public boolean checkPassed(boolean secure, int rise, String detail) {
        return recorded(port(secure).record(true, rise, detail, true, System.currentTimeMillis()));
    }

    /** An active health check of a port failed: as {@link #recordFailure}, and counted as a failed check. */
    public boolean checkFailed(boolean secure, int fall, String detail) {
        return recorded(port(secure).record(false, fall, detail, true, System.currentTimeMillis()));
    }

    private boolean recorded(boolean changed) {
        if (changed) {
            noteState(System.currentTimeMillis());
        }
        return changed;
    }

    /** Whether an active check of its plain port (HTTPS port if it has no other) has come back yet. */
    public boolean checked() {
        return port(httpsOnly).checked();
    }

    /**
     * Its failed active checks, and the last failure (check or request) in words and its time (epoch
     * milliseconds, 0 without one), of its plain port (its HTTPS port if it has no other).
     */
    public Failures failures() {
        PortHealth.Failures f = port(httpsOnly).failures();
        return new Failures(f.failedChecks(), f.last(), f.lastMillis());
    }

    /** A port's failed checks and its last failure; {@code last} is {@code null} without one. */
    public record Failures(long failedChecks, String last, long lastMillis) {
    }

    /**
     * A health check of a port failed, or a request could not reach it: after {@code fall} in a row it is down.
     *
     * @param secure the HTTPS port, or the plain one
     * @return true when this marked the port down
     */
    public boolean recordFailure(boolean secure, int fall, String detail) {
        return recorded(port(secure).record(false, fall, detail, false, System.currentTimeMillis()));
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
        return adminChange.state() == AdminState.ENABLED && hasPort(secure) && port(secure).healthy();
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
        return adminChange.state() != AdminState.DISABLED && hasPort(secure) && port(secure).healthy();
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
