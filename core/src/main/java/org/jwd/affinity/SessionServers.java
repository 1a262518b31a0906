package org.jwd.affinity;

import org.jwd.config.DispatcherConfig;
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
    private static final String SPACE = "SPACE";

    private final Topology topology;
    private final LearnedRoutes learnedRoutes;
    /** Whether {@code saplb_SPACE} names any server: SAP's implicit logon group, unless the configuration has one. */
    private final boolean implicitSpace;
    /** A server treated as gone ({@link #avoiding}); {@code null} for every ordinary request. */
    private final Server avoid;

    SessionServers(DispatcherConfig config, Topology topology, LearnedRoutes learnedRoutes) {
        this(topology, learnedRoutes, config.logonGroups().stream().noneMatch(g -> g.name().equals(SPACE)), null);
    }

    private SessionServers(Topology topology, LearnedRoutes learnedRoutes, boolean implicitSpace, Server avoid) {
        this.topology = topology;
        this.learnedRoutes = learnedRoutes;
        this.implicitSpace = implicitSpace;
        this.avoid = avoid;
    }

    /** The same, with {@code failed} valid for no identifier. */
    SessionServers avoiding(Server failed) {
        return new SessionServers(topology, learnedRoutes, implicitSpace, failed);
    }

    /** Whether this server is the one a retry avoids. */
    boolean avoids(Server s) {
        return s == avoid;
    }

    /** The J2EE server a {@code saplb_*} cookie names. */
    Server bySaplb(SaplbCookie saplb, boolean secure) {
        for (Server s : topology.servers().values()) {
            if (s.type() == ServerType.J2EE && names(saplb, s) && s.servesItsSessions(secure) && s != avoid) {
                return s;
            }
        }
        return null;
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

    /** The ABAP server whose name {@code sap-contextid} carries. */
    Server byContextName(String name, boolean secure) {
        if (name == null) {
            return null;
        }
        for (Server s : topology.servers().values()) {
            if (s.type() == ServerType.ABAP && name.equals(s.config().name()) && s.servesItsSessions(secure)
                    && s != avoid) {
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

    /** Does this {@code saplb} cookie name this server? {@code saplb_<G>} only names members of logon group G. */
    private boolean names(SaplbCookie saplb, Server s) {
        if (!saplb.matches(s.config().lbId())) {
            return false;
        }
        return saplb.isAnyGroup() || s.config().logonGroups().contains(saplb.group())
                || (implicitSpace && saplb.group().equals(SPACE));
    }
}
