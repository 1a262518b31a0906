package org.jwd.affinity;

import org.jwd.topology.Server;
import org.jwd.config.ServerType;
import org.jwd.topology.Topology;

/**
 * Which server a session identifier names, if it is valid: a server of the request's stack that serves its
 * sessions (up or drained), can be reached the way the request must go (a healthy HTTPS port when forwarded over
 * HTTPS), and is not the server a retry avoids. {@code null} for an identifier that names no such server: it is
 * ignored, never an error.
 */
final class SessionServers {
    private final Topology topology;
    private final LearnedRoutes learnedRoutes;
    /** A server treated as gone ({@link #avoiding}); {@code null} for every ordinary request. */
    private final Server avoid;

    SessionServers(Topology topology, LearnedRoutes learnedRoutes) {
        this(topology, learnedRoutes, null);
    }

    private SessionServers(Topology topology, LearnedRoutes learnedRoutes, Server avoid) {
        this.topology = topology;
        this.learnedRoutes = learnedRoutes;
        this.avoid = avoid;
    }

    /** The same, with {@code failed} valid for no identifier. */
    SessionServers avoiding(Server failed) {
        return new SessionServers(topology, learnedRoutes, failed);
    }

    /** Whether this server is the one a retry avoids. */
    boolean avoids(Server s) {
        return s == avoid;
    }

    /**
     * The J2EE server a {@code saplb} cookie names: the one whose {@code lb_id} is the cookie's value or node part
     * (that server node itself), else the first whose {@code instance_id} is its instance (SAP's Web Dispatcher
     * routes by the instance; the node is for the instance's own Java dispatcher). {@code saplb_<G>} only names
     * members of logon group G.
     */
    Server bySaplb(SaplbCookie saplb, boolean secure) {
        Server ofInstance = null;
        for (Server s : topology.servers().values()) {
            if (s.type() != ServerType.J2EE || !inGroup(saplb, s) || !s.servesItsSessions(secure) || s == avoid) {
                continue;
            }
            if (saplb.matches(s.config().lbId())) {
                return s;
            }
            if (ofInstance == null && saplb.instance().equals(s.config().instanceId())) {
                ofInstance = s;
            }
        }
        return ofInstance;
    }

    /** The J2EE server whose SAP name an AS Java session id carries ({@code (<name>)...End}). */
    Server byJsessionidName(String name, boolean secure) {
        return byName(name, ServerType.J2EE, secure);
    }

    /** The J2EE server configured with this JSESSIONID route suffix ({@code server.<id>.route}). */
    Server byConfiguredRoute(String route, boolean secure) {
        for (Server s : topology.servers().values()) {
            if (s.type() == ServerType.J2EE && route.equals(s.config().route()) && s.servesItsSessions(secure)
                    && s != avoid) {
                return s;
            }
        }
        return null;
    }

    /** The J2EE server that was seen to answer with this route suffix, unless it has one configured. */
    Server byLearnedRoute(String route, boolean secure) {
        String learner = learnedRoutes.serverFor(route);
        Server learned = learner == null ? null : valid(learner, ServerType.J2EE, secure);
        return learned != null && learned.config().route() == null ? learned : null;
    }

    /** The ABAP server whose name the ABAP session id ({@code sap-contextid}, or its URL form) carries. */
    Server byContextName(String name, boolean secure) {
        return byName(name, ServerType.ABAP, secure);
    }

    private Server byName(String name, ServerType type, boolean secure) {
        if (name == null) {
            return null;
        }
        for (Server s : topology.servers().values()) {
            if (s.type() == type && name.equals(s.config().name()) && s.servesItsSessions(secure) && s != avoid) {
                return s;
            }
        }
        return null;
    }

    /** The server with this id (as the session table holds it), if it is of this stack and valid. */
    Server valid(String serverId, ServerType type, boolean secure) {
        Server s = topology.server(serverId);
        return s != null && s != avoid && s.type() == type && s.servesItsSessions(secure) ? s : null;
    }

    /** Whether a server may be named by this cookie: any by {@code saplb_*}, members of G by {@code saplb_<G>}. */
    private static boolean inGroup(SaplbCookie saplb, Server s) {
        return saplb.isAnyGroup() || s.config().logonGroups().contains(saplb.group());
    }
}
