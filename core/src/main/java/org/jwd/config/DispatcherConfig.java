package org.jwd.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jwd.config.ServerType;

/**
 * The whole configuration in force: read once from the properties file (the core keys by {@link ConfigParser},
 * the features' keys by their own sections, in {@link #sections()}), immutable, and swapped as one value.
 *
 * @param urlPrefixes         the URL mapping table entries ({@code icf.url_prefixes}), as written
 * @param urlPrefixesUrl      where to load more entries from ({@code icf.url_prefixes_url}), or {@code null}
 * @param autoRefresh         how often that URL is read again ({@code wdisp/auto_refresh})
 * @param defaultRootHandler  who serves root URLs ({@code is/HTTP/default_root_hdl})
 * @param autoAbapTime        how often logon-group qualities are recomputed ({@code rdisp/autoabaptime})
 * @param sessionTableTimeout  the Java dispatcher's temporary session table ({@code SessionTableTimeout}): above
 *                             zero, JSESSIONIDs are bound at request time and their entries idle-expire after it;
 *                             zero (the default) leaves the request-time binding off
 * @param esidSupport          {@code wdisp/HTTP/esid_support}: sap-ext-sid values dispatched through the session
 *                             ID table (bound at request time)
 * @param jsessionidTabSupport {@code wdisp/HTTP/jsessionid_tab_support}: JSESSIONIDs a server sets are learned into
 *                             the session ID table and dispatched through it
 * @param contextTimeout       {@code wdisp/HTTP/context_timeout}: idle timeout of the session ID table's entries
 * @param requestTimeout      the whole request, SAP's PROCTIMEOUT: past it the client gets 504
 * @param clientThreads       {@code jwd.client_threads}: the bound of the HTTP client's own thread pool, used where
 *                            the servlet container lends it no Jetty thread pool (Tomcat)
 * @param connectionsPerServer {@code jwd.connections_per_server}: the most connections the HTTP client opens to one
 *                            server; requests beyond them wait in the client's queue for one to be free
 * @param health              active and passive health checks of the servers
 * @param properties          every key as written, for the admin page's "configuration in force"
 * @param trustedProxies      the peers whose X-Forwarded-* headers are kept ({@code jwd.trusted_proxies})
 * @param sections            the features' sections read from the same file, and the keys that need a restart
 */
public record DispatcherConfig(
        List<ServerConfig> servers,
        List<String> urlPrefixes,
        URI urlPrefixesUrl,
        Duration autoRefresh,
        ServerType defaultRootHandler,
        List<LogonGroupConfig> logonGroups,
        Duration autoAbapTime,
        String loadBalancingStrategy,
        Duration sessionTableTimeout,
        boolean esidSupport,
        boolean jsessionidTabSupport,
        Duration contextTimeout,
        long maxSessionTableEntries,
        long sessionTableHeapEntries,
        long sessionTableOffHeapMegabytes,
        boolean addSaplbCookie,
        boolean debugHeaders,
        Duration connectTimeout,
        Duration idleTimeout,
        Duration requestTimeout,
        int clientThreads,
        int connectionsPerServer,
        HealthConfig health,
        Map<String, String> properties,
        TrustedProxies trustedProxies,
        Sections sections) {

    public static final String WEIGHTED_ROUND_ROBIN = "weighted_round_robin";
    public static final String SIMPLE_WEIGHTED_ROUND_ROBIN = "simple_weighted_round_robin";

    public DispatcherConfig {
        servers = List.copyOf(servers);
        urlPrefixes = List.copyOf(urlPrefixes);
        logonGroups = List.copyOf(logonGroups);
        properties = Map.copyOf(properties);
    }

    /** The feature section of this type ({@link Sections#get}). */
    public <T> T section(Class<T> type) {
        return sections.get(type);
    }

    /** The keys whose change waits for a restart: those the sections read as restart-only. */
    public java.util.Set<String> restartKeys() {
        return sections.restartKeys();
    }

    /** This configuration with the features' sections. */
    public DispatcherConfig withSections(Sections next) {
        return new DispatcherConfig(servers, urlPrefixes, urlPrefixesUrl, autoRefresh, defaultRootHandler, logonGroups,
                autoAbapTime, loadBalancingStrategy, sessionTableTimeout, esidSupport, jsessionidTabSupport,
                contextTimeout, maxSessionTableEntries, sessionTableHeapEntries, sessionTableOffHeapMegabytes,
                addSaplbCookie, debugHeaders, connectTimeout, idleTimeout, requestTimeout, clientThreads, connectionsPerServer, health,
                properties, trustedProxies, next);
    }

    /** This configuration with {@code next} as its servers: the whole file's, when they are its systems'. */
    public DispatcherConfig withServers(List<ServerConfig> next) {
        return new DispatcherConfig(next, urlPrefixes, urlPrefixesUrl, autoRefresh, defaultRootHandler, logonGroups,
                autoAbapTime, loadBalancingStrategy, sessionTableTimeout, esidSupport, jsessionidTabSupport,
                contextTimeout, maxSessionTableEntries, sessionTableHeapEntries, sessionTableOffHeapMegabytes,
                addSaplbCookie, debugHeaders, connectTimeout, idleTimeout, requestTimeout, clientThreads, connectionsPerServer, health,
                properties, trustedProxies, sections);
    }

    /**
     * Whether jwd keeps a session table at all: SAP's session ID table (ESIDs, learned JSESSIONIDs) or the
     * temporary table's request-time bindings. One store holds both; see {@link #jsessionidTimeout()}. With
     * {@code wdisp/system_<xx>} entries, the one table the systems share exists when any system keeps one
     * ({@code system.ERP.SessionTableTimeout=10m} with every unscoped switch off, say).
     */
    public boolean sessionTableEnabled() {
        return esidSupport || jsessionidTabSupport || temporaryTableEnabled()
                || PerSystemConfigs.of(this).values().stream().anyMatch(DispatcherConfig::sessionTableEnabled);
    }

    /** The Java dispatcher's temporary session table: JSESSIONIDs bound at request time. */
    public boolean temporaryTableEnabled() {
        return !sessionTableTimeout.isZero();
    }

    /** Whether JSESSIONIDs a server sets are learned: into SAP's table, or the temporary table when that is on. */
    public boolean learnsJsessionids() {
        return jsessionidTabSupport || temporaryTableEnabled();
    }

    /**
     * The idle timeout of a JSESSIONID entry: {@code SessionTableTimeout} when the temporary table is on (it then
     * governs every JSESSIONID entry, bound or learned), else {@code wdisp/HTTP/context_timeout}. ESID entries
     * always idle-expire after {@code wdisp/HTTP/context_timeout}.
     */
    public Duration jsessionidTimeout() {
        return temporaryTableEnabled() ? sessionTableTimeout : contextTimeout;
    }

    @Override
    public String toString() {
        return "DispatcherConfig" + servers + " strategy " + loadBalancingStrategy
                + " SessionTableTimeout " + Durations.format(sessionTableTimeout)
                + " context_timeout " + Durations.format(contextTimeout);
    }
}
