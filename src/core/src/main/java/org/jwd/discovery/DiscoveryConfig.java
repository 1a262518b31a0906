package org.jwd.discovery;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jwd.config.KeyReader;
import org.jwd.operator.OperatorConfig;
import org.jwd.systems.ServerSource;
import org.jwd.systems.SystemEntry;

/**
 * Where SAP is asked for each system's servers, URL mapping table and logon groups, and how often: SAP's
 * {@code rdisp/mshost} with {@code ms/http_port} (or {@code ms/https_port}) for the one system without
 * {@code wdisp/system_<xx>} entries, each entry's {@code MSHOST} with {@code MSPORT} or {@code MSSPORT} (or
 * {@code SILOC}) otherwise; the locations of the lists ({@code wdisp/server_info_location},
 * {@code wdisp/url_map_location}, {@code wdisp/group_info_location} and their {@code wdisp/J2EE/} forms), the refresh
 * ({@code wdisp/auto_refresh}), each fetch's timeout ({@code wdisp/info_timeout}), the operator's word on single
 * instances ({@code wdisp/server_<xx>}) and the file the last good view is kept in ({@code jwd.discovery_file}).
 *
 * @param sources   each system that discovers, in entry order; empty: nothing is discovered
 * @param keptFile  where the last good view is kept, or {@code null} (nowhere: a WAR in another container)
 */
public record DiscoveryConfig(List<Source> sources, Locations locations, Duration refresh, Duration timeout,
                              List<ServerOverride> overrides, Path keptFile) {
    public static final String MSHOST = "rdisp/mshost";
    public static final String HTTP_PORT = "ms/http_port";
    public static final String HTTPS_PORT = "ms/https_port";
    public static final String INFO_TIMEOUT = "wdisp/info_timeout";
    public static final String KEPT_FILE = "jwd.discovery_file";
    public static final String KEPT_FILE_NAME = "discovery-view.txt";
    static final String SERVER_INFO = "wdisp/server_info_location";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
    /** {@code ?version=1.2}: the list's version jwd reads, as SAP's Web Dispatcher asks it. */
    static final String VERSION_QUERY = "version=1.2";
    public static final DiscoveryConfig NONE = new DiscoveryConfig(List.of(), Locations.DEFAULT, Duration.ofSeconds(25),
            DEFAULT_TIMEOUT, List.of(), null);

    public DiscoveryConfig {
        sources = List.copyOf(sources);
        overrides = List.copyOf(overrides);
    }

    /**
     * One system that discovers.
     *
     * @param sid        the system's SID, or {@code null} for the one implicit system
     * @param serverList the URL of its server list ({@code http://<mshost>:<port><location>?version=1.2}, https with
     *                   {@code MSSPORT}, or a {@code file:} URI)
     * @param origin     the keys it comes from, for messages and {@code bin/jwd check}
     */
    public record Source(String sid, URI serverList, String origin) {
        /** The system's name on the page and in the kept file: its SID, or {@code -} for the implicit system. */
        public String key() {
            return sid == null ? "-" : sid;
        }

        @Override
        public String toString() {
            return (sid == null ? "" : "system " + sid + ": ") + serverList + " (" + origin + ")";
        }
    }

    /** Whether any system discovers. */
    public boolean enabled() {
        return !sources.isEmpty();
    }

    /** The {@code wdisp/server_<xx>} of this SAP instance, or {@code null}. */
    public ServerOverride override(String instance) {
        return overrides.stream().filter(o -> o.name().equals(instance)).findFirst().orElse(null);
    }

    /**
     * Reads the keys; every problem goes to {@code keys}.
     *
     * @param systems     the {@code wdisp/system_<xx>} entries, empty for the implicit system alone
     * @param autoRefresh {@code wdisp/auto_refresh}, read by the URL mapping table's keys already
     */
    public static DiscoveryConfig read(KeyReader keys, List<SystemEntry> systems, Duration autoRefresh) {
        Locations locations = Locations.read(keys);
        String host = keys.string(MSHOST, null);
        Integer http = port(keys, HTTP_PORT);
        Integer https = port(keys, HTTPS_PORT);
        List<Source> sources = new ArrayList<>();
        if (systems.isEmpty()) {
            Source implicit = implicit(keys, host, http, https, locations);
            if (implicit != null) {
                sources.add(implicit);
            }
        } else {
            for (SystemEntry system : systems) {
                ServerSource s = system.serverSource();
                if (s != null) {
                    sources.add(new Source(system.sid(), s.serverList() != null ? s.serverList()
                            : serverList(s.msSPort() != null, s.msHost(), s.msSPort() != null ? s.msSPort()
                            : s.msPort(), locations), system.key() + " " + s));
                }
            }
        }
        Duration timeout = keys.seconds(INFO_TIMEOUT, DEFAULT_TIMEOUT, "seconds, or a number with a unit (500ms, 5s)");
        List<ServerOverride> overrides = new ArrayList<>();
        for (String key : new java.util.TreeSet<>(keys.values().keySet())) {
            if (ServerOverride.isKey(key)) {
                ServerOverride o = ServerOverride.read(keys, key);
                if (o != null) {
                    overrides.add(o);
                }
            }
        }
        Path kept = keys.path(KEPT_FILE, "a file name (relative to the configuration file's directory)");
        if (kept == null && !sources.isEmpty()) {
            kept = OperatorConfig.keptFile(keys, KEPT_FILE_NAME, "discovery-view");
        }
        return new DiscoveryConfig(sources, locations, autoRefresh, timeout, overrides, kept);
    }

    private static Source implicit(KeyReader keys, String host, Integer http, Integer https, Locations locations) {
        if (locations.serverInfo().startsWith("file:")) {
            return new Source(null, URI.create(locations.serverInfo()), SERVER_INFO);
        }
        if (host == null) {
            if (http != null || https != null) {
                keys.problem(http != null ? HTTP_PORT : HTTPS_PORT, "beside " + MSHOST + " = <the message server's"
                        + " host>: the port alone names no message server");
            }
            return null;
        }
        if (host.isBlank() || host.chars().anyMatch(c -> c <= ' ' || c == '/' || c == '@')) {
            keys.problem(MSHOST, host, "a host name or address");
            return null;
        }
        if (http == null && https == null) {
            keys.problemText(MSHOST, MSHOST + " = '" + host + "': expected " + HTTP_PORT + " (the message server's"
                    + " HTTP port) or " + HTTPS_PORT + " beside it; jwd asks the message server over HTTP, not on "
                    + "rdisp/msserv");
            return null;
        }
        // the HTTPS port when given: the list then comes over TLS, checked against wdisp/ssl_truststore
        return new Source(null, serverList(https != null, host, https != null ? https : http, locations),
                MSHOST + ", " + (https != null ? HTTPS_PORT : HTTP_PORT));
    }

    static URI serverList(boolean secure, String host, int port, Locations locations) {
        String location = locations.serverInfo();
        if (location.startsWith("file:")) {
            return URI.create(location);
        }
        String literal = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return URI.create((secure ? "https" : "http") + "://" + literal + ":" + port + location
                + (location.contains("?") ? "&" : "?") + VERSION_QUERY);
    }

    private static Integer port(KeyReader keys, String key) {
        if (keys.raw(key) == null || keys.raw(key).isBlank()) {
            return null;
        }
        int port = keys.integer(key, 0, 1, 65535, "a port number (1-65535)");
        return port == 0 ? null : port;
    }

    @Override
    public String toString() {
        return enabled() ? "discovery from " + sources + " every " + refresh : "no discovery";
    }
}
