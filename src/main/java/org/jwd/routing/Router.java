package org.jwd.routing;

import java.net.URI;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jwd.affinity.SaplbCookie;
import org.jwd.affinity.SaplbCookieWriter;
import org.jwd.affinity.SetCookieHeaders;
import org.jwd.affinity.SessionCookies;
import org.jwd.affinity.SessionIdentifiers;
import org.jwd.affinity.SessionTable;
import org.jwd.balancing.Balancer;
import org.jwd.balancing.Balancers;
import org.jwd.limits.ServerSlots;
import org.jwd.config.DispatcherConfig;
import org.jwd.filter.PermissionTable;
import org.jwd.tls.SslEncrypt;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.ServerType;
import org.jwd.topology.Topology;

/**
 * Turns a request into a {@link RoutingDecision}, once: the path is normalized exactly as the server will see
 * it, the group is determined from it ({@link GroupResolver}), a session keeps the request on its server, and
 * otherwise the group's balancer chooses. It knows nothing of servlets.
 *
 * <p>Stateful dispatching, in order — J2EE: a valid {@code saplb_*} cookie, the route suffix of the session
 * id, the session table (JSESSIONID), the balancer. ABAP: a valid {@code sap-contextid}, the session table
 * ({@code sap-ext-sid}), the balancer. Valid means: a member of the chosen group that still serves its
 * sessions; anything else is ignored, never an error.
 *
 * <p>{@link #explain} walks the same way without changing anything: where {@link #route} picks and binds, it
 * takes the balancer's favorite and only looks at the session table.
 * <p>A request forwarded over HTTPS ({@code wdisp/ssl_encrypt} 1, or 2 and the client came over TLS) goes to
 * the S groups, whose members all have an {@code https_url}, and to that URL.
 */
public final class Router {
    /** sap-ext-sid values share the table with JSESSIONIDs; the prefix keeps the two apart. */
    private static final String EXT_SID_KEY = "sap-ext-sid:";

    private final DispatcherConfig config;
    private final GroupResolver resolver;
    private final Topology topology;
    private final Map<ServerGroup, Balancer> balancers = new IdentityHashMap<>();
    private final SessionTable sessionTable;
    /** What routing changes: the balancers' counts and the session table's bindings. */
    private final Effects live = new Effects() {
        @Override
        public Server pick(ServerGroup group) {
            return pickWithRoom(balancers.get(group), group);
        }

        @Override
        public String lookup(String sessionId) {
            return sessionTable.lookup(sessionId);
        }

        @Override
        public String bind(String sessionId, String serverId) {
            return sessionTable.bind(sessionId, serverId);
        }

        @Override
        public String rebind(String sessionId, String expectedServerId, String newServerId) {
            return sessionTable.rebind(sessionId, expectedServerId, newServerId);
        }
    };
    /** The same questions, answered without changing anything: the favorite, a peek, the binding that would be. */
    private final Effects dry = new Effects() {
        @Override
        public Server pick(ServerGroup group) {
            String favorite = balancers.get(group).snapshot().favorite();
            return favorite == null ? null : group.member(favorite);
        }

        @Override
        public String lookup(String sessionId) {
            return sessionTable.peek(sessionId);
        }

        @Override
        public String bind(String sessionId, String serverId) {
            return serverId;
        }

        @Override
        public String rebind(String sessionId, String expectedServerId, String newServerId) {
            return newServerId;
        }
    };
    private final SslEncrypt sslEncrypt;
    private final PermissionTable permissionTable;

    public Router(DispatcherConfig config, Topology topology, Supplier<UrlMappingTable> urlMappingTable,
                  SessionTable sessionTable) {
        this.config = config;
        this.resolver = new GroupResolver(config, topology, urlMappingTable);
        this.topology = topology;
        this.sessionTable = sessionTable;
        this.sslEncrypt = SslEncrypt.of(config);
        this.permissionTable = config.permissionTable();
        for (ServerGroup group : topology.allGroups()) {
            balancers.put(group, Balancers.create(group, config));
        }
    }

    /**
     * The balancer's pick, but not a server whose connection slots are all taken ({@code server.<id>.max_connections})
     * while another member has room: the request would wait there for nothing. It goes instead to the member with
     * room that has the fewest requests in flight per capacity (the balancers' own first measure; asking the
     * balancer again would not do, as weighted_round_robin picks by that measure and would name the full member
     * again). When every member is full, the pick stands and the request waits in its server's queue.
     */
    private static Server pickWithRoom(Balancer balancer, ServerGroup group) {
        Server pick = balancer.pick();
        if (pick == null || hasRoom(pick)) {
            return pick;
        }
        Server best = null;
        for (Server member : group.members()) {
            if (member.takesNewRequests() && hasRoom(member) && (best == null
                    || (long) member.inFlight() * best.capacity() < (long) best.inFlight() * member.capacity())) {
                best = member;
            }
        }
        return best == null ? pick : best;
    }

    /**
     * Whether a request routed now would get a slot at once. The requests routed to the server count as well as
     * those holding a slot: a request takes its slot only once it is sent, a moment after routing. (Requests
     * routed in that moment by other threads may still queue at a server that just filled up.)
     */
    private static boolean hasRoom(Server server) {
        ServerSlots slots = server.slots();
        return slots.hasRoom() && (!slots.isLimited() || server.inFlight() < slots.maxConnections());
    }

    public RoutingDecision route(RoutingRequest request) {
        NormalizedPath path;
        try {
            path = PathNormalizer.normalize(request.rawPath());
        } catch (BadPathException e) {
            return RoutingDecision.reject(400, "jwd: bad path: " + e.getMessage(), null, null, "bad path");
        }
        // The URL filter: on the normalized path, so no encoding gets a URL past it; before any session is
        // looked at, so a refused request binds nothing and counts on no server.
        PermissionTable.Rule rule = permissionTable.match(path.path(), resolver.filterType(path));
        if (rule != null && !rule.permits(request.secure())) {
            return RoutingDecision.reject(403, rule.refusal(request.secure()), path.path(), null,
                    "permission table line " + rule.line());
        }
        SessionIdentifiers ids = SessionCookies.parse(request.cookieHeaders(), path.parameter("jsessionid"),
                path.parameter("sap-ext-sid"));
        boolean secure = sslEncrypt.secure(request.secure());
        Classification classification = resolver.classify(path, secure, !ids.isEmpty());
        if (classification.isError()) {
            return RoutingDecision.reject(classification.errorStatus(), "jwd: " + classification.errorMessage(),
                    path.path(), null, classification.reason());
        }
        ServerGroup group = classification.group();
        Choice choice = group.type() == ServerType.ABAP ? abap(group, ids, live) : j2ee(group, ids, live);
        if (choice.server == null) {
            return RoutingDecision.reject(503, "jwd: no server of group " + group.name()
                    + " can take the request (every member is down, drained or disabled)", path.path(), group,
                    choice.reason);
        }
        choice.server.requestStarted(choice.bound);
        URI base = secure ? choice.server.config().httpsUrl() : choice.server.config().url();
        String target = base + path.forwardPath() + (request.query() == null ? "" : "?" + request.query());
        return RoutingDecision.forward(path.path(), group, choice.server, choice.reason, target, choice.bound);
    }

    /**
     * Where {@code request} would go now and why, as {@link #route} decides it, without any of its effects: no
     * balancer counts a dispatch (the group's favorite stands for the pick), no session is bound or rebound, no
     * hit or miss is counted, no server counts a request. A real request may still land elsewhere when others
     * arrive first.
     */
    public Explanation explain(RoutingRequest request) {
        NormalizedPath path;
        try {
            path = PathNormalizer.normalize(request.rawPath());
        } catch (BadPathException e) {
            return new Explanation(request.rawPath(), null, SessionIdentifiers.NONE, null, "bad path", false, 400,
                    "jwd: bad path: " + e.getMessage(), null, null);
        }
        SessionIdentifiers ids = SessionCookies.parse(request.cookieHeaders(), path.parameter("jsessionid"),
                path.parameter("sap-ext-sid"));
        PermissionTable.Rule rule = permissionTable.match(path.path(), resolver.filterType(path));
        Classification classification = resolver.classify(path, false, !ids.isEmpty());
        if (rule != null && !rule.permits(request.secure())) {
            return new Explanation(request.rawPath(), classification, ids, null,
                    "permission table line " + rule.line(), false, 403, rule.refusal(request.secure()), null, rule);
        }
        if (classification.isError()) {
            return new Explanation(request.rawPath(), classification, ids, null, classification.reason(), false,
                    classification.errorStatus(), "jwd: " + classification.errorMessage(), null, rule);
        }
        ServerGroup group = classification.group();
        Choice choice = group.type() == ServerType.ABAP ? abap(group, ids, dry) : j2ee(group, ids, dry);
        if (choice.server == null) {
            return new Explanation(request.rawPath(), classification, ids, null, choice.reason, false, 503,
                    "jwd: no server of group " + group.name() + " can take the request", null, rule);
        }
        String target = choice.server.config().url() + path.forwardPath()
                + (request.query() == null ? "" : "?" + request.query());
        return new Explanation(request.rawPath(), classification, ids, choice.server, choice.reason, choice.bound, 0,
                null, target, rule);
    }

    private Choice j2ee(ServerGroup group, SessionIdentifiers ids, Effects fx) {
        for (SaplbCookie saplb : ids.saplbCookies()) {
            // saplb_* names a server of any group; saplb_<G> one of logon group G.
            if (saplb.isAnyGroup() || saplb.group().equals(group.name())) {
                for (Server s : group.members()) {
                    if (s.servesItsSessions() && saplb.matches(s.config().lbId())) {
                        return new Choice(s, "saplb cookie", true);
                    }
                }
            }
        }
        String route = ids.jsessionidRoute();
        if (route != null) {
            for (Server s : group.members()) {
                if (route.equals(s.config().route()) && s.servesItsSessions()) {
                    return new Choice(s, "route suffix", true);
                }
            }
        }
        return ids.jsessionid() == null ? balance(group, fx) : throughTable(group, ids.jsessionid(), fx);
    }

    private Choice abap(ServerGroup group, SessionIdentifiers ids, Effects fx) {
        String name = ids.sapContextServer();
        if (name != null) {
            for (Server s : group.members()) {
                if (name.equals(s.config().name()) && s.servesItsSessions()) {
                    return new Choice(s, "sap-contextid", true);
                }
            }
        }
        return ids.sapExtSid() == null ? balance(group, fx)
                : throughTable(group, EXT_SID_KEY + ids.sapExtSid(), fx);
    }

    /**
     * The temporary session table: the first binding wins, so concurrent first requests of one session agree;
     * a binding to a server that no longer serves its sessions is replaced atomically, so they agree again.
     */
    private Choice throughTable(ServerGroup group, String sessionId, Effects fx) {
        if (!config.sessionTableEnabled()) {
            return balance(group, fx);
        }
        String boundId = fx.lookup(sessionId);
        if (boundId != null) {
            Server bound = group.member(boundId);
            if (bound == null && topology.server(boundId) != null) {
                // Bound to a server of another group (another URL of the same session): keep that binding.
                Choice balanced = balance(group, fx);
                return new Choice(balanced.server, "balanced (session bound to " + boundId + " outside "
                        + group.name() + ")", false);
            }
            // A server no longer in the topology (removed by a reload, expired, deregistered) serves nothing:
            // the session is rebound like one whose server is down.
            if (bound != null && bound.servesItsSessions()) {
                return new Choice(bound, "session table", true);
            }
            Choice balanced = balance(group, fx);
            if (balanced.server == null) {
                return balanced;
            }
            String winner = fx.rebind(sessionId, boundId, balanced.server.id());
            return follow(group, winner, balanced, "session table rebind from " + boundId);
        }
        Choice balanced = balance(group, fx);
        if (balanced.server == null) {
            return balanced;
        }
        String winner = fx.bind(sessionId, balanced.server.id());
        return follow(group, winner, balanced, "session table bind");
    }

    /** Goes where the table says now; a concurrent request may have bound the session first. */
    private static Choice follow(ServerGroup group, String winnerId, Choice balanced, String reason) {
        if (winnerId.equals(balanced.server.id())) {
            return new Choice(balanced.server, reason, false);
        }
        Server winner = group.member(winnerId);
        if (winner != null && winner.servesItsSessions()) {
            return new Choice(winner, "session table (bound concurrently)", true);
        }
        return new Choice(balanced.server, reason, false);
    }

    private Choice balance(ServerGroup group, Effects fx) {
        return new Choice(fx.pick(group), "balanced", false);
    }

    /** Learns from a server's answer: a JSESSIONID it sets is bound to it (unless bound already). */
    public void learn(RoutingDecision decision, List<String> setCookieHeaders) {
        if (!config.sessionTableEnabled() || decision.server() == null) {
            return;
        }
        for (String header : setCookieHeaders) {
            String id = SetCookieHeaders.jsessionid(header);
            if (id != null) {
                sessionTable.bind(id, decision.server().id());
            }
        }
    }

    /**
     * With {@code wdisp/add_saplb_cookie}: when a J2EE server starts a session (sets a JSESSIONID) without a
     * {@code saplb_*} cookie of its own, the {@code Set-Cookie} value jwd adds for it; else {@code null}.
     */
    public String saplbCookieFor(RoutingDecision decision, List<String> setCookieHeaders, boolean secure) {
        Server server = decision.server();
        if (!config.addSaplbCookie() || server == null || server.type() != ServerType.J2EE
                || !SaplbCookieWriter.canWrite(server.config().lbId())) {
            return null;
        }
        boolean startsSession = false;
        for (String header : setCookieHeaders) {
            if (SetCookieHeaders.isSaplb(header)) {
                return null;
            }
            startsSession |= SetCookieHeaders.jsessionid(header) != null;
        }
        return startsSession ? SaplbCookieWriter.setCookieHeader(server.config().lbId(), secure) : null;
    }

    public Balancer balancer(ServerGroup group) {
        return balancers.get(group);
    }

    public SessionTable sessionTable() {
        return sessionTable;
    }

    /** The URL filter this router applies. */
    public PermissionTable permissionTable() {
        return permissionTable;
    }

    private record Choice(Server server, String reason, boolean bound) {
    }

    /** What a routing pass asks of the balancers and the session table; {@link #route} changes them, explain not. */
    private interface Effects {
        /** The member of {@code group} a new request goes to, or {@code null}. */
        Server pick(ServerGroup group);

        String lookup(String sessionId);

        String bind(String sessionId, String serverId);

        String rebind(String sessionId, String expectedServerId, String newServerId);
    }
}
