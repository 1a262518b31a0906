package org.jwd;

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

import org.jwd.admin.AdminConfig;
import org.jwd.affinity.SessionTable;
import org.jwd.affinity.SessionTables;
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
import org.jwd.tls.TlsConfig;
import org.jwd.topology.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatcher's parts for one configuration, built once at startup and closed with the webapp: the
 * topology, the URL mapping table (with its reloads), the session table, the health checks, the server registry,
 * the metrics, and the router that turns a request into a decision. The servlets find it in the servlet context
 * under {@link #ATTRIBUTE}.
 *
 * <p>The set of servers changes when servers register themselves or expire ({@link #register}). The topology and
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

    /** The topology and the router built for it, swapped as one value. */
    public record Snapshot(Topology topology, Router router) {
    }

    private final DispatcherConfig config;
    private final AdminConfig admin;
    private final TlsConfig tls;
    private final LimitsConfig limits;
    /** server id -> its connection slots, kept across topologies so that requests in flight release theirs */
    private final Map<String, ServerSlots> slots = new HashMap<>();
    private final UrlPrefixLoader urlPrefixes;
    private final SessionTable sessionTable;
    private final HealthChecker health;
    private final ServerRegistry registry;
    private final DispatcherMetrics metrics;
    private final AtomicReference<Snapshot> current = new AtomicReference<>();
    private final ScheduledExecutorService housekeeping;

    /** @throws ConfigException when a key the features check themselves (admin, TLS) is invalid */
    public Dispatcher(DispatcherConfig config) throws ConfigException {
        this.config = config;
        this.admin = AdminConfig.of(config);
        this.tls = TlsConfig.from(config);
        this.limits = LimitsConfig.from(config);
        limits.servers().forEach((id, limit) -> slots.put(id, new ServerSlots(limit.maxConnections(), limit.maxQueue())));
        Topology topology = Topology.of(config);
        useSlots(topology);
        this.urlPrefixes = new UrlPrefixLoader(config);
        this.sessionTable = SessionTables.create(config);
        this.health = new HealthChecker(topology.servers().values(), config.health());
        this.registry = new ServerRegistry(admin.registryExpiry(), System::nanoTime);
        this.current.set(new Snapshot(topology, new Router(config, topology, urlPrefixes.current(), sessionTable)));
        this.metrics = new DispatcherMetrics(this::topology, sessionTable);
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jwd-registry");
            t.setDaemon(true);
            return t;
        });
        for (LogonGroupConfig group : config.logonGroups()) {
            if (!group.extRfc()) {
                LOG.warn("jwd: logon group {} has ext_rfc=false: every request goes to its favorite server, "
                        + "none is balanced among its members (SAP floods one server this way)", group.name());
            }
        }
    }

    /**
     * Checks the keys that the features read themselves (the parser only accepts them), so that a bad value
     * fails the start with the parser's kind of message.
     */
    public static void check(DispatcherConfig config) throws ConfigException {
        AdminConfig.of(config);
        TlsConfig.from(config);
        LimitsConfig.from(config);
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

    public DispatcherConfig config() {
        return config;
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

    /** Whether {@code id} is a server of the configuration file (which never expires and cannot register). */
    public boolean isConfigured(String id) {
        return config.servers().stream().anyMatch(s -> s.id().equals(id));
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
     * Builds the topology of the configured and the registered servers, reusing the {@link Server} of each server
     * that stays with the same description, and swaps it in with a new router. Guarded by this.
     */
    private void rebuild() {
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
        current.set(new Snapshot(topology, new Router(config, topology, urlPrefixes.current(), sessionTable)));
        health.track(topology.servers().values());
    }

    @Override
    public void close() {
        housekeeping.shutdownNow();
        health.close();
        urlPrefixes.close();
        sessionTable.close();
    }

    @Override
    public String toString() {
        return "Dispatcher[" + topology() + ", " + sessionTable + "]";
    }
}
