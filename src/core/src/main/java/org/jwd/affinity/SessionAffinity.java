package org.jwd.affinity;

import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.config.ServerType;
import org.jwd.topology.Topology;

/**
 * Stateful dispatching as SAP defines it: which server a request's session identifiers place it on, in SAP's order,
 * and the session table's bindings made on the way. Plain Java: it knows nothing of servlets, and the balancers and
 * the table are reached through {@link RoutingEffects}, live when routing, dry when explaining.
 *
 * <p>The order — ABAP: the ESID ({@code sap-ext-sid}) through the session ID table, then the ABAP session id
 * ({@code sap-contextid}, or its URL form in a mangled segment), then the balancer (binding the ESID). J2EE: the
 * {@code saplb} cookie of the URL's logon group (else {@code saplb_*}), then the JSESSIONID (the server it names,
 * {@code (<name>)...End}; its route suffix, configured ({@code server.<id>.route}) or else
 * {@link LearnedRoutes learned}; then SAP's session ID table, then the temporary table), then the balancer (binding
 * the JSESSIONID in the temporary table when that is on). Each identifier in any of its forms, cookie or URL.
 *
 * <p><b>A valid identifier wins over the URL's group.</b> Valid means: it names a server of the request's stack
 * that serves its sessions (up or drained) and can be reached the way the request must go (a healthy HTTPS port
 * when forwarded over HTTPS); {@link SessionServers} finds it. The request then goes there, whatever group its URL
 * maps to. An identifier that names no such server is ignored, never an error; the request is balanced in the
 * URL's group.
 *
 * <p>Every request carrying a JSESSIONID or ESID that the table holds refreshes its entry, however it was routed
 * (a live pass; explaining refreshes nothing).
 *
 * <p><b>A full table</b> ({@code wdisp/HTTP/max_session_tab_entries}): a request the table does not hold goes to its
 * group's default server, the first member (in configuration order) that takes new requests, so that sessions
 * the table cannot record are still kept (SAP's rule: sessions are kept, balancing stops).
 */
public final class SessionAffinity {
    private final DispatcherConfig config;
    private final SessionServers servers;
    private final FullTableWarning fullWarning;

    public SessionAffinity(DispatcherConfig config, Topology topology, LearnedRoutes learnedRoutes) {
        this(config, topology, learnedRoutes, FullTableWarning.SHARED);
    }

    /** With a warning of its own (a test's, on a clock it moves). */
    SessionAffinity(DispatcherConfig config, Topology topology, LearnedRoutes learnedRoutes,
                    FullTableWarning fullWarning) {
        this(config, new SessionServers(topology, learnedRoutes), fullWarning);
    }

    private SessionAffinity(DispatcherConfig config, SessionServers servers, FullTableWarning fullWarning) {
        this.config = config;
        this.servers = servers;
        this.fullWarning = fullWarning;
    }

    /**
     * The same rules for a request that {@code failed} just dropped without a byte of an answer (a server killed
     * with the request on a pooled connection): it is valid for no identifier and picked by no balancer, so the
     * request and its session move elsewhere, as for a server that is down, before any health check has noticed.
     */
    public SessionAffinity avoiding(Server failed) {
        return new SessionAffinity(config, servers.avoiding(failed), fullWarning);
    }

    /**
     * Where a request goes and why; a {@code null} server when its group has none to offer.
     *
     * @param identifier the session identifier that placed the request (a cookie's or path parameter's value), or
     *                   {@code null} when none did; never shown, only hashed into the access log
     * @param source     which identifier that was, or {@code null}
     * @param table      what the session table did for the request, or {@code null} when it had no part in it
     */
    public record Choice(Server server, String reason, boolean bound, String identifier, IdentifierSource source,
                         TableOutcome table) {
        Choice(Server server, String reason, boolean bound, TableOutcome table) {
            this(server, reason, bound, null, null, table);
        }

        /** The same server, placed as {@code reason} says by the session's {@code identifier}. */
        Choice placed(String reason, String identifier, IdentifierSource source, TableOutcome table) {
            return new Choice(server, reason, bound, identifier, source, table);
        }
    }

    /**
     * @param group  the URL's group, or {@code null} when it has no server for the request (then only a session can
     *               place it, and {@code null} is returned without one)
     * @param type   the request's stack, or {@code null} for both ({@code !ALL}: no J2EE server is active)
     * @param logonGroup the logon group whose URL prefix covers the path, or {@code null}: whose {@code saplb}
     *                   cookie is read
     * @param secure the request is forwarded over HTTPS
     * @return the choice, or {@code null} when {@code group} is {@code null} and no session places the request
     */
    public Choice choose(ServerGroup group, ServerType type, String logonGroup, SessionIdentifiers ids,
                         boolean secure, RoutingEffects fx) {
        if (ids.isEmpty()) {
            return group == null ? null : balance(group, fx);
        }
        TableKeys keys = new TableKeys(ids, config);
        Choice choice = null;
        if (type != ServerType.J2EE) {
            choice = abap(group, ids, keys, secure, fx);
        }
        if (choice == null && type != ServerType.ABAP) {
            choice = j2ee(group, logonGroup, ids, keys, secure, fx);
        }
        if (choice == null && group != null) {
            choice = balance(group, fx);
        }
        keys.touchTheRest(fx);
        return choice;
    }

    /** ESID through the table, then {@code sap-contextid}; an unknown ESID is bound where the request goes. */
    private Choice abap(ServerGroup group, SessionIdentifiers ids, TableKeys keys, boolean secure, RoutingEffects fx) {
        String esid = keys.esid;
        String stale = null;
        if (esid != null) {
            String boundId = keys.lookupEsid(fx);
            if (boundId != null) {
                Server bound = servers.valid(boundId, ServerType.ABAP, secure);
                if (bound != null) {
                    return new Choice(bound, "session table (sap-ext-sid)", true, esid, IdentifierSource.ESID,
                            TableOutcome.HIT);
                }
                stale = boundId;
            }
        }
        Server context = servers.byContextName(ids.sapContextServer(), secure);
        if (context != null) {
            if (esid == null) {
                return new Choice(context, "sap-contextid", true, ids.sapContextId(), IdentifierSource.CONTEXT_ID, null);
            }
            // The ESID joins the session's server, so that its next requests agree with sap-contextid's.
            Choice toContext = new Choice(context, "sap-contextid", true, ids.sapContextId(),
                    IdentifierSource.CONTEXT_ID, stale != null ? TableOutcome.REBIND : TableOutcome.BIND);
            String winner = stale != null ? fx.rebind(esid, stale, context.id()) : fx.bind(esid, context.id());
            return follow(winner, toContext, ServerType.ABAP, secure);
        }
        return esid != null && group != null
                ? throughTable(group, esid, stale, ServerType.ABAP, secure, fx, esid, IdentifierSource.ESID) : null;
    }

    /** The URL's group's {@code saplb}, then the JSESSIONID: the server it names, its route suffix, the tables. */
    private Choice j2ee(ServerGroup group, String logonGroup, SessionIdentifiers ids, TableKeys keys, boolean secure,
                        RoutingEffects fx) {
        SaplbCookie saplb = ids.saplbFor(logonGroup);
        Server byCookie = saplb == null ? null : servers.bySaplb(saplb, secure);
        if (byCookie != null) {
            return new Choice(byCookie, "saplb cookie", true, saplb.value(), IdentifierSource.SAPLB, null);
        }
        Server named = servers.byJsessionidName(ids.jsessionidServer(), secure);
        if (named != null) {
            return new Choice(named, "JSESSIONID server name", true, ids.jsessionid(), IdentifierSource.JSESSIONID,
                    null);
        }
        String route = ids.jsessionidRoute();
        if (route != null) {
            Server configured = servers.byConfiguredRoute(route, secure);
            if (configured != null) {
                return new Choice(configured, "route suffix", true, ids.jsessionid(), IdentifierSource.JSESSIONID,
                        null);
            }
            Server learned = servers.byLearnedRoute(route, secure);
            if (learned != null) {
                return new Choice(learned, "route suffix (learned)", true, ids.jsessionid(),
                        IdentifierSource.JSESSIONID, null);
            }
        }
        return keys.hasJsessionid() ? jsessionidThroughTables(group, keys, secure, fx) : null;
    }

    /**
     * SAP's session ID table (JSESSIONIDs servers set), then the temporary table (bound at request time). The
     * temporary table binds every unknown JSESSIONID at request time; SAP's table learns them from the server's
     * Set-Cookie, but a binding whose server is gone is replaced at once, so concurrent requests agree.
     */
    private Choice jsessionidThroughTables(ServerGroup group, TableKeys keys, boolean secure, RoutingEffects fx) {
        String key = keys.jsessionid;
        String boundId = key == null ? null : keys.lookupJsessionid(fx);
        if (boundId == null && keys.temporary != null) {
            key = keys.temporary;
            boundId = keys.lookupTemporary(fx);
        }
        String stale = null;
        if (boundId != null) {
            Server bound = servers.valid(boundId, ServerType.J2EE, secure);
            if (bound != null) {
                return new Choice(bound, "session table", true, keys.sessionId, IdentifierSource.JSESSIONID,
                        TableOutcome.HIT);
            }
            stale = boundId;
        }
        if (group == null || stale == null && keys.temporary == null) {
            return null;
        }
        return throughTable(group, stale == null ? keys.temporary : key, stale, ServerType.J2EE, secure, fx,
                keys.sessionId, IdentifierSource.JSESSIONID);
    }

    /**
     * Balances in the group and binds the session there (first binding wins), or replaces the binding to
     * {@code stale} atomically; either way the request follows what the table says now. {@code null} when the group
     * has no server for it, so that the identifiers read after this one may still place the request.
     */
    private Choice throughTable(ServerGroup group, String key, String stale, ServerType type, boolean secure,
                                RoutingEffects fx, String identifier, IdentifierSource source) {
        Choice balanced = balance(group, fx);
        if (balanced.server() == null) {
            return null;
        }
        if (stale != null) {
            String winner = fx.rebind(key, stale, balanced.server().id());
            return follow(winner, balanced.placed("session table rebind from " + stale, identifier, source,
                    TableOutcome.REBIND), type, secure);
        }
        String winner = fx.bind(key, balanced.server().id());
        Choice bound = balanced.table() == TableOutcome.FULL ? balanced.placed(balanced.reason(), identifier, source,
                TableOutcome.FULL) : balanced.placed("session table bind", identifier, source, TableOutcome.BIND);
        return follow(winner, bound, type, secure);
    }

    /** Goes where the table says now; a concurrent request may have bound the session first. */
    private Choice follow(String winnerId, Choice mine, ServerType type, boolean secure) {
        if (winnerId.equals(mine.server().id())) {
            return mine;
        }
        Server winner = servers.valid(winnerId, type, secure);
        if (winner != null) {
            return new Choice(winner, "session table (bound concurrently)", true, mine.identifier(), mine.source(),
                    TableOutcome.BOUND_CONCURRENTLY);
        }
        return mine;
    }

    /** The balancer's pick; with a full table, the group's default server. */
    private Choice balance(ServerGroup group, RoutingEffects fx) {
        if (fx.tableFull()) {
            for (Server s : group.members()) {
                if (s.takesNewRequests(group.secure()) && !servers.avoids(s)) {
                    fullWarning.warn(group, s);
                    return new Choice(s, "default server (session table full)", false, TableOutcome.FULL);
                }
            }
            return new Choice(null, "default server (session table full)", false, TableOutcome.FULL);
        }
        Server pick = fx.pick(group);
        if (pick != null && servers.avoids(pick)) {
            pick = group.leastLoaded(s -> !servers.avoids(s));
        }
        return new Choice(pick, "balanced", false, null);
    }
}
