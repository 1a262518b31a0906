package org.jwd.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The whole configuration in force: read once from the properties file (the core keys by {@link ConfigParser},
 * the features' keys by their own sections, in {@link #sections()}), immutable, and swapped as one value.
 *
 * @param servers               the servers ({@code server.<id>.*}), in the file's order
 * @param logonGroups           the logon groups ({@code logon_group.<G>.*})
 * @param loadBalancingStrategy {@code wdisp/load_balancing_strategy}
 * @param autoAbapTime          how often logon-group qualities are recomputed ({@code rdisp/autoabaptime})
 * @param urlMapping            the URL mapping table's keys
 * @param sessions              the session tables' keys
 * @param forwarding            the proxy's HTTP client and headers
 * @param serverPorts           the listeners an SAP profile declares ({@code icm/server_port_<xx>})
 * @param health                active and passive health checks of the servers
 * @param properties            every key as written, for the admin page's "configuration in force"
 * @param sections              the features' sections read from the same file, and the keys that need a restart
 */
public record DispatcherConfig(
        List<ServerConfig> servers,
        List<LogonGroupConfig> logonGroups,
        String loadBalancingStrategy,
        Duration autoAbapTime,
        UrlMappingConfig urlMapping,
        SessionTableConfig sessions,
        ForwardingConfig forwarding,
        ServerPorts serverPorts,
        HealthConfig health,
        Map<String, String> properties,
        Sections sections) {

    public static final String WEIGHTED_ROUND_ROBIN = "weighted_round_robin";
    public static final String SIMPLE_WEIGHTED_ROUND_ROBIN = "simple_weighted_round_robin";

    public DispatcherConfig {
        servers = List.copyOf(servers);
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
        return new DispatcherConfig(servers, logonGroups, loadBalancingStrategy, autoAbapTime, urlMapping, sessions,
                forwarding, serverPorts, health, properties, next);
    }

    /** This configuration with {@code next} as its servers: the whole file's, when they are its systems'. */
    public DispatcherConfig withServers(List<ServerConfig> next) {
        return new DispatcherConfig(next, logonGroups, loadBalancingStrategy, autoAbapTime, urlMapping, sessions,
                forwarding, serverPorts, health, properties, sections);
    }

    /** This configuration with {@code next} as its logon groups: the file's and the discovered ones. */
    public DispatcherConfig withLogonGroups(List<LogonGroupConfig> next) {
        return new DispatcherConfig(servers, next, loadBalancingStrategy, autoAbapTime, urlMapping, sessions,
                forwarding, serverPorts, health, properties, sections);
    }

    /**
     * Whether jwd keeps a session table at all: SAP's session ID table (ESIDs, learned JSESSIONIDs) or the
     * temporary table's request-time bindings. One store holds both. With {@code wdisp/system_<xx>} entries, the
     * one table the systems share exists when any system keeps one ({@code system.ERP.SessionTableTimeout=10m}
     * with every unscoped switch off, say).
     */
    public boolean sessionTableEnabled() {
        return sessions.tableEnabled()
                || PerSystemConfigs.of(this).values().stream().anyMatch(DispatcherConfig::sessionTableEnabled);
    }

    @Override
    public String toString() {
        return "DispatcherConfig" + servers + " strategy " + loadBalancingStrategy
                + " SessionTableTimeout " + Durations.format(sessions.sessionTableTimeout())
                + " context_timeout " + Durations.format(sessions.contextTimeout());
    }
}
