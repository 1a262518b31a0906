package org.jwd.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;

import org.jwd.accesslog.AccessLog;
import org.jwd.affinity.LearnedRoutes;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTimeouts;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.config.ServerConfig;
import org.jwd.discovery.Discovery;
import org.jwd.discovery.SystemView;
import org.jwd.health.HealthChecker;
import org.jwd.limits.LimitsConfig;
import org.jwd.limits.ConnectionSlots;
import org.jwd.metrics.DispatcherMetrics;
import org.jwd.registry.ServerRegistry;
import org.jwd.routing.Router;
import org.jwd.routing.UrlPrefixLoader;
import org.jwd.tls.TlsConfig;
import org.jwd.operator.OperatorStates;
import org.jwd.topology.Server;
import org.jwd.topology.Server.AdminChange;
import org.jwd.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatcher's {@link DispatcherState} in force, and the changes that swap in the next one: a reloaded
 * configuration ({@link #apply}, called by the {@link Reloader}) and servers that register, leave or expire
 * ({@link #register}). Each change builds a whole new state and swaps it in atomically: a request reads
 * {@link #state()} once and keeps its decision, whose {@link Server} object counts its end even if the server left
 * meanwhile. Servers that stay keep their {@code Server} objects (state, counters); the session table, the health
 * checker and the registry stay too. It is built, started and closed by the composition root
 * ({@code org.jwd.boot.Bootstrap}), and the servlets find it in the servlet context under {@link #ATTRIBUTE}.
 */
public final class Dispatcher implements AutoCloseable {
    public static final String ATTRIBUTE = Dispatcher.class.getName();
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    /**
     * What lives as long as the dispatcher, whatever the reloads change.
     *
     * @param tls       re-encryption to the servers, termination and end-to-end TLS (a restart changes them)
     * @param accessLog {@code icm/HTTP/logging_<xx>}, opened at the start ({@link AccessLog#OFF} without it)
     * @param scheduler the shared scheduler, on which a new URL mapping table's loader refreshes
     * @param operator  the operator's decisions (drain, disable, enable), applied to every new state
     */
    public record Parts(TlsConfig tls, AccessLog accessLog, SessionTable sessionTable, HealthChecker health,
                        ServerRegistry registry, ScheduledExecutorService scheduler, OperatorStates operator) {
    }

    private final Parts parts;
    /** What the servers' JSESSIONIDs taught: kept across reloads, handed to every router. */
    private final LearnedRoutes learnedRoutes = new LearnedRoutes();
    private final DispatcherMetrics metrics;
    /** Written under this lock (every change is one read, build and swap); read without it. */
    private final AtomicReference<DispatcherState> current = new AtomicReference<>();
    /** Asks SAP for the systems' landscapes; replaced when a reload changes its keys. Set under this lock. */
    private volatile Discovery discovery;
    /** What {@link #discovery} found, by system ({@code -} for the implicit one). Guarded by this. */
    private Map<String, SystemView> discovered = Map.of();

    /** @throws ConfigException naming {@code icf.url_prefixes} when an entry is refused, or a limits key */
    public Dispatcher(DispatcherConfig config, Parts parts) throws ConfigException {
        this.parts = parts;
        LimitsConfig limits = config.section(LimitsConfig.class);
        rebuild(config, SystemRouters.urlPrefixLoader(config), limits, ConnectionSlots.NONE.next(limits),
                SystemRouters.NONE.loadersFor(SystemConfigs.of(config), null));
        this.metrics = new DispatcherMetrics(() -> state().topology(), parts.sessionTable(), () -> state().slots(),
                new StateSystems(this::state));
        metrics.watchAccessLog(() -> parts.accessLog().status().droppedLines());
        ConfigWarnings.favoriteOnlyGroups(config);
        this.discovery = DiscoveryLink.open(config, parts.tls(), this::discovered);
        // a view kept from the last run serves at once, before the message server is asked
        discovery.loadKept();
    }

    /** Asks SAP for the systems' servers, URL mapping tables and logon groups. */
    public Discovery discovery() {
        return discovery;
    }

    /** {@code from} found a new view of a system: its servers, groups and prefixes join the state in force. */
    synchronized void discovered(Discovery from) {
        if (from != discovery) {
            // a discovery a reload replaced, finishing a refresh
            return;
        }
        discovered = from.views();
        rebuild();
    }

    /** The state in force: a request reads it once and keeps it. */
    public DispatcherState state() {
        return current.get();
    }

    /** The configuration in force; a reader that needs several values reads {@link #state()} once instead. */
    public DispatcherConfig config() {
        return state().config();
    }

    /** Re-encryption to the servers, termination and end-to-end TLS. */
    public TlsConfig tls() {
        return parts.tls();
    }

    /** The access log ({@link AccessLog#OFF} without {@code icm/HTTP/logging_<xx>}). */
    public AccessLog accessLog() {
        return parts.accessLog();
    }

    public SessionTable sessionTable() {
        return parts.sessionTable();
    }

    public HealthChecker health() {
        return parts.health();
    }

    public ServerRegistry registry() {
        return parts.registry();
    }

    public DispatcherMetrics metrics() {
        return metrics;
    }

    /** The operator's decisions: drain, disable, enable, kept across restarts. */
    public OperatorStates operator() {
        return parts.operator();
    }

    /** Whether {@code id} is a server of the configuration file (which never expires and cannot register). */
    public boolean isConfigured(String id) {
        return SystemConfigs.serversOf(config()).stream().anyMatch(s -> s.id().equals(id));
    }

    /**
     * A server of the one implicit system reports itself (registration or heartbeat); see
     * {@link #register(ServerConfig, String)}.
     */
    public synchronized ServerRegistry.Outcome register(ServerConfig server) {
        return register(server, null);
    }

    /**
     * A server reports itself (registration or heartbeat) as a server of {@code system}; the topology is rebuilt
     * when the set of servers, a server's description or its system changed.
     *
     * @param system the SID of a {@code wdisp/system_<xx>} system, required when the configuration in force has
     *               entries; {@code null} without them
     * @throws IllegalArgumentException when {@code server} is a server of the configuration file (of any system), or
     *                                  {@code system} is not one of the configuration in force (a reload came between
     *                                  the registration's check and this)
     */
    public synchronized ServerRegistry.Outcome register(ServerConfig server, String system) {
        if (isConfigured(server.id())) {
            String of = state().systemOf(server.id());
            throw new IllegalArgumentException("server " + server.id() + " is from the configuration file"
                    + (of == null ? "" : " (system " + of + ")"));
        }
        String refused = SystemConfigs.refusedRegistration(SystemConfigs.of(config()), system);
        if (refused != null) {
            throw new IllegalArgumentException("server " + server.id() + ": " + refused);
        }
        ServerRegistry.Outcome outcome = parts.registry().report(server, system);
        if (outcome.changesTopology()) {
            rebuild();
            LOG.info("jwd: server {} {} ({}{})", server.id(),
                    outcome == ServerRegistry.Outcome.REGISTERED ? "registered" : "reported a change", server,
                    system == null ? "" : ", system " + system);
        }
        return outcome;
    }

    /** A registered server leaves at once; {@code false} when it was not registered. */
    public synchronized boolean deregister(String id) {
        if (!parts.registry().remove(id)) {
            return false;
        }
        rebuild();
        LOG.info("jwd: server {} deregistered", id);
        return true;
    }

    /** Removes the registered servers that stopped reporting: a job of the shared scheduler. */
    public synchronized void expireRegistrations() {
        List<String> expired = parts.registry().expire();
        if (!expired.isEmpty()) {
            rebuild();
            LOG.warn("jwd: registered servers {} removed: no report for {}", expired,
                    Durations.format(parts.registry().expiry()));
        }
    }

    /**
     * Swaps in a new configuration, already parsed and checked, as one {@link DispatcherState}: the servers of the
     * file and the registered ones, the groups, strategies, limits and everything the router reads. Servers that stay
     * with the same description (whatever their {@code state} key) keep their {@link Server} objects (health,
     * counters); a changed one gets a new object; every server's admin state is then what {@link OperatorStates}
     * says; requests on their way keep the state they read. The
     * session table, its bindings, the registry and the metrics stay; the health checks follow the new servers and
     * settings. A registered server whose id the file now names gives way to the file's server.
     *
     * <p>The keys that need a restart ({@link DispatcherConfig#restartKeys()}) must already carry the running values:
     * {@link Reloader} sees to that.
     *
     * @throws ConfigException when the new URL mapping table or limits cannot be built; nothing is changed then
     */
    public synchronized void apply(DispatcherConfig next) throws ConfigException {
        DispatcherState before = state();
        LimitsConfig limits = next.section(LimitsConfig.class);
        UrlPrefixLoader prefixes = before.urlPrefixes();
        if (!before.config().urlMapping().urlPrefixes().equals(next.urlMapping().urlPrefixes())
                || !Objects.equals(before.config().urlMapping().urlPrefixesUrl(), next.urlMapping().urlPrefixesUrl())
                || !before.config().urlMapping().autoRefresh().equals(next.urlMapping().autoRefresh())) {
            prefixes = SystemRouters.urlPrefixLoader(next);
            // the first load is synchronous: the new router's first requests see the loaded prefixes
            prefixes.start(parts.scheduler());
        }
        for (ServerConfig s : SystemConfigs.serversOf(next)) {
            if (parts.registry().remove(s.id())) {
                LOG.warn("jwd: registered server {} gives way to the server {} of the configuration file", s.id(),
                        s.id());
            }
        }
        SystemConfigs nextSystems = SystemConfigs.of(next);
        for (ServerRegistry.Registration r : parts.registry().registrations()) {
            // a server that joined a system keeps it across reloads; one whose system is gone has nowhere to serve
            String refused = SystemConfigs.refusedRegistration(nextSystems, r.system());
            if (refused != null && parts.registry().remove(r.config().id())) {
                LOG.warn("jwd: registered server {} removed: {}; it may register again", r.config().id(), refused);
            }
        }
        SessionTimeouts timeouts = SessionTimeouts.of(next);
        if (next.sessionTableEnabled() && !SessionTimeouts.of(before.config()).equals(timeouts)) {
            // the Reloader lets new timeouts through only when the table can take them (and stays on)
            parts.sessionTable().changeTimeouts(timeouts);
        }
        parts.health().reconfigure(next.health());
        Discovery replaced = replaceDiscovery(next);
        rebuild(next, prefixes, limits, before.slots().next(limits),
                before.systems().loadersFor(SystemConfigs.of(next), parts.scheduler()));
        if (replaced != null) {
            replaced.close();
            discovery.start(parts.scheduler());
        }
        if (before.urlPrefixes() != prefixes) {
            before.urlPrefixes().close();
        }
        before.systems().closeLoadersLeft(state().systems());
        ConfigWarnings.favoriteOnlyGroups(next);
    }

    /**
     * A new discovery when {@code next} discovers differently, serving from the kept file until it is started;
     * returns the one it replaces (to be closed once the new state is in force), or {@code null}. Guarded by this.
     */
    private Discovery replaceDiscovery(DispatcherConfig next) throws ConfigException {
        if (!DiscoveryLink.changed(discovery, next)) {
            return null;
        }
        Discovery replaced = discovery;
        discovered = Map.of();
        discovery = DiscoveryLink.open(next, parts.tls(), this::discovered);
        discovery.loadKept();
        return replaced;
    }

    /** Rebuilds for the configuration in force (a server registered, changed or left). Guarded by this. */
    private void rebuild() {
        DispatcherState s = state();
        rebuild(s.config(), s.urlPrefixes(), s.limits(), s.slots(), s.systems().loaders());
    }

    /**
     * Builds the topology of the configured and the registered servers, reusing the {@link Server} of each server
     * that stays with the same description, and swaps it in with a new router. Guarded by this.
     */
    private void rebuild(DispatcherConfig config, UrlPrefixLoader prefixes, LimitsConfig limits,
                         ConnectionSlots slots, Map<String, UrlPrefixLoader> systemLoaders) {
        Map<String, Server> before = state() == null ? Map.of() : state().topology().servers();
        SystemConfigs systems = SystemConfigs.of(config);
        List<ServerConfig> configs = DiscoveryLink.servers(SystemConfigs.serversOf(config), discovered.values());
        configs.addAll(parts.registry().servers());
        Map<String, Server> servers = new LinkedHashMap<>();
        for (ServerConfig sc : configs) {
            if (servers.containsKey(sc.id())) {
                continue;
            }
            Server s = before.get(sc.id());
            if (s != null && s.config().sameServer(sc)) {
                s.reconfigure(sc);
            } else {
                Server changed = new Server(sc);
                if (s != null) {
                    AdminChange kept = s.adminChange();
                    changed.setAdminState(kept.state(), kept.atMillis(), kept.by());
                }
                s = changed;
            }
            servers.put(sc.id(), s);
        }
        // every server's admin state as the operator decided it, before any request sees the new state
        parts.operator().apply(servers.values());
        SystemView implicit = discovered.get(DiscoveryLink.IMPLICIT);
        Topology topology = Topology.of(servers.values(), Discovered.config(config, implicit).logonGroups());
        learnedRoutes.retain(topology);
        SystemRouters systemRouters = SystemRouters.build(systems, systemLoaders, servers,
                parts.registry().registrations(), parts.sessionTable(), learnedRoutes, slots, discovered);
        swap(config, topology, prefixes, limits, slots, systemRouters);
    }

    /** Builds the router for the new state and swaps it in; the health checks follow its servers. */
    private void swap(DispatcherConfig config, Topology topology, UrlPrefixLoader prefixes, LimitsConfig limits,
                      ConnectionSlots slots, SystemRouters systems) {
        SystemView implicit = discovered.get(DiscoveryLink.IMPLICIT);
        Router router = new Router(Discovered.config(config, implicit), topology,
                Discovered.table(prefixes.current(), implicit), parts.sessionTable(), learnedRoutes, slots);
        DispatcherState next = new DispatcherState(config, topology, router, prefixes, limits, slots, systems);
        current.set(next);
        parts.health().track(topology.servers().values());
    }

    /** Starts the refreshes of the URL mapping tables, its own and each system's, and the discovery's. */
    public void startUrlPrefixes(ScheduledExecutorService scheduler) {
        state().urlPrefixes().start(scheduler);
        state().systems().start(scheduler);
        discovery.start(scheduler);
    }

    /** Stops the URL mapping table's refreshes; the parts are the composition root's to close. */
    @Override
    public void close() {
        discovery.close();
        state().urlPrefixes().close();
        state().systems().loaders().values().forEach(UrlPrefixLoader::close);
    }

    @Override
    public String toString() {
        return "Dispatcher[" + state().topology() + ", " + parts.sessionTable() + "]";
    }
}
