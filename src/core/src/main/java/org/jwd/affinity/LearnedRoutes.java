package org.jwd.affinity;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.jwd.topology.Server;
import org.jwd.config.ServerType;
import org.jwd.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JSESSIONID route suffixes learned from the servers' own {@code Set-Cookie}: Tomcat ends its session ids with
 * {@code .<jvmRoute>}, Jetty with {@code .<node>}. A J2EE server without {@code server.<id>.route} is known by the
 * suffix of the last JSESSIONID it set, so a landscape configured with nothing but {@code url} and {@code type} keeps
 * its sessions by the suffix, as a configured route would.
 *
 * <p>A suffix that two servers claim names neither: it is refused, with a warning, and their sessions are kept by
 * the session table alone (Jetty servers all end their ids with {@code .node0} until given a node name). So is a
 * suffix that another server has configured. A refusal lasts while two of its claimants are in the topology and
 * claim no other route.
 *
 * <p>One instance lives as long as the dispatcher and is handed to every router it builds, so a reload keeps what
 * was learned; {@link #retain} forgets the servers that left. Reads take no lock (every request with a route suffix
 * reads); learning takes one only when something changes.
 */
public final class LearnedRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(LearnedRoutes.class);

    /** route -> the server that learned it; guarded by this for writes. */
    private final Map<String, String> serverByRoute = new ConcurrentHashMap<>();
    /** server id -> its learned route; guarded by this for writes. */
    private final Map<String, String> routeByServer = new ConcurrentHashMap<>();
    /** refused route -> the servers that claimed it (configured or learned); guarded by this. */
    private final Map<String, Set<String>> refused = new HashMap<>();

    /**
     * Learns from a JSESSIONID that {@code server} set: its route suffix becomes the server's route, unless the
     * server has one configured, is no J2EE server, or another server claims the suffix (then it is refused).
     */
    public void learn(Topology topology, Server server, String jsessionid) {
        String route = SessionCookies.route(jsessionid);
        if (route == null || server.type() != ServerType.J2EE || server.config().route() != null
                || route.equals(routeByServer.get(server.id()))) {
            return;
        }
        synchronized (this) {
            Set<String> claimants = refused.get(route);
            if (claimants != null) {
                claimants.add(server.id());
                forget(server.id());
                return;
            }
            String other = configuredOwner(topology, route);
            if (other == null) {
                other = serverByRoute.get(route);
            }
            if (other != null && !other.equals(server.id())) {
                refuse(route, other, server.id());
                return;
            }
            String before = forget(server.id());
            // a server that ends its ids otherwise now no longer claims a suffix refused before
            refused.values().forEach(c -> c.remove(server.id()));
            refused.values().removeIf(c -> c.size() < 2);
            serverByRoute.put(route, server.id());
            routeByServer.put(server.id(), route);
            LOG.info("jwd: server {} ends its session ids with .{}: learned as its route{}", server.id(), route,
                    before == null ? "" : " (was ." + before + ")");
        }
    }

    /** The server whose learned route this is, or {@code null} (none learned it, or it was refused). */
    public String serverFor(String route) {
        return serverByRoute.get(route);
    }

    /** The route learned for this server, or {@code null}. */
    public String routeOf(String serverId) {
        return routeByServer.get(serverId);
    }

    /** Whether two servers claimed this route, so that it names neither. */
    public synchronized boolean isRefused(String route) {
        return refused.containsKey(route);
    }

    /**
     * Forgets what servers that are no longer in {@code topology} taught, the learned route of a server that now has
     * one configured, and a learned route that another server now has configured; a refusal ends when fewer than two
     * of its claimants remain.
     */
    public synchronized void retain(Topology topology) {
        for (String id : Set.copyOf(routeByServer.keySet())) {
            Server s = topology.server(id);
            if (s == null || s.type() != ServerType.J2EE || s.config().route() != null
                    || configuredOwner(topology, routeByServer.get(id)) != null) {
                forget(id);
            }
        }
        refused.values().forEach(claimants -> claimants.removeIf(id -> topology.server(id) == null));
        refused.values().removeIf(claimants -> claimants.size() < 2);
    }

    /** Drops the server's learned route; returns it, or {@code null}. Guarded by this. */
    private String forget(String serverId) {
        String route = routeByServer.remove(serverId);
        if (route != null) {
            serverByRoute.remove(route, serverId);
        }
        return route;
    }

    /** Guarded by this. */
    private void refuse(String route, String first, String second) {
        forget(first);
        Set<String> claimants = new TreeSet<>(Set.of(first, second));
        refused.put(route, claimants);
        LOG.warn("jwd: servers {} and {} both end their session ids with .{}: the route suffix names neither, their"
                + " sessions are kept by the session table (give each a distinct jvmRoute or node name, or set"
                + " server.<id>.route)", first, second, route);
    }

    private static String configuredOwner(Topology topology, String route) {
        for (Server s : topology.servers().values()) {
            if (route.equals(s.config().route())) {
                return s.id();
            }
        }
        return null;
    }

    @Override
    public synchronized String toString() {
        return "LearnedRoutes" + new TreeSet<>(routeByServer.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList()) + " refused " + refused.keySet();
    }
}
