package org.jwd;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.jwd.accesslog.AccessLog;
import org.jwd.admin.AdminConfig;
import org.jwd.affinity.LearnedRoutes;
import org.jwd.affinity.SessionTable;
import org.jwd.affinity.SessionTables;
import org.jwd.affinity.SessionTimeouts;
import org.jwd.config.ConfigException;
import org.jwd.limits.LimitsConfig;
import org.jwd.limits.ServerSlots;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.health.HealthChecker;
import org.jwd.metrics.DispatcherMetrics;
import org.jwd.registry.ServerRegistry;
import org.jwd.routing.Router;
import org.jwd.routing.UrlPrefixLoader;
import org.jwd.topology.Server;
import org.jwd.tls.SslEncrypt;
import org.jwd.tls.TlsConfig;
import org.jwd.tls.TlsPolicy;
import org.jwd.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatcher's parts for one configuration, built once at startup and closed with the webapp: the
 * topology, the URL mapping table (with its reloads), the session table, the health checks, the server registry,
 * the metrics, and the router that turns a request into a decision. The servlets find it in the servlet context
 * under {@link #ATTRIBUTE}.
 *
 * <p>The set of servers changes when servers register themselves or expire ({@link #register}), and the whole
 * configuration when the file is reloaded ({@link #apply}, {@link Reloader}). The configuration, the topology and
 * its router are then rebuilt together and swapped in as one immutable {@link Snapshot}: a request asks for
 * {@link #router()} once and keeps its decision, whose {@link Server} object counts its end even if the server
 * left meanwhile. Servers that stay keep their {@code Server} objects (state, counters); the session table and
 * the health checker stay too.
 *
 * <p>It also holds the TLS settings: re-encryption to the servers, termination and end-to-end TLS.
 */
public final class Dispatcher implements AutoCloseable {
    public static final String ATTRIBUTE = Dispatcher.class.getName();
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    /**
     * The configuration in force, the topology and the router built for both, swapped as one value: a request that
     * reads its snapshot once sees one consistent configuration, even while a reload swaps in the next.
     */
    public record Snapshot(Topology topology, Router router, DispatcherConfig config) {
    }

    /** The configuration the dispatcher started with: what the keys that need a restart keep in force. */
    private final DispatcherConfig initial;
    private final AdminConfig admin;
    private final TlsConfig tls;
    /** Replaced by a reload; the header size limit keeps its first value (the proxy's client is built with it). */
    private volatile LimitsConfig limits;
    /**
     * server id -> its connection slots, kept across topologies (and reloads that keep the server's limit) so that
     * requests in flight release theirs; guarded by this.
     */
    private final Map<String, ServerSlots> slots = new HashMap<>();
    /** Replaced when a reload changes the URL mapping table's keys; guarded by this for writes. */
    private volatile UrlPrefixLoader urlPrefixes;
    private final SessionTable sessionTable;
    /** What the servers' JSESSIONIDs taught: kept across reloads, handed to every router. */
    private final LearnedRoutes learnedRoutes = new LearnedRoutes();
    private final HealthChecker health;
    private final ServerRegistry registry;
    private final DispatcherMetrics metrics;
    /** icm/HTTP/logging_0, opened at the start (a reload keeps it) */
    private final AccessLog accessLog;
    private final AtomicReference<Snapshot> current = new AtomicReference<>();
    private final ScheduledExecutorService housekeeping;
    /** Reads the configuration file again on a change or on request; {@code null} until {@link #watch}. */
    private volatile Reloader reloader;

    /** @throws ConfigException when the access log or the truststore cannot be opened */
    public Dispatcher(DispatcherConfig config) throws ConfigException {
        this.initial = config;
        this.admin = config.section(AdminConfig.class);
        this.tls = config.section(TlsConfig.class);
        this.limits = config.section(LimitsConfig.class);
        // the last check that can fail the start, and the first part with a thread of its own
        this.accessLog = AccessLog.open(config);
        updateSlots(limits);
        Topology topology = Topology.of(config);
        useSlots(topology);
        this.urlPrefixes = urlPrefixLoader(config);
        this.sessionTable = SessionTables.create(config);
        try {
            this.health = new HealthChecker(topology.servers().values(), config.health(),
                    tls.encrypt() == SslEncrypt.NEVER ? null : TlsPolicy.towardsServers(tls));
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(TlsConfig.TRUSTSTORE + " = '" + tls.trustStore() + "': cannot be read: " + e);
        }
        this.registry = new ServerRegistry(admin.registryExpiry(), System::nanoTime);
        this.current.set(new Snapshot(topology,
                new Router(config, topology, urlPrefixes.current(), sessionTable, learnedRoutes), config));
        this.metrics = new DispatcherMetrics(this::topology, sessionTable);
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jwd-registry");
            t.setDaemon(true);
            return t;
        });
        warnOfFavoriteOnlyGroups(config);
    }

    /** At start and on every reload: an operator who set it by mistake must see it whichever way it came in. */
    private static void warnOfFavoriteOnlyGroups(DispatcherConfig config) {
        for (LogonGroupConfig group : config.logonGroups()) {
            // Without ext_rfc the quality view hands everything to its favorite; it only chooses HTTP requests
            // when the group opts in: otherwise ext_rfc is what lgtst reports, as SAP's message server does.
            if (!group.extRfc() && group.httpBalancing() == LogonGroupConfig.HttpBalancing.QUALITY) {
                LOG.warn("jwd: logon group {} has ext_rfc=false and http_balancing=quality: every request goes to its "
                        + "favorite server, none is balanced among its members (SAP floods one server this way)",
                        group.name());
            }
        }
    }

    /** @throws ConfigException naming {@code icf.url_prefixes} when an entry is refused ({@code /}, a bad path) */
    private static UrlPrefixLoader urlPrefixLoader(DispatcherConfig config) throws ConfigException {
        try {
            return new UrlPrefixLoader(config);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("icf.url_prefixes = '" + String.join(",", config.urlPrefixes()) + "': "
                    + e.getMessage());
        }
    }

    /**
     * Watches {@code file}, the configuration file this dispatcher was started with, and the files it names, and
     * applies a valid change ({@link Reloader}); {@code POST api/reload} asks for the same at once.
     */
    public void watch(java.nio.file.Path file) {
        Reloader r;
        synchronized (this) {
            if (reloader != null) {
                return;
            }
            r = new Reloader(file, this, System::currentTimeMillis);
            reloader = r;
        }
        // outside this lock: a reload takes the reloader's lock, then this one
        r.start();
    }

    /** The reloader, or {@code null} when the dispatcher was not started from a file ({@link #watch}). */
    public Reloader reloader() {
        return reloader;
    }

    /** Starts what runs in the background: URL prefix reloads, health checks, expiry of registered servers. */
    public void start() {
        urlPrefixes.start();
        health.start();
        long every = Math.max(50, Math.min(1000, millis(registry.expiry()) / 10));
        housekeeping.scheduleWithFixedDelay(this::expireRegistrations, every, every, TimeUnit.MILLISECONDS);
    }

    private static long millis(Duration d) {
        try {
            return d.toMillis();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** The configuration in force; a request that needs several values reads {@link #snapshot()} once instead. */
    public DispatcherConfig config() {
        return current.get().config();
    }

    /** The configuration the dispatcher started with (the keys that need a restart keep these values). */
    public DispatcherConfig initialConfig() {
        return initial;
    }

    public AdminConfig admin() {
        return admin;
    }

    /** Re-encryption to the servers, termination and end-to-end TLS. */
    public TlsConfig tls() {
        return tls;
    }

    /** Header, body and connection limits. */
    public LimitsConfig limits() {
        return limits;
    }

    /**
     * Gives each server with a limit its slots: a server whose limit is unchanged keeps its slots object (with the
     * requests it holds and queues); a changed limit gets a new one, while the requests holding or waiting for the
     * old slots finish under the old limit. Guarded by this (or called from the constructor).
     */
    private void updateSlots(LimitsConfig next) {
        slots.keySet().retainAll(next.servers().keySet());
        next.servers().forEach((id, limit) -> {
            ServerSlots s = slots.get(id);
            if (s == null || s.maxConnections() != limit.maxConnections() || s.maxQueue() != limit.maxQueue()) {
                slots.put(id, new ServerSlots(limit.maxConnections(), limit.maxQueue()));
            }
        });
    }

    private void useSlots(Topology topology) {
        topology.servers().values().forEach(s -> s.useSlots(slots.getOrDefault(s.id(), ServerSlots.UNLIMITED)));
    }

    /** The topology and router in force, as one consistent value. */
    public Snapshot snapshot() {
        return current.get();
    }

    public Topology topology() {
        return current.get().topology();
    }

    /** The router in force: ask once per request and keep the decision. */
    public Router router() {
        return current.get().router();
    }

    public SessionTable sessionTable() {
        return sessionTable;
    }

    public HealthChecker health() {
        return health;
    }

    public UrlPrefixLoader urlPrefixes() {
        return urlPrefixes;
    }

    public ServerRegistry registry() {
        return registry;
    }

    public DispatcherMetrics metrics() {
        return metrics;
    }

    /** The access log ({@link AccessLog#OFF} without {@code icm/HTTP/logging_0}). */
    public AccessLog accessLog() {
        return accessLog;
    }

    /** Whether {@code id} is a server of the configuration file (which never expires and cannot register). */
    public boolean isConfigured(String id) {
        return config().servers().stream().anyMatch(s -> s.id().equals(id));
    }

    /**
     * A server reports itself (registration or heartbeat); the topology is rebuilt when the set of servers or a
     * server's description changed.
     *
     * @throws IllegalArgumentException when {@code server} is a server of the configuration file
     */
    public ServerRegistry.Outcome register(ServerConfig server) {
        if (isConfigured(server.id())) {
            throw new IllegalArgumentException("server " + server.id() + " is from the configuration file");
        }
        synchronized (this) {
            ServerRegistry.Outcome outcome = registry.report(server);
            if (outcome.changesTopology()) {
                rebuild();
                LOG.info("jwd: server {} {} ({})", server.id(),
                        outcome == ServerRegistry.Outcome.REGISTERED ? "registered" : "reported a change", server);
            }
            return outcome;
        }
    }

    /** A registered server leaves at once; {@code false} when it was not registered. */
    public synchronized boolean deregister(String id) {
        if (!registry.remove(id)) {
            return false;
        }
        rebuild();
        LOG.info("jwd: server {} deregistered", id);
        return true;
    }

    private void expireRegistrations() {
        try {
            synchronized (this) {
                List<String> expired = registry.expire();
                if (!expired.isEmpty()) {
                    rebuild();
                    LOG.warn("jwd: registered servers {} removed: no report for {}", expired,
                            Durations.format(registry.expiry()));
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("jwd: expiring registered servers failed", e);
        }
    }

    /**
     * Swaps in a new configuration, already parsed and checked, as one {@link Snapshot}: the servers of the file and
     * the registered ones, the groups, strategies and everything the router reads. Servers that stay with the same
     * description keep their {@link Server} objects (state, counters, an operator's drain); a changed one gets a new
     * object that keeps the operator's state; requests on their way keep the decision and the {@code Server} they
     * got. The session table, its bindings, the registry and the metrics stay; the health checks follow the new
     * servers and settings. A registered server whose id the file now names gives way to the file's server.
     *
     * <p>The keys that need a restart ({@link DispatcherConfig#restartKeys()}) must already carry the running values:
     * {@link Reloader} sees to that.
     *
     * @throws ConfigException when the new URL mapping table cannot be built; nothing is changed then
     */
    public synchronized void apply(DispatcherConfig next) throws ConfigException {
        DispatcherConfig before = config();
        LimitsConfig nextLimits = next.section(LimitsConfig.class);
        UrlPrefixLoader prefixes = urlPrefixes;
        boolean newPrefixes = !before.urlPrefixes().equals(next.urlPrefixes())
                || !java.util.Objects.equals(before.urlPrefixesUrl(), next.urlPrefixesUrl())
                || !before.autoRefresh().equals(next.autoRefresh());
        if (newPrefixes) {
            prefixes = urlPrefixLoader(next);
            // the first load is synchronous: the new router's first requests see the loaded prefixes
            prefixes.start();
        }
        for (ServerConfig s : next.servers()) {
            if (registry.remove(s.id())) {
                LOG.warn("jwd: registered server {} gives way to the server {} of the configuration file", s.id(),
                        s.id());
            }
        }
        SessionTimeouts timeouts = SessionTimeouts.of(next);
        if (next.sessionTableEnabled() && !SessionTimeouts.of(before).equals(timeouts)) {
            // the Reloader lets new timeouts through only when the table can take them (and stays on)
            sessionTable.changeTimeouts(timeouts);
        }
        UrlPrefixLoader old = urlPrefixes;
        urlPrefixes = prefixes;
        health.reconfigure(next.health());
        limits = nextLimits;
        updateSlots(nextLimits);
        rebuild(next);
        if (old != prefixes) {
            old.close();
        }
        warnOfFavoriteOnlyGroups(next);
    }

    /** Rebuilds for the configuration in force (a server registered, changed or left). Guarded by this. */
    private void rebuild() {
        rebuild(config());
    }

    /**
     * Builds the topology of the configured and the registered servers, reusing the {@link Server} of each server
     * that stays with the same description, and swaps it in with a new router. Guarded by this.
     */
    private void rebuild(DispatcherConfig config) {
        Map<String, Server> before = current.get().topology().servers();
        List<ServerConfig> configs = new ArrayList<>(config.servers());
        configs.addAll(registry.servers());
        Map<String, Server> servers = new LinkedHashMap<>();
        for (ServerConfig sc : configs) {
            Server s = before.get(sc.id());
            if (s == null || !s.config().equals(sc)) {
                Server changed = new Server(sc);
                if (s != null) {
                    changed.setAdminState(s.adminState());
                }
                s = changed;
            }
            servers.put(sc.id(), s);
        }
        Topology topology = Topology.of(servers.values(), config.logonGroups());
        useSlots(topology);
        learnedRoutes.retain(topology);
        current.set(new Snapshot(topology,
                new Router(config, topology, urlPrefixes.current(), sessionTable, learnedRoutes), config));
        health.track(topology.servers().values());
    }

    @Override
    public void close() {
        Reloader r = reloader;
        if (r != null) {
            r.close();
        }
        housekeeping.shutdownNow();
        health.close();
        urlPrefixes.close();
        sessionTable.close();
        accessLog.close();
    }

    @Override
    public String toString() {
        return "Dispatcher[" + topology() + ", " + sessionTable + "]";
    }
}
