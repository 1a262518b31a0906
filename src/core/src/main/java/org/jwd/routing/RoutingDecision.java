package org.jwd.routing;

import org.jwd.affinity.IdentifierSource;
import org.jwd.affinity.SessionAffinity;
import org.jwd.affinity.TableOutcome;
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
    private final String identifier;
    private final IdentifierSource source;
    private final TableOutcome table;

    private RoutingDecision(int errorStatus, String errorMessage, String path, ServerGroup group, String reason,
                            String target, SessionAffinity.Choice choice) {
        this.errorStatus = errorStatus;
        this.errorMessage = errorMessage;
        this.path = path;
        this.group = group;
        this.reason = reason;
        this.target = target;
        this.server = choice == null ? null : choice.server();
        this.identifier = choice == null ? null : choice.identifier();
        this.source = choice == null ? null : choice.source();
        this.table = choice == null ? null : choice.table();
    }

    /**
     * The request goes to the {@code choice}'s server at {@code target} (its URL, the forwarded path and the
     * query), for the choice's reason.
     */
    public static RoutingDecision forward(String path, ServerGroup group, SessionAffinity.Choice choice,
                                          String target) {
        return new RoutingDecision(0, null, path, group, choice.reason(), target, choice);
    }

    /** The request goes nowhere; the client gets {@code status} with {@code message} as the body. */
    public static RoutingDecision reject(int status, String message, String path, ServerGroup group, String reason) {
        return new RoutingDecision(status, message, path, group, reason, null, null);
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

    /**
     * The value of the session identifier that placed the request (ESID, sap-contextid, saplb cookie or
     * JSESSIONID), or {@code null} when none did. A secret of the user's session: the access log shows a hash of it.
     */
    public String identifier() {
        return identifier;
    }

    /** Which identifier placed the request ({@link #identifier()}), or {@code null} when none did. */
    public IdentifierSource source() {
        return source;
    }

    /** What the session table did for the request, or {@code null} when it had no part in it. */
    public TableOutcome table() {
        return table;
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
