package org.jwd.routing;

import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;

/**
 * Where one request goes and why, decided once per request. Later stages (forwarding, learning from the
 * response, counting) read it; the "why" is what the debug header, the explain endpoint and the admin page show.
 * A decision either names a server and a target, or carries the error status the client gets instead.
 */
public final class RoutingDecision {
    private final int errorStatus;
    private final String errorMessage;
    private final String path;
    private final ServerGroup group;
    private final Server server;
    private final String reason;
    private final String target;
    private final boolean bound;
    private final String identifier;

    private RoutingDecision(int errorStatus, String errorMessage, String path, ServerGroup group, Server server,
                            String reason, String target, boolean bound, String identifier) {
        this.errorStatus = errorStatus;
        this.errorMessage = errorMessage;
        this.path = path;
        this.group = group;
        this.server = server;
        this.reason = reason;
        this.target = target;
        this.bound = bound;
        this.identifier = identifier;
    }

    /**
     * The request goes to {@code server} at {@code target} (its URL, the forwarded path and the query);
     * {@code identifier} is the session identifier that placed it, or {@code null}.
     */
    public static RoutingDecision forward(String path, ServerGroup group, Server server, String reason,
                                          String target, boolean bound, String identifier) {
        return new RoutingDecision(0, null, path, group, server, reason, target, bound, identifier);
    }

    /** The request goes nowhere; the client gets {@code status} with {@code message} as the body. */
    public static RoutingDecision reject(int status, String message, String path, ServerGroup group, String reason) {
        return new RoutingDecision(status, message, path, group, null, reason, null, false, null);
    }

    public boolean isRejected() {
        return errorStatus != 0;
    }

    public int errorStatus() {
        return errorStatus;
    }

    public String errorMessage() {
        return errorMessage;
    }

    /** The normalized path used for classification, or {@code null} when the path could not be normalized. */
    public String path() {
        return path;
    }

    public ServerGroup group() {
        return group;
    }

    public Server server() {
        return server;
    }

    /** Why this server: {@code balanced}, {@code saplb cookie}, {@code session table}, ... */
    public String reason() {
        return reason;
    }

    /** The URI the request is forwarded to. */
    public String target() {
        return target;
    }

    /** Whether the request followed a session (cookie or session table) rather than the balancer. */
    public boolean bound() {
        return bound;
    }

    /**
     * The value of the session identifier that placed the request (ESID, sap-contextid, saplb cookie or
     * JSESSIONID), or {@code null} when none did. A secret of the user's session: the access log shows a hash of it.
     */
    public String identifier() {
        return identifier;
    }

    /**
     * Counts the request's end on its server. Called once per decision: the servlet's exchange ends a request
     * once, however many of Jetty's hooks report its end.
     */
    public void finish(boolean failed) {
        if (server != null) {
            server.requestFinished(failed);
        }
    }

    /** The {@code X-Jwd-Route} debug header's value. */
    public String describe() {
        return "group=" + (group == null ? "-" : group.name()) + "; server=" + (server == null ? "-" : server.id())
                + "; reason=" + reason;
    }

    @Override
    public String toString() {
        return isRejected() ? "RoutingDecision[" + errorStatus + " " + errorMessage + "]"
                : "RoutingDecision[" + describe() + " -> " + target + "]";
    }
}
