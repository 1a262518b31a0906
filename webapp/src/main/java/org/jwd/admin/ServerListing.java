package org.jwd.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.jwd.balancing.BalancerSnapshot;
import org.jwd.config.Durations;
import org.jwd.config.HealthConfig;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerType;
import org.jwd.runtime.Dispatcher;
import org.jwd.runtime.DispatcherState;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.Topology;

/** {@code GET api/servers} and {@code api/servers/<id>}: each server as {@link ServerView} shows it. */
final class ServerListing {
    private final Dispatcher dispatcher;

    ServerListing(Dispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    /** Every server of {@code snapshot}; the balancers of their groups are read once for the whole list. */
    List<ServerView> servers(DispatcherState snapshot) {
        Map<ServerGroup, BalancerSnapshot> balancers = new IdentityHashMap<>();
        List<ServerView> list = new ArrayList<>();
        for (Server s : snapshot.topology().servers().values()) {
            list.add(server(snapshot, s, balancers));
        }
        return list;
    }

    ServerView server(DispatcherState snapshot, Server s, Map<ServerGroup, BalancerSnapshot> balancers) {
        ServerConfig c = s.config();
        // with systems, its groups and its load are those of its system's router
        SystemPart part = SystemPart.ofServer(snapshot, s.id());
        ServerGroup home = homeGroup(part.topology(), s);
        BalancerSnapshot b = home == null ? null
                : balancers.computeIfAbsent(home, g -> GroupListing.balancer(part.router(), g));
        boolean configured = dispatcher.isConfigured(s.id());
        String discoveredFrom = configured ? null : discoveredFrom(s.id());
        Duration expiresIn = configured ? null : dispatcher.registry().expiresIn(s.id());
        long served = s.served();
        int inFlight = s.inFlight();
        long stateful = s.statefulRequests();
        String learnedRoute = snapshot.router().learnedRoutes().routeOf(s.id());
        return new ServerView(s.id(), s.type().key(), c.url() == null ? null : c.url().toString(),
                c.httpsUrl() == null ? null : c.httpsUrl().toString(), s.capacity(), new TreeSet<>(c.logonGroups()),
                groupsOf(part, s), c.route() != null ? c.route() : learnedRoute,
                c.route() != null ? "config" : learnedRoute != null ? "learned" : null,
                configured ? "config" : discoveredFrom != null ? "discovery" : "registry",
                expiresIn == null ? null : expiresIn.toMillis(),
                s.state().name().toLowerCase(Locale.ROOT), s.adminState().name().toLowerCase(Locale.ROOT),
                s.healthy(), new ServerView.Load(home == null ? null : home.name(), b == null ? null : b.strategy(),
                        b == null ? null : GroupView.measure(b.strategy()), weightOf(b, s.id())),
                inFlight, served, stateful, Math.max(0, served + inFlight - stateful), s.errors(), c.healthPath(),
                s.lastCheck(), ServerView.Https.of(s), ServerView.Connections.of(snapshot.slots().of(s.id())),
                ServerView.ResponseMs.of(dispatcher.metrics().lastMinute(s.id(), System.nanoTime())),
                Instant.ofEpochMilli(s.stateSinceMillis()).toString(), operator(s),
                ServerView.Answers.of(s.traffic().counts()), check(s), null, part.sid(),
                discoveredFrom == null ? null : c.name(), discoveredFrom);
    }

    /** The message server a discovered server was learned from, or {@code null} for a server not discovered. */
    private String discoveredFrom(String id) {
        for (org.jwd.discovery.SystemView view : dispatcher.discovery().views().values()) {
            if (view.servers().stream().anyMatch(c -> c.id().equals(id))) {
                return view.answers().source();
            }
        }
        return null;
    }

    private ServerView.Operator operator(Server s) {
        Server.AdminChange change = s.adminChange();
        return new ServerView.Operator(change.by(), Instant.ofEpochMilli(change.atMillis()).toString(),
                s.config().state().key(), dispatcher.operator().where(), null);
    }

    private ServerView.Check check(Server s) {
        HealthConfig h = dispatcher.health().settings(s);
        Server.Failures f = s.failures();
        ServerConfig c = s.config();
        return new ServerView.Check((c.url() != null ? c.url() : c.httpsUrl()) + c.healthPath(), h.status().text(),
                Durations.format(h.interval()), Durations.format(h.timeout()), h.rise(), h.fall(), f.failedChecks(),
                f.last(), f.lastMillis() == 0 ? null : Instant.ofEpochMilli(f.lastMillis()).toString());
    }

    /** The internal groups (of its system) the server is a member of, then the logon groups that include it. */
    private static List<String> groupsOf(SystemPart part, Server s) {
        List<String> groups = new ArrayList<>();
        for (ServerGroup g : part.topology().internalGroups().values()) {
            if (g.member(s.id()) != null) {
                groups.add(g.name());
            }
        }
        for (LogonGroupConfig lg : part.config().logonGroups()) {
            if (lg.includes(s.config())) { // SPACE, unless configured, without being named
                groups.add(lg.name());
            }
        }
        return groups;
    }

    /**
     * The server's own internal group, whose load factor (or share) the server view shows: !J2EE or !DIAG (the S
     * group of a server with only an HTTPS port).
     */
    private static ServerGroup homeGroup(Topology topology, Server s) {
        boolean httpsOnly = s.config().url() == null;
        return topology.internalGroup(s.type() == ServerType.ABAP
                ? (httpsOnly ? ServerGroup.DIAGS : ServerGroup.DIAG)
                : (httpsOnly ? ServerGroup.J2EES : ServerGroup.J2EE));
    }

    /** The server's weight in the balancer's view, rounded as the page shows it; {@code null} when not a member. */
    private static Double weightOf(BalancerSnapshot b, String id) {
        Double weight = null;
        if (b != null) {
            for (BalancerSnapshot.Member m : b.members()) {
                if (m.serverId().equals(id)) {
                    weight = GroupView.rounded(m.weight());
                }
            }
        }
        return weight;
    }
}
