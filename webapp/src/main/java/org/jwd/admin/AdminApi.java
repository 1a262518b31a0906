package org.jwd.admin;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.config.Version;
import org.jwd.modification.Modification;
import org.jwd.routing.Explanation;
import org.jwd.routing.Router;
import org.jwd.routing.RoutingRequest;
import org.jwd.runtime.Dispatcher;
import org.jwd.runtime.DispatcherState;
import org.jwd.runtime.Reloader;
import org.jwd.systems.Selection;
import org.jwd.topology.Server;
import org.jwd.topology.Topology;

/**
 * What the JSON API under {@code /jwd/admin/api/} answers, as view records ({@link StatusView}, {@link ServerView},
 * ...) that {@link AdminJson} writes; the operator's actions are {@link AdminActions}. Knows nothing of servlets: {@link AdminServlet}
 * does HTTP, credentials and cross-site checks. Every read works on one {@link DispatcherState}, so a page never
 * mixes two topologies.
 */
public final class AdminApi {
    /** An answer: the status and the view to write as its body. */
    public record Answer(int status, Object body) {
        static Answer ok(Object body) {
            return new Answer(200, body);
        }

        static Answer error(int status, String message) {
            return new Answer(status, new ErrorView(message));
        }
    }

    private final AdminContext context;
    private final Dispatcher dispatcher;
    private final RequestHistory history;
    private final Instant started;
    private final LongSupplier clockMillis;
    private final ServerListing servers;

    public AdminApi(AdminContext context, RequestHistory history, LongSupplier clockMillis) {
        this.context = context;
        this.dispatcher = context.dispatcher();
        this.history = history;
        this.clockMillis = clockMillis;
        this.started = Instant.ofEpochMilli(clockMillis.getAsLong());
        this.servers = new ServerListing(dispatcher);
    }

    /** {@code GET api/status}: the dispatcher at a glance. */
    public StatusView status() {
        DispatcherState snapshot = dispatcher.state();
        Topology topology = snapshot.topology();
        Map<Server.State, Integer> states = new EnumMap<>(Server.State.class);
        long served = 0;
        long inFlight = 0;
        long errors = 0;
        long stateful = 0;
        for (Server s : topology.servers().values()) {
            states.merge(s.state(), 1, Integer::sum);
            served += s.served();
            inFlight += s.inFlight();
            errors += s.errors();
            stateful += s.statefulRequests();
        }
        long now = clockMillis.getAsLong();
        org.jwd.runtime.Readiness.Answer ready = context.readiness().now();
        return new StatusView(Version.CURRENT.version(), Version.CURRENT.revision(), Instant.ofEpochMilli(now).toString(), started.toString(),
                (now - started.toEpochMilli()) / 1000,
                new StatusView.ServerCounts(topology.servers().size(), states.getOrDefault(Server.State.UP, 0),
                        states.getOrDefault(Server.State.DRAINED, 0), states.getOrDefault(Server.State.DOWN, 0),
                        states.getOrDefault(Server.State.DISABLED, 0), dispatcher.registry().servers().size()),
                new StatusView.RequestCounts(served, inFlight, errors, stateful, served + inFlight - stateful),
                sessionTable(), snapshot.config().health().toString(), snapshot.config().loadBalancingStrategy(),
                new StatusView.Ready(ready.ready(), ready.reason()),
                StatusView.AccessLog.of(dispatcher.accessLog()));
    }

    /** {@code GET api/servers}: every server with its state, load and counters. */
    public List<ServerView> servers() {
        return servers.servers(dispatcher.state());
    }

    /** {@code GET api/servers/<id>}, or {@code null} when there is no such server. */
    public ServerView server(String id) {
        DispatcherState snapshot = dispatcher.state();
        Server s = snapshot.topology().server(id);
        return s == null ? null : servers.server(snapshot, s, new IdentityHashMap<>());
    }

    /**
     * {@code GET api/groups}: the groups requests are balanced over, with their members and the next preferred
     * server (the favorite; for a logon group, the message server's favorite by quality, beside
     * {@code next_request}, where the next HTTP request goes); {@code name} selects one group (all when
     * {@code null}). With systems, every system's groups, each naming its system.
     */
    public List<GroupView> groups(String name) {
        @SuppressWarnings("unchecked")
        List<GroupView> groups = (List<GroupView>) groups(name, null).body();
        return groups;
    }

    /**
     * {@code GET api/groups?name=G&system=SID}: as {@link #groups(String)}, of one system when {@code system} is
     * given; 404 naming the systems there are when this jwd has no such system.
     */
    public Answer groups(String name, String system) {
        return GroupListing.groups(dispatcher.state(), name, system);
    }

    /** {@code GET api/discovery}: what each system learns from SAP's message server and ICF. */
    public DiscoveryView discovery() {
        return DiscoveryView.of(dispatcher.discovery());
    }

    /** {@code GET api/systems}: the {@code wdisp/system_<xx>} systems, their entries and criteria; none without. */
    public SystemsView systems() {
        return SystemsView.of(dispatcher.state());
    }

    /**
     * {@code GET api/sessiontable}: the session table's parts and figures. One store holds SAP's session ID table
     * (ESIDs, learned JSESSIONIDs; {@code wdisp/HTTP/*}) and the temporary table ({@code SessionTableTimeout}).
     */
    public SessionTableView sessionTable() {
        return SessionTableView.of(dispatcher.config(), dispatcher.sessionTable());
    }

    /**
     * {@code GET api/config}: the configuration in force: every key as written ({@link Secrets} masked), and the
     * values derived.
     */
    public ConfigView config() {
        DispatcherConfig c = dispatcher.config();
        Map<String, String> properties = new TreeMap<>();
        c.properties().forEach((k, v) -> properties.put(k, Secrets.masked(k, v)));
        return new ConfigView(properties, new ConfigView.Effective(c.loadBalancingStrategy(),
                Durations.format(c.sessions().sessionTableTimeout()), Durations.format(c.sessions().contextTimeout()), c.sessions().esidSupport(),
                c.sessions().jsessionidTabSupport(), c.urlMapping().defaultRootHandler().key(), c.urlMapping().urlPrefixes(),
                Durations.format(c.autoAbapTime()), Durations.format(context.config().registryExpiry()),
                c.health().toString(), Durations.format(c.forwarding().connectTimeout()), Durations.format(c.forwarding().requestTimeout()),
                c.logonGroups().stream().map(LogonGroupConfig::toString).toList()),
                reloadStatus(), dispatcher.state().modifications().handlers().stream().map(h ->
                        new ConfigView.Handler(h.key(), h.prefix(), h.file(), h.path() == null ? null
                                : h.path().toAbsolutePath().toString(), h.actions().lines().stream()
                                .map(w -> new ConfigView.Line(w.line(), w.text())).toList())).toList());
    }

    /** The configuration file and its reloads; {@code null} when the dispatcher was not started from a file. */
    ConfigView.Reload reloadStatus() {
        Reloader reloader = context.reloader();
        if (reloader == null) {
            return null;
        }
        Reloader.Result last = reloader.last();
        Duration watch = context.watch().interval();
        return new ConfigView.Reload(reloader.file().toString(), watch.isZero() ? "off" : Durations.format(watch),
                reloader.loadedAt().toString(), last == null ? null : last.outcome().key(),
                last == null ? null : last.at().toString(), last == null ? null : last.trigger(),
                last == null ? List.of() : last.errors(),
                last == null ? List.of() : last.pending().stream().map(p -> new ConfigView.Pending(p.key(),
                        Secrets.masked(p.key(), p.running()), Secrets.masked(p.key(), p.file()))).toList());
    }

    /** {@code POST api/session}: where the session of a pasted identifier is ({@link SessionLookup}). */
    public Answer lookup(String value) {
        return SessionLookup.lookup(dispatcher.state(), value);
    }

    /** {@code GET api/urlmapping}: the URL mapping table and the logon groups' prefixes, per system. */
    public UrlMappingView urlMapping() {
        return UrlMappingView.of(dispatcher.state());
    }

    /** {@code GET api/tls}: the certificates jwd presents, when they expire, why a renewal was not taken. */
    public TlsView tls() {
        return TlsView.of(context.clientTls().everyCertificate(), Instant.ofEpochMilli(clockMillis.getAsLong()));
    }

    /** {@code GET api/history}: requests served per server, sampled over the last minutes. */
    public HistoryView history() {
        return history.view(dispatcher.state().topology().servers().values());
    }

    /**
     * {@code GET api/explain?url=<path>}: where a request for {@code url} with these cookies would go, and why.
     * A full URL ({@code https://host/irj}) says how the client came: over TLS or not, which decides the group
     * under {@code wdisp/ssl_encrypt=2}. Changes nothing.
     */
    public Answer explain(String url, List<String> cookieHeaders) {
        return explain(url, cookieHeaders, "127.0.0.1", 0);
    }

    /**
     * As {@link #explain(String, List)}, for an explain asked on {@code localAddress} and {@code localPort}: with
     * {@code wdisp/system_<xx>}, a full URL's host and port select the system, and a path alone is taken as arrived
     * where the question did.
     */
    public Answer explain(String url, List<String> cookieHeaders, String localAddress, int localPort) {
        return explain(url, "GET", cookieHeaders, "127.0.0.1", localAddress, localPort);
    }

    /**
     * As {@link #explain(String, List, String, int)}, for a request with {@code method}, from {@code remoteAddress}:
     * the modification handler's rules read both ({@code %{REQUEST_METHOD}}, {@code %{REMOTE_ADDR}}).
     */
    public Answer explain(String url, String method, List<String> cookieHeaders, String remoteAddress,
                          String localAddress, int localPort) {
        if (url == null || url.isEmpty()) {
            return Answer.error(400, "explain needs ?url=<path>, e.g. ?url=/irj/portal");
        }
        ExplainQuestion question = ExplainQuestion.parse(url, localPort);
        if (question == null) {
            return Answer.error(400, "url = '" + url + "': expected a path starting with '/', or an http:// or https:// URL");
        }
        DispatcherState state = dispatcher.state();
        ExplainedModification modified = ExplainedModification.of(state, question,
                method == null ? "GET" : method.toUpperCase(Locale.ROOT), cookieHeaders, remoteAddress, localAddress);
        Modification m = modified.modification();
        if (m.answered()) {
            return Answer.ok(ExplainView.answered(url, m.describe(), m.status(), m.location(), m.message(),
                    modified.view()));
        }
        RoutingRequest request = modified.request();
        Selection selection = state.select(localAddress, question.port(), question.host(), request, m.targetSid());
        if (!selection.found()) {
            return Answer.error(404, "jwd: " + selection.explanation());
        }
        Router router = state.router(selection.system());
        Explanation e = router.explain(request);
        return Answer.ok(ExplainView.of(url, e, router.permissionTable(),
                selection.system().isImplicit() ? null : selection.explanation(), modified.view()));
    }
}
