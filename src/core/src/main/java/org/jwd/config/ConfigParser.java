package org.jwd.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Reads the core of the configuration, what routing, balancing and the session table need, into a
 * {@link DispatcherConfig}: the servers ({@link ServerSection}), the logon groups ({@link LogonGroupSection}) and
 * the global keys. Every problem goes to the {@link KeyReader}, which reports all of them together; nothing is
 * half-applied. The features' keys are read by their own sections (see {@code org.jwd.runtime.ConfigReader}).
 */
public final class ConfigParser {
    public static final String CLIENT_THREADS = "jwd.client_threads";
    /** Jetty's own default for its server's pool, on which the client runs in Jetty. */
    public static final int DEFAULT_CLIENT_THREADS = 200;
    static final int MIN_CLIENT_THREADS = 8;
    static final int MAX_CLIENT_THREADS = 10_000;
    private static final String CONNECTIONS_PER_SERVER = "jwd.connections_per_server";
    /**
     * Jetty ProxyServlet's own default, what jwd had before the key. Finding a free connection costs the same at any
     * size (the idle ones wait on a stack), and fewer would cap what a slow server may work on at once: 64 would
     * hold long-polling or slow requests of 200 users in jwd (docs/performance.md).
     */
    private static final int DEFAULT_CONNECTIONS_PER_SERVER = 256;
    private static final int MAX_CONNECTIONS_PER_SERVER = 65_536;
    private static final String POSITIVE_DURATION = "a positive duration: " + Durations.EXPECTED;
    private static final String SECONDS = "seconds, or a number with a unit (500ms, 30s, 10m, 1h)";

    private final KeyReader keys;

    private ConfigParser(KeyReader keys) {
        this.keys = keys;
    }

    /** The core configuration; its problems are in {@code keys} (the caller checks them once every section read). */
    public static DispatcherConfig read(KeyReader keys) {
        return new ConfigParser(keys).read();
    }

    private DispatcherConfig read() {
        List<LogonGroupConfig> groups = LogonGroupSection.readAll(keys);
        List<ServerConfig> servers = ServerSection.readAll(keys,
                groups.stream().map(LogonGroupConfig::name).toList());
        List<String> urlPrefixes = LogonGroupSection.urlPrefixes(keys, "icf.url_prefixes");
        URI prefixesUrl = keys.url("icf.url_prefixes_url", Set.of("http", "https"), true,
                "an http:// or https:// URL");
        Duration autoRefresh = keys.seconds("wdisp/auto_refresh", Duration.ofSeconds(25), SECONDS);
        ServerType rootHandler = keys.value("is/HTTP/default_root_hdl", ServerType.J2EE, "abap or j2ee",
                ServerType::parse);
        Duration autoAbapTime = keys.seconds("rdisp/autoabaptime", Duration.ofSeconds(300), SECONDS);
        String strategy = keys.value("wdisp/load_balancing_strategy", DispatcherConfig.WEIGHTED_ROUND_ROBIN,
                DispatcherConfig.WEIGHTED_ROUND_ROBIN + " or " + DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN,
                t -> t.equals(DispatcherConfig.WEIGHTED_ROUND_ROBIN)
                        || t.equals(DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN) ? t : null);
        SessionTableConfig sessions = sessionTable(keys.restartOnly());
        ClientKeys client = client(keys.restartOnly());
        ServerPorts ports = ServerPorts.read(keys.restartOnly());
        // SAP's PROCTIMEOUT of the profile's ports is the request timeout, unless jwd's own key says otherwise
        Duration requestTimeout = keys.duration("jwd.request_timeout",
                ports.procTimeout() != null ? ports.procTimeout() : Duration.ofSeconds(60), false, POSITIVE_DURATION);
        ForwardingConfig forwarding = new ForwardingConfig(client.connectTimeout, client.idleTimeout, requestTimeout,
                client.threads, client.connectionsPerServer, keys.bool("jwd.debug_headers", false),
                HeaderForwarding.read(keys), stop(keys.restartOnly()));
        return new DispatcherConfig(servers, groups, strategy, autoAbapTime,
                new UrlMappingConfig(urlPrefixes, prefixesUrl, autoRefresh, rootHandler), sessions, forwarding, ports,
                health(), keys.values(), Sections.NONE);
    }

    /** The session table is built once at startup: its keys need a restart (the reloader applies some live). */
    private SessionTableConfig sessionTable(KeyReader restart) {
        // SAP's Java dispatcher key: a bare number is milliseconds, as there
        Duration timeout = restart.millis("SessionTableTimeout", Duration.ZERO, true,
                "milliseconds, or a number with a unit (500ms, 30s, 10m, 1h); 0 turns the table off");
        boolean esid = restart.bool("wdisp/HTTP/esid_support", true);
        boolean jsessionid = restart.bool("wdisp/HTTP/jsessionid_tab_support", true);
        Duration context = restart.seconds("wdisp/HTTP/context_timeout", Duration.ofSeconds(3600),
                "a positive number of seconds, or a number with a unit (30s, 10m, 1h)");
        long max = restart.longInteger("wdisp/HTTP/max_session_tab_entries", 1_000_000L, 1, Long.MAX_VALUE,
                "a positive integer");
        long heap = restart.longInteger("SessionTable.heap_entries", max, 1, Long.MAX_VALUE, "a positive integer");
        long offHeap = restart.longInteger("SessionTable.offheap_MB", 0L, 0, Long.MAX_VALUE,
                "a non-negative integer (megabytes; 0 = heap only)");
        return new SessionTableConfig(timeout, esid, jsessionid, context, max, heap, offHeap,
                keys.bool("wdisp/add_saplb_cookie", false));
    }

    /** Jetty is told these at its start. */
    private static StopConfig stop(KeyReader restart) {
        return new StopConfig(
                restart.duration("jwd.stop_delay", Duration.ZERO, true,
                        "a duration: " + Durations.EXPECTED + " (0: the listeners close at once)"),
                restart.duration("jwd.stop_timeout", Duration.ofSeconds(30), true,
                        "a duration: " + Durations.EXPECTED + " (0: the requests in flight are not waited for)"));
    }

    private record ClientKeys(Duration connectTimeout, Duration idleTimeout, int threads, int connectionsPerServer) {
    }

    /** The proxy's HTTP client is built once with these. */
    private static ClientKeys client(KeyReader restart) {
        // Within the pool's bounds: below the minimum, the client's selector and callbacks would starve one another.
        return new ClientKeys(
                restart.duration("jwd.connect_timeout", Duration.ofSeconds(5), false, POSITIVE_DURATION),
                restart.duration("jwd.idle_timeout", Duration.ofSeconds(60), false, POSITIVE_DURATION),
                restart.integer(CLIENT_THREADS, DEFAULT_CLIENT_THREADS, MIN_CLIENT_THREADS, MAX_CLIENT_THREADS,
                        "an integer from " + MIN_CLIENT_THREADS + " to " + MAX_CLIENT_THREADS),
                restart.integer(CONNECTIONS_PER_SERVER, DEFAULT_CONNECTIONS_PER_SERVER, 1, MAX_CONNECTIONS_PER_SERVER,
                        "an integer from 1 to " + MAX_CONNECTIONS_PER_SERVER));
    }

    private HealthConfig health() {
        return new HealthConfig(
                keys.duration("health.interval", Duration.ofSeconds(5), false, POSITIVE_DURATION),
                keys.duration("health.timeout", Duration.ofSeconds(2), false, POSITIVE_DURATION),
                keys.integer("health.rise", 2, 1, Integer.MAX_VALUE, "a positive integer"),
                keys.integer("health.fall", 3, 1, Integer.MAX_VALUE, "a positive integer"),
                keys.value("health.status", ExpectedStatus.DEFAULT, ExpectedStatus.EXPECTED, ExpectedStatus::parse));
    }
}
