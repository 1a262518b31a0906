package org.jwd.routing;

import java.net.URI;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.jwd.affinity.LearnedRoutes;
import org.jwd.affinity.SessionAffinity;
import org.jwd.affinity.SessionLearning;
import org.jwd.affinity.SessionAffinity.Choice;
import org.jwd.affinity.RoutingEffects;
import org.jwd.affinity.SessionCookies;
import org.jwd.affinity.SessionIdentifiers;
import org.jwd.sessiontable.SessionTable;
import org.jwd.balancing.Balancer;
import org.jwd.balancing.Balancers;
import org.jwd.limits.ConnectionSlots;
import org.jwd.limits.ServerSlots;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.ServerType;
import org.jwd.filter.PermissionTable;
import org.jwd.tls.SslEncrypt;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.Topology;

/**
 * Turns a request into a {@link RoutingDecision}, once: the path is normalized exactly as the server will see
 * it, the URL filter applied, the group determined from it ({@link GroupResolver}), a session keeps the request on
 * its server ({@link SessionAffinity}: SAP's order, a valid identifier winning over the URL's group), and otherwise
 * the group's balancer chooses. It knows nothing of servlets.
 *
 * <p>{@link #route} and {@link #explain} are one pipeline ({@link #decide}) with different effects: where route
 * picks, binds and refreshes, explain takes the balancer's favorite, peeks at the session table and changes nothing.
 * <p>A request forwarded over HTTPS ({@code wdisp/ssl_encrypt} 1, or 2 and the client came over TLS) goes to
 * the S groups, whose members all have an {@code https_url}, and to that URL.
 */
public final class Router {
    private final DispatcherConfig config;
    private final GroupResolver resolver;
    private final SessionAffinity affinity;
    private final Map<ServerGroup, Balancer> balancers = new IdentityHashMap<>();
    private final SessionTable sessionTable;
    /** What routing changes: the balancers' counts and the session table's bindings and idle times. */
    private final RoutingEffects live;
    /** The same questions, answered without changing anything: the favorite, a peek, the binding that would be. */
    private final RoutingEffects dry;
    private final SslEncrypt sslEncrypt;
    private final PermissionTable permissionTable;

    private final Topology topology;
    private final LearnedRoutes learnedRoutes;
    private final SessionLearning sessionLearning;
    private final ConnectionSlots slots;

    /**
     * @param learnedRoutes the dispatcher's, handed to every router it builds, so that a reload keeps them
     * @param slots         the servers' connection slots: a balanced request avoids a full server
     */
    public Router(DispatcherConfig config, Topology topology, Supplier<UrlMappingTable> urlMappingTable,
                  SessionTable sessionTable, LearnedRoutes learnedRoutes, ConnectionSlots slots) {
        this.config = config;
        this.topology = topology;
        this.learnedRoutes = learnedRoutes;
        this.slots = slots;
        this.resolver = new GroupResolver(config, topology, urlMappingTable);
        this.affinity = new SessionAffinity(config, topology, learnedRoutes);
        this.sessionTable = sessionTable;
        this.sessionLearning = new SessionLearning(config, topology, sessionTable, learnedRoutes);
        this.sslEncrypt = SslEncrypt.of(config);
        this.permissionTable = config.section(PermissionTable.class);
        for (ServerGroup group : topology.allGroups()) {
            balancers.put(group, Balancers.create(group, config));
        }
        this.live = RoutingEffects.live(sessionTable, group -> pickWithRoom(balancers.get(group), group));
        this.dry = RoutingEffects.dry(sessionTable, group -> {
            String favorite = balancers.get(group).snapshot().favorite();
            return favorite == null ? null : group.member(favorite);
        });
    }

    /**
     * The balancer's pick, but not a server whose connection slots are all taken ({@code server.<id>.max_connections})
     * while another member has room: the request would wait there for nothing. It goes instead to the member with
     * room that has the fewest requests in flight per capacity (the balancers' own first measure; asking the
     * balancer again would not do, as weighted_round_robin picks by that measure and would name the full member
     * again). When every member is full, the pick stands and the request waits in its server's queue.
     */
    private Server pickWithRoom(Balancer balancer, ServerGroup group) {
        Server pick = balancer.pick();
        if (pick == null || hasRoom(pick)) {
            return pick;
        }
        Server best = group.leastLoaded(this::hasRoom);
        return best == null ? pick : best;
    }

    /**
     * Whether a request routed now would get a slot at once. The requests routed to the server count as well as
     * those holding a slot: a request takes its slot only once it is sent, a moment after routing. (Requests
     * routed in that moment by other threads may still queue at a server that just filled up.)
     */
    private boolean hasRoom(Server server) {
        ServerSlots own = slots.of(server.id());
        return own.hasRoom() && (!own.isLimited() || server.inFlight() < own.maxConnections());
    }

    public RoutingDecision route(RoutingRequest request) {
        return route(request, null);
    }

    /**
     * As {@link #route(RoutingRequest)}, for a request that {@code failed} dropped without a byte of an answer: it
     * goes elsewhere, and a session bound to {@code failed} moves with it (see {@link SessionAffinity#avoiding}).
     */
    public RoutingDecision route(RoutingRequest request, Server failed) {
        Decision d = decide(request, live, failed == null ? affinity : affinity.avoiding(failed));
        if (d.status != 0) {
            return RoutingDecision.reject(d.status, d.message, d.path == null ? null : d.path.path(), d.group,
                    d.reason);
        }
        d.choice.server().requestStarted(d.choice.bound());
        return RoutingDecision.forward(d.path.path(), d.group, d.choice, d.target);
    }

    /**
     * Where {@code request} would go now and why, as {@link #route} decides it, without any of its effects: no
     * balancer counts a dispatch (the group's favorite stands for the pick), no session is bound, rebound or
     * refreshed, no hit or miss is counted, no server counts a request. A real request may still land elsewhere
     * when others arrive first.
     */
    public Explanation explain(RoutingRequest request) {
        Decision d = decide(request, dry, affinity);
        Server server = d.choice == null ? null : d.choice.server();
        return new Explanation(request.rawPath(), d.classification, d.ids, d.status != 0 ? null : server, d.reason,
                d.status == 0 && d.choice.bound(), d.status, d.message, d.target, d.rule);
    }

    /**
     * Which server {@code ids} place a request on, by SAP's order and whatever the URL (the admin's session lookup),
     * without any effect; {@code null} when none of them names a server that serves its sessions. A pasted
     * {@code saplb_<group>} is read as if the URL were its group's.
     */
    public SessionAffinity.Choice locate(SessionIdentifiers ids) {
        String group = ids.saplbCookies().isEmpty() ? null : ids.saplbCookies().get(0).group();
        return ids.isEmpty() ? null : affinity.choose(null, null, group, ids, false, dry);
    }

    /** The one pipeline of {@link #route} and {@link #explain}: the same steps, with live or dry effects. */
    private Decision decide(RoutingRequest request, RoutingEffects fx, SessionAffinity affinity) {
        Decision d = new Decision();
        if (request.path() == null) {
            return d.reject(400, "jwd: bad path: " + request.badPath().getMessage(), "bad path");
        }
        d.path = request.path();
        d.ids = SessionCookies.parse(request.cookieHeaders(), d.path.parameters(), d.path.mangledParts());
        boolean secure = sslEncrypt.secure(request.secure());
        d.classification = resolver.classify(d.path, secure);
        // The URL filter: on the normalized path, so no encoding gets a URL past it; before any session is
        // looked at, so a refused request binds nothing and counts on no server.
        d.rule = filter(d.path, d.classification.filterType(), request.secure());
        if (d.rule != null && !d.rule.permits(request.secure())) {
            return d.reject(403, d.rule.refusal(request.secure()), "permission table line " + d.rule.line());
        }
        Classification c = d.classification;
        d.group = c.group();
        d.choice = affinity.choose(c.group(), c.sessionType(), c.logonGroup(), d.ids, secure, fx);
        if (d.choice == null) {
            return d.reject(c.errorStatus(), "jwd: " + c.errorMessage(), c.reason());
        }
        if (d.choice.server() == null) {
            return d.reject(503, "jwd: no server of group " + c.group().name()
                    + " can take the request (every member is down, drained or disabled)", d.choice.reason());
        }
        URI base = secure ? d.choice.server().config().httpsUrl() : d.choice.server().config().url();
        d.target = base + d.path.forwardPath() + (request.query() == null ? "" : "?" + request.query());
        d.reason = d.choice.reason();
        return d;
    }

    /**
     * The line of the URL filter that decides: the first that refuses the path as jwd reads it, or as a server that
     * decodes {@code %2F} and {@code %3B} before it splits reads it ({@link NormalizedPath#decodedFirst()}), so that
     * no encoding walks around a line; else the line that matched the path, or {@code null}. That second reading is
     * matched regardless of case when either reading is an ABAP path.
     */
    private PermissionTable.Rule filter(NormalizedPath path, ServerType type, boolean secure) {
        PermissionTable.Rule rule = permissionTable.match(path.path(), path.literalPath(), type);
        NormalizedPath other = path.decodedFirst();
        if (other == null || rule != null && !rule.permits(secure) || !permissionTable.isConfigured()) {
            return rule;
        }
        ServerType otherType = type == ServerType.ABAP ? type : resolver.typeOf(other);
        PermissionTable.Rule second = permissionTable.match(other.path(), other.literalPath(), otherType);
        return second != null && !second.permits(secure) ? second : rule;
    }

    /** One pass of {@link #decide}: what it found so far, or why it stopped. */
    private static final class Decision {
        NormalizedPath path;
        SessionIdentifiers ids = SessionIdentifiers.NONE;
        Classification classification;
        PermissionTable.Rule rule;
        /** The URL's group, once the filter let the request through: a refused request counts in none. */
        ServerGroup group;
        Choice choice;
        String target;
        String reason;
        int status;
        String message;

        Decision reject(int status, String message, String reason) {
            this.status = status;
            this.message = message;
            this.reason = reason;
            return this;
        }

    }

    /** What jwd learns from its servers' answers, with this router's configuration and session table. */
    public SessionLearning sessionLearning() {
        return sessionLearning;
    }

    /** The servers and groups this router routes among: with systems, its system's own. */
    public Topology topology() {
        return topology;
    }

    /** The configuration it routes by: with systems, its system's own. */
    public DispatcherConfig config() {
        return config;
    }

    public Balancer balancer(ServerGroup group) {
        return balancers.get(group);
    }

    public SessionTable sessionTable() {
        return sessionTable;
    }

    public LearnedRoutes learnedRoutes() {
        return learnedRoutes;
    }

    /** The URL filter this router applies. */
    public PermissionTable permissionTable() {
        return permissionTable;
    }
}
