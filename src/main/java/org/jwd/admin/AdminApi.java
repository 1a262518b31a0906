package org.jwd.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

import org.jwd.Dispatcher;
import org.jwd.Reloader;
import org.jwd.affinity.ClusterStatus;
import org.jwd.affinity.SaplbCookie;
import org.jwd.affinity.SessionIdentifiers;
import org.jwd.affinity.SessionTableStats;
import org.jwd.balancing.BalancerSnapshot;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.metrics.ResponseTimes;
import org.jwd.registry.ServerRegistry;
import org.jwd.routing.Classification;
import org.jwd.filter.PermissionTable;
import org.jwd.routing.Explanation;
import org.jwd.routing.Router;
import org.jwd.routing.RoutingRequest;
import org.jwd.limits.ServerSlots;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.ServerType;
import org.jwd.topology.Topology;

/**
 * What the JSON API under {@code /jwd/admin/api/} answers, as maps and lists ready for {@link Json#write}; and the
 * operator's actions. Knows nothing of servlets: {@link AdminServlet} does HTTP, credentials and cross-site checks.
 * Every read works on one {@link Dispatcher.Snapshot}, so a page never mixes two topologies.
 */
public final class AdminApi {
    /** An answer: the status and the JSON body. */
    public record Answer(int status, Object body) {
        static Answer ok(Object body) {
            return new Answer(200, body);
        }

        static Answer error(int status, String message) {
            return new Answer(status, Json.obj("error", message));
        }
    }

    private final Dispatcher dispatcher;
    private final RequestHistory history;
    private final Instant started;
    private final LongSupplier clockMillis;

    public AdminApi(Dispatcher dispatcher, RequestHistory history, LongSupplier clockMillis) {
        this.dispatcher = dispatcher;
        this.history = history;
        this.clockMillis = clockMillis;
        this.started = Instant.ofEpochMilli(clockMillis.getAsLong());
    }

    /** {@code GET api/status}: the dispatcher at a glance. */
    public Map<String, Object> status() {
        Dispatcher.Snapshot snapshot = dispatcher.snapshot();
        Topology topology = snapshot.topology();
        Map<String, Object> states = Json.obj("total", topology.servers().size(), "up", 0, "drained", 0, "down", 0,
                "disabled", 0, "registered", dispatcher.registry().servers().size());
        long served = 0;
        long inFlight = 0;
        long errors = 0;
        long stateful = 0;
        for (Server s : topology.servers().values()) {
            String key = s.state().name().toLowerCase(Locale.ROOT);
            states.put(key, (Integer) states.get(key) + 1);
            served += s.served();
            inFlight += s.inFlight();
            errors += s.errors();
            stateful += s.statefulRequests();
        }
        long now = clockMillis.getAsLong();
        return Json.obj(
                "time", Instant.ofEpochMilli(now).toString(),
                "started", started.toString(),
                "uptime_s", (now - started.toEpochMilli()) / 1000,
                "servers", states,
                "requests", Json.obj("served", served, "in_flight", inFlight, "errors", errors, "stateful", stateful,
                        "stateless", served + inFlight - stateful),
                "session_table", sessionTable(),
                "health", snapshot.config().health().toString(),
                "strategy", snapshot.config().loadBalancingStrategy());
    }

    /** {@code GET api/servers}: every server with its state, load and counters. */
    public List<Object> servers() {
        Dispatcher.Snapshot snapshot = dispatcher.snapshot();
        Map<ServerGroup, BalancerSnapshot> balancers = new IdentityHashMap<>();
        List<Object> list = new ArrayList<>();
        for (Server s : snapshot.topology().servers().values()) {
            list.add(server(snapshot, s, balancers));
        }
        return list;
    }

    /** {@code GET api/servers/<id>}, or {@code null} when there is no such server. */
    public Map<String, Object> server(String id) {
        Dispatcher.Snapshot snapshot = dispatcher.snapshot();
        Server s = snapshot.topology().server(id);
        return s == null ? null : server(snapshot, s, new IdentityHashMap<>());
    }

    private Map<String, Object> server(Dispatcher.Snapshot snapshot, Server s,
                                       Map<ServerGroup, BalancerSnapshot> balancers) {
        ServerConfig c = s.config();
        Topology topology = snapshot.topology();
        List<String> groups = new ArrayList<>();
        for (ServerGroup g : topology.internalGroups().values()) {
            if (g.member(s.id()) != null) {
                groups.add(g.name());
            }
        }
        groups.addAll(new java.util.TreeSet<>(c.logonGroups()));
        // The load factor (or share) in the server's own internal group: !J2EE or !DIAG.
        ServerGroup home = topology.internalGroup(s.type() == ServerType.ABAP ? ServerGroup.DIAG : ServerGroup.J2EE);
        BalancerSnapshot b = balancers.computeIfAbsent(home, g -> balancer(snapshot.router(), g));
        Object weight = null;
        if (b != null) {
            for (BalancerSnapshot.Member m : b.members()) {
                if (m.serverId().equals(s.id())) {
                    weight = round(m.weight());
                }
            }
        }
        ServerRegistry registry = dispatcher.registry();
        Duration expiresIn = dispatcher.isConfigured(s.id()) ? null : registry.expiresIn(s.id());
        long served = s.served();
        int inFlight = s.inFlight();
        long stateful = s.statefulRequests();
        return Json.obj(
                "id", s.id(),
                "type", s.type().key(),
                "url", c.url().toString(),
                "https_url", c.httpsUrl() == null ? null : c.httpsUrl().toString(),
                "capacity", s.capacity(),
                "logon_groups", new java.util.TreeSet<>(c.logonGroups()),
                "groups", groups,
                "source", dispatcher.isConfigured(s.id()) ? "config" : "registry",
                "expires_in_ms", expiresIn == null ? null : expiresIn.toMillis(),
                "state", s.state().name().toLowerCase(Locale.ROOT),
                "admin_state", s.adminState().name().toLowerCase(Locale.ROOT),
                "healthy", s.healthy(),
                "load", Json.obj("group", home.name(), "strategy", b == null ? null : b.strategy(),
                        "measure", b == null ? null : measure(b.strategy()), "value", weight),
                "in_flight", inFlight,
                "served", served,
                "stateful", stateful,
                "stateless", Math.max(0, served + inFlight - stateful),
                "errors", s.errors(),
                "health_path", c.healthPath(),
                "last_check", s.lastCheck(),
                "connections", connections(s.slots()),
                "response_ms", responseTimes(s));
    }

    /** The last minute's p50 and p99 in milliseconds, to the first byte and to the last; null without answers. */
    private Map<String, Object> responseTimes(Server s) {
        ResponseTimes.Quantiles q = dispatcher.metrics().lastMinute(s.id(), System.nanoTime());
        return q == null ? null : Json.obj("answers", q.count(), "first_byte_p50", q.firstByteP50(),
                "first_byte_p99", q.firstByteP99(), "last_byte_p50", q.lastByteP50(), "last_byte_p99",
                q.lastByteP99());
    }

    /** {@code server.<id>.max_connections} and its queue: null limits mean none. */
    private static Map<String, Object> connections(ServerSlots slots) {
        return Json.obj("max_connections", slots.isLimited() ? slots.maxConnections() : null,
                "max_queue", slots.isLimited() && slots.maxQueue() >= 0 ? slots.maxQueue() : null,
                "active", slots.active(), "queued", slots.queued(), "rejected", slots.rejected(),
                "queue_timeouts", slots.timedOut());
    }

    private static BalancerSnapshot balancer(Router router, ServerGroup group) {
        var balancer = router.balancer(group);
        return balancer == null ? null : balancer.snapshot();
    }

    /** What a balancer's weights are: qualities for logon groups (higher is preferred), else load factors. */
    private static String measure(String strategy) {
        return switch (strategy) {
            case "B", "R", "W" -> "quality";
            case "simple_weighted_round_robin" -> "share used";
            default -> "load factor";
        };
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /**
     * {@code GET api/groups}: the groups requests are balanced over, with their members and the next preferred
     * server (the favorite); {@code name} selects one group (all when {@code null}).
     */
    public List<Object> groups(String name) {
        Dispatcher.Snapshot snapshot = dispatcher.snapshot();
        Topology topology = snapshot.topology();
        List<Object> list = new ArrayList<>();
        for (ServerGroup g : topology.internalGroups().values()) {
            boolean secure = g.name().equals(ServerGroup.DIAGS) || g.name().equals(ServerGroup.J2EES);
            if ((name == null || name.equals(g.name())) && (!secure || !g.members().isEmpty())) {
                list.add(group(snapshot, g, "internal", secure));
            }
        }
        for (LogonGroupConfig lg : snapshot.config().logonGroups()) {
            if (name != null && !name.equals(lg.name())) {
                continue;
            }
            boolean shown = false;
            for (boolean secure : new boolean[] {false, true}) {
                for (ServerType type : ServerType.values()) {
                    ServerGroup g = topology.logonGroup(lg.name(), type, secure);
                    if (g != null && !g.members().isEmpty()) {
                        list.add(group(snapshot, g, "logon", secure));
                        shown = true;
                    }
                }
            }
            if (!shown) {
                // shown empty all the same, so that an operator sees it has no server
                list.add(group(snapshot, topology.logonGroup(lg.name(), ServerType.J2EE, false), "logon", false));
            }
        }
        return list;
    }

    private Map<String, Object> group(Dispatcher.Snapshot snapshot, ServerGroup g, String kind, boolean secure) {
        BalancerSnapshot b = balancer(snapshot.router(), g);
        List<Object> members = new ArrayList<>();
        if (b != null) {
            for (BalancerSnapshot.Member m : b.members()) {
                Server s = g.member(m.serverId());
                members.add(Json.obj("id", m.serverId(), "capacity", m.capacity(), "value", round(m.weight()),
                        "in_flight", m.inFlight(), "served", m.served(),
                        "state", s == null ? null : s.state().name().toLowerCase(Locale.ROOT),
                        "url", s == null ? null : s.config().url().toString()));
            }
        }
        LogonGroupConfig lg = g.logonGroup();
        return Json.obj(
                "name", g.name(),
                "kind", kind,
                "type", g.type() == null ? "any" : g.type().key(),
                "secure", secure,
                "logon_group_type", lg == null ? null : String.valueOf(lg.type()),
                "url_prefixes", lg == null ? List.of() : lg.urlPrefixes(),
                "strategy", b == null ? null : b.strategy(),
                "measure", b == null ? null : measure(b.strategy()),
                "favorite", b == null ? null : b.favorite(),
                "members", members);
    }

    /**
     * {@code GET api/sessiontable}: the session table's parts and figures. One store holds SAP's session ID table
     * (ESIDs, learned JSESSIONIDs; {@code wdisp/HTTP/*}) and the temporary table ({@code SessionTableTimeout}).
     */
    public Map<String, Object> sessionTable() {
        SessionTableStats st = dispatcher.sessionTable().stats();
        ClusterStatus cluster = dispatcher.sessionTable().clusterStatus();
        DispatcherConfig c = dispatcher.config();
        return Json.obj(
                "enabled", c.sessionTableEnabled(),
                "timeout", Durations.format(c.sessionTableTimeout()),
                "esid_support", c.esidSupport(),
                "jsessionid_tab_support", c.jsessionidTabSupport(),
                "context_timeout", Durations.format(c.contextTimeout()),
                "temporary_table", c.temporaryTableEnabled(),
                "jsessionid_timeout", Durations.format(c.jsessionidTimeout()),
                "full", dispatcher.sessionTable().isFull(),
                "max_entries", c.maxSessionTableEntries(),
                "entries", st.entries(),
                "hits", st.hits(),
                "misses", st.misses(),
                "bindings", st.bindings(),
                "rebindings", st.rebindings(),
                "expirations", st.expirations(),
                "rejected", st.rejected(),
                "cluster", String.valueOf(cluster.state()),
                "cluster_status", cluster.clustered() ? Json.obj(
                        "uri", cluster.uri(),
                        "state", cluster.state().name(),
                        "since", Instant.ofEpochMilli(cluster.sinceMillis()).toString(),
                        "outages", cluster.outages(),
                        "served_locally", cluster.servedLocally(),
                        "carried_over", cluster.carriedOver(),
                        "fresh_starts", cluster.freshStarts()) : null);
    }

    /** {@code GET api/config}: the configuration in force: every key as written (secrets masked), and the values derived. */
    public Map<String, Object> config() {
        DispatcherConfig c = dispatcher.config();
        Map<String, Object> properties = new TreeMap<>();
        c.properties().forEach((k, v) -> properties.put(k, k.equals(AdminConfig.PASSWORD_HASH)
                || k.toLowerCase(Locale.ROOT).contains("password") ? "(hidden)" : v));
        return Json.obj(
                "properties", properties,
                "effective", Json.obj(
                        "wdisp/load_balancing_strategy", c.loadBalancingStrategy(),
                        "SessionTableTimeout", Durations.format(c.sessionTableTimeout()),
                        "wdisp/HTTP/context_timeout", Durations.format(c.contextTimeout()),
                        "wdisp/HTTP/esid_support", c.esidSupport(),
                        "wdisp/HTTP/jsessionid_tab_support", c.jsessionidTabSupport(),
                        "is/HTTP/default_root_hdl", c.defaultRootHandler().key(),
                        "icf.url_prefixes", c.urlPrefixes(),
                        "rdisp/autoabaptime", Durations.format(c.autoAbapTime()),
                        "rdisp/registry_expiry", Durations.format(dispatcher.admin().registryExpiry()),
                        "health", c.health().toString(),
                        "jwd.connect_timeout", Durations.format(c.connectTimeout()),
                        "jwd.request_timeout", Durations.format(c.requestTimeout()),
                        "logon_groups", c.logonGroups().stream().map(LogonGroupConfig::toString).toList()),
                "reload", reloadStatus());
    }

    /**
     * The configuration file and its reloads: {@code file}, {@code watch} (how often it is checked, {@code off}),
     * {@code loaded_at}, and the last reload: {@code outcome} ({@code applied}, {@code unchanged}, {@code rejected}),
     * {@code at}, {@code trigger}, {@code errors}, {@code pending_restart} (keys changed in the file that wait for a
     * restart, with the running value and the file's). {@code null} when the dispatcher was not started from a file.
     */
    private Map<String, Object> reloadStatus() {
        Reloader reloader = dispatcher.reloader();
        if (reloader == null) {
            return null;
        }
        Reloader.Result last = reloader.last();
        Duration watch = reloader.watchInterval();
        Map<String, Object> status = Json.obj(
                "file", reloader.file().toString(),
                "watch", watch.isZero() ? "off" : Durations.format(watch),
                "loaded_at", reloader.loadedAt().toString(),
                "outcome", last == null ? null : last.outcome().key(),
                "at", last == null ? null : last.at().toString(),
                "trigger", last == null ? null : last.trigger(),
                "errors", last == null ? List.of() : last.errors());
        status.put("pending_restart", last == null ? List.of() : last.pending().stream()
                .map(p -> Json.obj("key", p.key(), "running", hidden(p.key(), p.running()),
                        "file", hidden(p.key(), p.file())))
                .toList());
        return status;
    }

    private static String hidden(String key, String value) {
        return value != null && (key.equals(AdminConfig.PASSWORD_HASH) || key.toLowerCase(Locale.ROOT).contains("password"))
                ? "(hidden)" : value;
    }

    /**
     * {@code POST api/reload}: reads the configuration file again now. 200 when it was applied or unchanged, 422 when
     * it was rejected (the running configuration stays); the body is {@link #reloadStatus}.
     */
    public Answer reload() {
        Reloader reloader = dispatcher.reloader();
        if (reloader == null) {
            return Answer.error(409, "this dispatcher was not started from a configuration file");
        }
        Reloader.Result result = reloader.reload("api");
        return new Answer(result.outcome() == Reloader.Outcome.REJECTED ? 422 : 200, reloadStatus());
    }

    /** {@code GET api/history}: requests served per server, sampled over the last minutes. */
    public Map<String, Object> history() {
        return history.toJson(dispatcher.topology().servers().values());
    }

    /**
     * {@code GET api/explain?url=<path>}: where a request for {@code url} with these cookies would go, and why.
     * A full URL ({@code https://host/irj}) says how the client came: over TLS or not, which decides the group
     * under {@code wdisp/ssl_encrypt=2}. Changes nothing.
     */
    public Answer explain(String url, List<String> cookieHeaders) {
        if (url == null || url.isEmpty()) {
            return Answer.error(400, "explain needs ?url=<path>, e.g. ?url=/irj/portal");
        }
        String pathAndQuery = url;
        boolean secure = false;
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("https://") || lower.startsWith("http://")) {
            secure = lower.startsWith("https://");
            int path = url.indexOf('/', url.indexOf("//") + 2);
            pathAndQuery = path < 0 ? "/" : url.substring(path);
        }
        String rawPath = pathAndQuery;
        String query = null;
        int q = pathAndQuery.indexOf('?');
        if (q >= 0) {
            rawPath = pathAndQuery.substring(0, q);
            query = pathAndQuery.substring(q + 1);
        }
        if (!rawPath.startsWith("/")) {
            return Answer.error(400, "url = '" + url + "': expected a path starting with '/', or an http:// or https:// URL");
        }
        Dispatcher.Snapshot snapshot = dispatcher.snapshot();
        Explanation e = snapshot.router().explain(new RoutingRequest("GET", rawPath, query, cookieHeaders, secure));
        Classification c = e.classification();
        ServerGroup group = e.group();
        List<Object> members = new ArrayList<>();
        if (group != null) {
            for (Server s : group.members()) {
                members.add(Json.obj("id", s.id(), "state", s.state().name().toLowerCase(Locale.ROOT),
                        "takes_new_requests", s.takesNewRequests(), "serves_its_sessions", s.servesItsSessions()));
            }
        }
        SessionIdentifiers ids = e.sessionIds();
        return Answer.ok(Json.obj(
                "url", url,
                "path", c == null ? null : c.path(),
                "type", c == null ? null : c.typeKey(),
                "rule", c == null ? null : c.rule(),
                "matched_prefix", c == null ? null : c.matchedPrefix(),
                "group", group == null ? null : group.name(),
                "classification", c == null ? null : c.reason(),
                "members", members,
                "session", Json.obj("jsessionid", ids.jsessionid(),
                        "saplb", ids.saplbCookies().stream().map(SaplbCookie::toString).toList(),
                        "sap_contextid", ids.sapContextId(), "sap_ext_sid", ids.sapExtSid()),
                "server", e.server() == null ? null : e.server().id(),
                "reason", e.reason(),
                "bound", e.bound(),
                "target", e.target(),
                "status", e.errorStatus() == 0 ? 200 : e.errorStatus(),
                "error", e.errorMessage(),
                "permission", permission(snapshot.router().permissionTable(), e.permissionRule())));
    }

    /** The URL filter's part of an explanation: the line that matched (file, line, text), or that none did. */
    private static Map<String, Object> permission(PermissionTable table, PermissionTable.Rule rule) {
        if (rule == null) {
            return Json.obj("rule", null, "verdict", table.isConfigured()
                    ? "no rule matched: permitted" : "no permission table: permitted");
        }
        String verdict = switch (rule.action()) {
            case PERMIT -> "permitted";
            case DENY -> "denied";
            case SECURE_ONLY -> "permitted over HTTPS only";
        };
        return Json.obj("rule", Json.obj("file", rule.file(), "line", rule.line(), "text", rule.text()),
                "verdict", verdict);
    }

    /** {@code POST api/servers/<id>/<action>}: {@code drain}, {@code disable} or {@code enable}. */
    public Answer act(String id, String action) {
        Server s = dispatcher.topology().server(id);
        if (s == null) {
            return Answer.error(404, "no server " + id);
        }
        Server.AdminState state = switch (action) {
            case "drain" -> Server.AdminState.DRAINED;
            case "disable" -> Server.AdminState.DISABLED;
            case "enable" -> Server.AdminState.ENABLED;
            default -> null;
        };
        if (state == null) {
            return Answer.error(404, "no action " + action + ": drain, disable or enable");
        }
        s.setAdminState(state);
        return Answer.ok(server(id));
    }

    /** {@code PUT api/servers/<id>}: a server registers itself or reports again (heartbeat). */
    public Answer register(String id, String body) {
        if (dispatcher.isConfigured(id)) {
            return Answer.error(409, "server " + id + " is from the configuration file: it cannot register");
        }
        Object json;
        try {
            json = Json.parse(body);
        } catch (IllegalArgumentException e) {
            return Answer.error(400, e.getMessage());
        }
        ServerConfig config;
        try {
            config = Registration.parse(id, json, dispatcher.config());
        } catch (ConfigException e) {
            return new Answer(400, Json.obj("error", "invalid registration of " + id, "problems", e.problems()));
        }
        ServerRegistry.Outcome outcome = dispatcher.register(config);
        Map<String, Object> server = server(id);
        if (server != null) {
            server.put("outcome", outcome.name().toLowerCase(Locale.ROOT));
        }
        return new Answer(outcome == ServerRegistry.Outcome.REGISTERED ? 201 : 200, server);
    }

    /** {@code DELETE api/servers/<id>}: a registered server leaves. */
    public Answer deregister(String id) {
        if (dispatcher.isConfigured(id)) {
            return Answer.error(409, "server " + id + " is from the configuration file: it cannot deregister");
        }
        return dispatcher.deregister(id) ? new Answer(200, Json.obj("removed", id))
                : Answer.error(404, "server " + id + " is not registered");
    }
}
