package org.jwd.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jwd.filter.PermissionTable;
import org.jwd.topology.ServerType;

/**
 * The whole configuration in force: parsed once from the properties file by {@link ConfigParser},
 * immutable, and swapped as one value.
 *
 * @param urlPrefixes         the URL mapping table entries ({@code icf.url_prefixes}), as written
 * @param urlPrefixesUrl      where to load more entries from ({@code icf.url_prefixes_url}), or {@code null}
 * @param autoRefresh         how often that URL is read again ({@code wdisp/auto_refresh})
 * @param defaultRootHandler  who serves root URLs ({@code is/HTTP/default_root_hdl})
 * @param autoAbapTime        how often logon-group qualities are recomputed ({@code rdisp/autoabaptime})
 * @param sessionTableTimeout idle timeout of session table entries; zero turns the table off
 * @param requestTimeout      the whole request, SAP's PROCTIMEOUT: past it the client gets 504
 * @param health              active and passive health checks of the servers
 * @param properties          every key as written, for the admin page's "configuration in force"
 * @param permissionTable     the URL filter ({@code wdisp/permission_table}), read with the configuration;
 *                            {@link PermissionTable#NONE} without one
 * @param trustedProxies      the peers whose X-Forwarded-* headers are kept ({@code jwd.trusted_proxies})
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
        long maxSessionTableEntries,
        long sessionTableHeapEntries,
        long sessionTableOffHeapMegabytes,
        boolean addSaplbCookie,
        boolean debugHeaders,
        Duration connectTimeout,
        Duration idleTimeout,
        Duration requestTimeout,
        HealthConfig health,
        Map<String, String> properties,
        PermissionTable permissionTable,
        TrustedProxies trustedProxies) {

    public static final String WEIGHTED_ROUND_ROBIN = "weighted_round_robin";
    public static final String SIMPLE_WEIGHTED_ROUND_ROBIN = "simple_weighted_round_robin";

    public DispatcherConfig {
        servers = List.copyOf(servers);
        urlPrefixes = List.copyOf(urlPrefixes);
        logonGroups = List.copyOf(logonGroups);
        properties = Map.copyOf(properties);
    }

    public boolean sessionTableEnabled() {
        return !sessionTableTimeout.isZero();
    }

    @Override
    public String toString() {
        return "DispatcherConfig" + servers + " strategy " + loadBalancingStrategy
                + " SessionTableTimeout " + Durations.format(sessionTableTimeout);
    }
}
