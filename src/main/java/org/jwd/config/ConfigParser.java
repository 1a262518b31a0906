package org.jwd.config;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

import org.jwd.filter.PermissionTable;
import org.jwd.config.ServerType;

/**
 * Turns the text of a properties file into a {@link DispatcherConfig}, or fails with one message per
 * problem. Every message names the key (and the line), the value and what is expected; nothing is
 * half-applied. Unknown keys are errors, because a misspelled key silently ignored is a production outage
 * waiting for a restart.
 */
public final class ConfigParser {
    private static final String PREFIX_SYNTAX = "each prefix to start with '/' (or case:/ or icase:/)";
    public static final String CLIENT_THREADS = "jwd.client_threads";
    /** Jetty's own default for its server's pool, on which the client runs in Jetty. */
    public static final int DEFAULT_CLIENT_THREADS = 200;
    static final int MIN_CLIENT_THREADS = 8;
    static final int MAX_CLIENT_THREADS = 10_000;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern SERVER_KEY = Pattern.compile("server\\.([^.]*)\\.(.+)");
    private static final Pattern GROUP_KEY = Pattern.compile("logon_group\\.([^.]*)\\.(.+)");

    static final Set<String> SERVER_KEYS = Set.of(
            "url", "https_url", "type", "capacity", "logon_groups", "lb_id", "name", "route", "health_path",
            "max_connections", "max_queue");
    static final Set<String> GROUP_KEYS = Set.of(
            "url_prefixes", "type", "fallback", "ext_rfc", "refresh", "refresh_dispatches", "http_balancing");
    static final Set<String> GLOBAL_KEYS = Set.of(
            "icf.url_prefixes", "icf.url_prefixes_url", "wdisp/auto_refresh", "is/HTTP/default_root_hdl",
            "rdisp/autoabaptime", "wdisp/load_balancing_strategy", "SessionTableTimeout",
            "wdisp/HTTP/max_session_tab_entries", "SessionTable.heap_entries", "SessionTable.offheap_MB",
            "wdisp/HTTP/esid_support", "wdisp/HTTP/jsessionid_tab_support", "wdisp/HTTP/context_timeout",
            "wdisp/add_saplb_cookie", "jwd.debug_headers", "jwd.connect_timeout", "jwd.idle_timeout",
            "jwd.request_timeout", "jwd.client_threads", "health.interval", "health.timeout", "health.rise", "health.fall",
            // Read and checked by the features that use them (admin, cluster, TLS, limits):
            "admin.user", "admin.password_hash", "rdisp/registry_expiry",
            "SessionTable.cluster_uri",
            "wdisp/ssl_encrypt", "wdisp/ssl_truststore", "wdisp/ssl_truststore_password", "wdisp/ssl_verify_hostname",
            "wdisp/HTTPS/port", "wdisp/HTTPS/sticky_mask", "wdisp/HTTPS/context_timeout",
            "wdisp/HTTPS/max_client_ip_entries", "wdisp/HTTPS/dest_logon_group",
            "jwd.ssl_keystore", "jwd.ssl_keystore_password",
            "wdisp/permission_table", "jwd.permission_table_ignore_case", "jwd.trusted_proxies",
            "icm/HTTP/max_request_size_KB", "jwd.queue_timeout", "jwd.max_header_size", "icm/HTTP/logging_0",
            // Read by org.jwd.Reloader (hot reload of this file):
            "jwd.config_watch");

    private final String source;
    /** Where relative file names in the configuration are resolved: the properties file's directory. */
    private final Path directory;
    private final List<String> problems = new ArrayList<>();
    private final Map<String, Integer> lineOf = new HashMap<>();
    private final Map<String, String> values = new LinkedHashMap<>();

    private ConfigParser(String source, Path directory) {
        this.source = source;
        this.directory = directory;
    }

    /**
     * Parses with relative file names (such as {@code wdisp/permission_table}) resolved against the working
     * directory.
     *
     * @param text   the file's content
     * @param source how to name the file in messages, e.g. its path
     */
    public static DispatcherConfig parse(String text, String source) throws ConfigException {
        return parse(text, source, Path.of(""));
    }

    /**
     * @param directory where relative file names in the configuration are resolved: the properties file's
     *                  directory, so a configuration and its permission table move together
     */
    public static DispatcherConfig parse(String text, String source, Path directory) throws ConfigException {
        return new ConfigParser(source, directory).run(text);
    }

    private DispatcherConfig run(String text) throws ConfigException {
        readEntries(text);
        Map<String, Map<String, String>> serverKeys = new TreeMap<>();
        Map<String, Map<String, String>> groupKeys = new TreeMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            String key = e.getKey();
            var server = SERVER_KEY.matcher(key);
            var group = GROUP_KEY.matcher(key);
            if (server.matches()) {
                if (!ID.matcher(server.group(1)).matches()) {
                    problem(key, e.getValue(), "a server id of letters, digits, '_' or '-'");
                } else if (!SERVER_KEYS.contains(server.group(2))) {
                    problem(key, e.getValue(), "a known server key: one of " + sorted(SERVER_KEYS));
                } else {
                    serverKeys.computeIfAbsent(server.group(1), k -> new HashMap<>()).put(server.group(2), key);
                }
            } else if (group.matches()) {
                if (!ID.matcher(group.group(1)).matches()) {
                    problem(key, e.getValue(), "a logon group name of letters, digits, '_' or '-'");
                } else if (!GROUP_KEYS.contains(group.group(2))) {
                    problem(key, e.getValue(), "a known logon group key: one of " + sorted(GROUP_KEYS));
                } else {
                    groupKeys.computeIfAbsent(group.group(1), k -> new HashMap<>()).put(group.group(2), key);
                }
            } else if (!GLOBAL_KEYS.contains(key)) {
                problem(key, e.getValue(), "a known key (server.<id>.*, logon_group.<G>.*, or one of "
                        + sorted(GLOBAL_KEYS) + ")");
            }
        }

        List<ServerConfig> servers = new ArrayList<>();
        serverKeys.forEach((id, keys) -> {
            ServerConfig s = server(id, keys);
            if (s != null) {
                servers.add(s);
            }
        });
        List<LogonGroupConfig> groups = new ArrayList<>();
        groupKeys.forEach((name, keys) -> groups.add(logonGroup(name, keys)));
        if (!groupKeys.containsKey(LogonGroupConfig.SPACE)) {
            // SAP's message server always has SPACE, the group of all servers; a configured SPACE replaces it.
            groups.add(LogonGroupConfig.space());
            groups.sort(Comparator.comparing(LogonGroupConfig::name));
        }

        List<String> urlPrefixes = list("icf.url_prefixes");
        for (String prefix : urlPrefixes) {
            if (!isPrefixSyntax(prefix)) {
                problem("icf.url_prefixes", prefix, PREFIX_SYNTAX);
            }
        }
        URI prefixesUrl = optional("icf.url_prefixes_url", v -> url(v, Set.of("http", "https"), true), null,
                "an http:// or https:// URL");
        Duration autoRefresh = optional("wdisp/auto_refresh", ConfigParser::seconds, Duration.ofSeconds(25),
                "seconds, or a number with a unit (500ms, 30s, 10m, 1h)");
        ServerType rootHandler = optional("is/HTTP/default_root_hdl", ConfigParser::serverType, ServerType.J2EE,
                "abap or j2ee");
        Duration autoAbapTime = optional("rdisp/autoabaptime", ConfigParser::seconds, Duration.ofSeconds(300),
                "seconds, or a number with a unit (500ms, 30s, 10m, 1h)");
        String strategy = optional("wdisp/load_balancing_strategy", ConfigParser::strategy,
                DispatcherConfig.WEIGHTED_ROUND_ROBIN,
                DispatcherConfig.WEIGHTED_ROUND_ROBIN + " or " + DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN);
        Duration tableTimeout = optional("SessionTableTimeout", Durations::parse, Duration.ZERO,
                Durations.EXPECTED + "; 0 turns the table off");
        boolean esidSupport = optional("wdisp/HTTP/esid_support", ConfigParser::bool, true, "true or false");
        boolean jsessionidTabSupport = optional("wdisp/HTTP/jsessionid_tab_support", ConfigParser::bool, true,
                "true or false");
        Duration contextTimeout = optional("wdisp/HTTP/context_timeout", ConfigParser::seconds,
                Duration.ofSeconds(3600), "a positive number of seconds, or a number with a unit (30s, 10m, 1h)");
        long maxEntries = optional("wdisp/HTTP/max_session_tab_entries", ConfigParser::positiveLong, 1_000_000L,
                "a positive integer");
        long heapEntries = optional("SessionTable.heap_entries", ConfigParser::positiveLong, maxEntries,
                "a positive integer");
        long offHeapMb = optional("SessionTable.offheap_MB", ConfigParser::nonNegativeLong, 0L,
                "a non-negative integer (megabytes; 0 = heap only)");
        boolean addSaplb = optional("wdisp/add_saplb_cookie", ConfigParser::bool, false, "true or false");
        boolean debugHeaders = optional("jwd.debug_headers", ConfigParser::bool, false, "true or false");
        Duration connectTimeout = optional("jwd.connect_timeout", ConfigParser::positiveDuration,
                Duration.ofSeconds(5), "a positive duration: " + Durations.EXPECTED);
        Duration idleTimeout = optional("jwd.idle_timeout", ConfigParser::positiveDuration,
                Duration.ofSeconds(60), "a positive duration: " + Durations.EXPECTED);
        Duration requestTimeout = optional("jwd.request_timeout", ConfigParser::positiveDuration,
                Duration.ofSeconds(60), "a positive duration: " + Durations.EXPECTED);
        int clientThreads = optional(CLIENT_THREADS, ConfigParser::threadCount, DEFAULT_CLIENT_THREADS,
                "an integer from " + MIN_CLIENT_THREADS + " to " + MAX_CLIENT_THREADS);

        HealthConfig health = new HealthConfig(
                optional("health.interval", ConfigParser::positiveDuration, Duration.ofSeconds(5),
                        "a positive duration: " + Durations.EXPECTED),
                optional("health.timeout", ConfigParser::positiveDuration, Duration.ofSeconds(2),
                        "a positive duration: " + Durations.EXPECTED),
                optional("health.rise", ConfigParser::positiveInt, 2, "a positive integer"),
                optional("health.fall", ConfigParser::positiveInt, 3, "a positive integer"));

        PermissionTable permissionTable = permissionTable();
        TrustedProxies trustedProxies = trustedProxies();

        for (ServerConfig s : servers) {
            for (String g : s.logonGroups()) {
                if (groups.stream().noneMatch(lg -> lg.name().equals(g))) {
                    problem("server." + s.id() + ".logon_groups", g,
                            "a logon group defined by logon_group." + g + ".url_prefixes");
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new DispatcherConfig(servers, urlPrefixes, prefixesUrl, autoRefresh, rootHandler, groups,
                autoAbapTime, strategy, tableTimeout, esidSupport, jsessionidTabSupport, contextTimeout, maxEntries, heapEntries, offHeapMb, addSaplb, debugHeaders,
                connectTimeout, idleTimeout, requestTimeout, clientThreads, health, values, permissionTable, trustedProxies);
    }

    /** A URL prefix as {@link org.jwd.routing.UrlPrefix} reads it: a path, or after {@code case:}/{@code icase:}. */
    private static boolean isPrefixSyntax(String prefix) {
        return prefix.startsWith("/") || prefix.regionMatches(true, 0, "case:/", 0, 6)
                || prefix.regionMatches(true, 0, "icase:/", 0, 7);
    }

    /**
     * {@code wdisp/permission_table}: read now, so that the table is part of the configuration value; with
     * {@code jwd.permission_table_ignore_case}, which says how it reads J2EE paths.
     */
    private PermissionTable permissionTable() {
        String key = "wdisp/permission_table";
        String value = values.get(key);
        boolean ignoreCase = optional("jwd.permission_table_ignore_case", ConfigParser::bool, false,
                "true or false");
        if (value == null || value.isEmpty()) {
            return PermissionTable.NONE;
        }
        Path file;
        try {
            file = directory.resolve(value);
        } catch (InvalidPathException e) {
            problem(key, value, "the path of a permission table file");
            return PermissionTable.NONE;
        }
        try {
            return PermissionTable.load(file, file.toString(), ignoreCase);
        } catch (ConfigException e) {
            Integer line = lineOf.get(key);
            String where = source + (line == null ? "" : ":" + line) + ": " + key + " = '" + value + "': ";
            for (String p : e.problems()) {
                // A bad line names the table's file and line itself; a missing file is named after the key.
                problems.add(p.startsWith(file + ":") ? p : where + p);
            }
            return PermissionTable.NONE;
        }
    }

    /** {@code jwd.trusted_proxies}: the peers whose X-Forwarded-* headers are kept and appended to. */
    private TrustedProxies trustedProxies() {
        String key = "jwd.trusted_proxies";
        String value = values.get(key);
        if (value == null || value.isBlank()) {
            return TrustedProxies.NONE;
        }
        TrustedProxies.Parsed parsed = TrustedProxies.parse(value);
        for (String bad : parsed.badEntries()) {
            Integer line = lineOf.get(key);
            problems.add(source + (line == null ? "" : ":" + line) + ": " + key + " entry '" + bad
                    + "': expected an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, ::1, fd00::/8)");
        }
        return parsed.proxies();
    }

    private ServerConfig server(String id, Map<String, String> keys) {
        String prefix = "server." + id + ".";
        int before = problems.size();
        // SAP: the servers with an HTTPS port configured form the S groups; one with only that port is in them alone
        if (!keys.containsKey("url") && !keys.containsKey("https_url")) {
            problems.add(source + ": " + prefix + "url and " + prefix + "https_url are both missing: every server "
                    + "needs http://host:port, https://host:port or both");
        }
        URI url = optional(prefix + "url", v -> url(v, Set.of("http"), false), null, "http://host:port");
        URI httpsUrl = optional(prefix + "https_url", v -> url(v, Set.of("https"), false), null,
                "https://host:port");
        ServerType type = null;
        if (!keys.containsKey("type")) {
            problems.add(source + ": " + prefix + "type is missing: expected j2ee or abap");
        } else {
            type = optional(prefix + "type", ConfigParser::serverType, null, "j2ee or abap");
        }
        int capacity = optional(prefix + "capacity", ConfigParser::positiveInt, 1, "a positive integer");
        Set<String> groups = new LinkedHashSet<>(list(prefix + "logon_groups"));
        String lbId = optional(prefix + "lb_id", ConfigParser::token, id, "a non-empty value without spaces");
        String name = optional(prefix + "name", ConfigParser::token, id, "a non-empty value without spaces");
        String route = optional(prefix + "route", ConfigParser::token, null, "a non-empty value without spaces");
        String healthPath = optional(prefix + "health_path", ConfigParser::healthPath,
                type == ServerType.ABAP ? ServerConfig.ABAP_PING_PATH : "/", "a path starting with '/'");
        if (problems.size() > before) {
            return null;
        }
        return new ServerConfig(id, url, httpsUrl, type, capacity, groups, lbId, name, route, healthPath);
    }

    private LogonGroupConfig logonGroup(String name, Map<String, String> keys) {
        String prefix = "logon_group." + name + ".";
        List<String> prefixes = list(prefix + "url_prefixes");
        for (String p : prefixes) {
            if (!isPrefixSyntax(p)) {
                problem(prefix + "url_prefixes", p, PREFIX_SYNTAX);
            }
        }
        char type = optional(prefix + "type", ConfigParser::groupType, LogonGroupConfig.DEFAULT_TYPE, "B, R or W");
        boolean fallback = optional(prefix + "fallback", ConfigParser::bool, false, "true or false");
        boolean extRfc = optional(prefix + "ext_rfc", ConfigParser::bool, true, "true or false");
        Duration refresh = optional(prefix + "refresh", ConfigParser::positiveDuration,
                LogonGroupConfig.DEFAULT_REFRESH, "a positive duration: " + Durations.EXPECTED);
        int refreshDispatches = optional(prefix + "refresh_dispatches", ConfigParser::positiveInt,
                LogonGroupConfig.DEFAULT_REFRESH_DISPATCHES, "a positive integer");
        LogonGroupConfig.HttpBalancing httpBalancing = optional(prefix + "http_balancing", ConfigParser::httpBalancing,
                LogonGroupConfig.HttpBalancing.STRATEGY, "strategy (wdisp/load_balancing_strategy, by capacity) or"
                        + " quality (the logon group's type B, R or W)");
        return new LogonGroupConfig(name, prefixes, type, fallback, extRfc, refresh, refreshDispatches,
                httpBalancing, false);
    }

    /** Reads the file line by line so that a key given twice is an error, not a silent override. */
    private void readEntries(String text) {
        String[] lines = text.split("\r\n|\r|\n", -1);
        StringBuilder logical = new StringBuilder();
        int startLine = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (logical.length() == 0) {
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("!")) {
                    continue;
                }
                startLine = i + 1;
            }
            logical.append(line).append('\n');
            if (endsWithContinuation(line) && i + 1 < lines.length) {
                continue;
            }
            Properties one = new Properties();
            try {
                one.load(new StringReader(logical.toString()));
            } catch (IOException | IllegalArgumentException e) {
                problems.add(source + ":" + startLine + ": cannot read the line: " + e.getMessage());
            }
            for (String key : one.stringPropertyNames()) {
                String value = one.getProperty(key).strip();
                if (lineOf.containsKey(key)) {
                    problems.add(source + ":" + startLine + ": " + key + " is given twice (first on line "
                            + lineOf.get(key) + "): expected each key once");
                } else {
                    lineOf.put(key, startLine);
                    values.put(key, value);
                }
            }
            logical.setLength(0);
        }
    }

    private static boolean endsWithContinuation(String line) {
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    private <T> T optional(String key, Function<String, T> reader, T fallback, String expected) {
        String value = values.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            T result = reader.apply(value);
            if (result != null) {
                return result;
            }
        } catch (IllegalArgumentException e) {
            // reported below with the key, the value and what is expected
        }
        problem(key, value, expected);
        return fallback;
    }

    private List<String> list(String key) {
        String value = values.get(key);
        if (value == null || value.isBlank()) {
            return List.of();
        }
        return Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private void problem(String key, String value, String expected) {
        Integer line = lineOf.get(key);
        problems.add(source + (line == null ? "" : ":" + line) + ": " + key + " = '" + value + "': expected "
                + expected);
    }

    private static String sorted(Set<String> keys) {
        return String.join(", ", new java.util.TreeSet<>(keys));
    }

    private static URI url(String text, Set<String> schemes, boolean pathAllowed) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return null;
        }
        if (uri.getScheme() == null || !schemes.contains(uri.getScheme().toLowerCase(Locale.ROOT))
                || uri.getHost() == null || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            return null;
        }
        if (!pathAllowed && ((uri.getRawPath() != null && !uri.getRawPath().isEmpty()
                && !uri.getRawPath().equals("/")) || uri.getRawQuery() != null)) {
            return null;
        }
        return pathAllowed ? uri : URI.create(uri.getScheme().toLowerCase(Locale.ROOT) + "://"
                + uri.getRawAuthority());
    }

    private static ServerType serverType(String text) {
        return ServerType.parse(text);
    }

    private static String strategy(String text) {
        return switch (text) {
            case DispatcherConfig.WEIGHTED_ROUND_ROBIN, DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN -> text;
            default -> null;
        };
    }

    private static Character groupType(String text) {
        return switch (text.toUpperCase(Locale.ROOT)) {
            case "B" -> 'B';
            case "R" -> 'R';
            case "W" -> 'W';
            default -> null;
        };
    }

    private static LogonGroupConfig.HttpBalancing httpBalancing(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "strategy" -> LogonGroupConfig.HttpBalancing.STRATEGY;
            case "quality" -> LogonGroupConfig.HttpBalancing.QUALITY;
            default -> null;
        };
    }

    private static Boolean bool(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true", "1", "on", "yes" -> Boolean.TRUE;
            case "false", "0", "off", "no" -> Boolean.FALSE;
            default -> null;
        };
    }

    /** Within the pool's bounds: below the minimum, the client's selector and callbacks would starve one another. */
    private static Integer threadCount(String text) {
        int v = Integer.parseInt(text);
        return v >= MIN_CLIENT_THREADS && v <= MAX_CLIENT_THREADS ? v : null;
    }

    private static Integer positiveInt(String text) {
        int v = Integer.parseInt(text);
        return v > 0 ? v : null;
    }

    private static Long positiveLong(String text) {
        long v = Long.parseLong(text);
        return v > 0 ? v : null;
    }

    private static Long nonNegativeLong(String text) {
        long v = Long.parseLong(text);
        return v >= 0 ? v : null;
    }

    private static Duration positiveDuration(String text) {
        Duration d = Durations.parse(text);
        return d.isZero() ? null : d;
    }

    /** SAP's second-valued parameters: a plain number is seconds; a unit may be given. */
    private static Duration seconds(String text) {
        String s = text.strip();
        if (!s.isEmpty() && s.chars().allMatch(Character::isDigit)) {
            return positiveDuration(s + "s");
        }
        return positiveDuration(s);
    }

    private static String healthPath(String text) {
        return text.startsWith("/") && text.chars().noneMatch(c -> c <= ' ') ? text : null;
    }

    private static String token(String text) {
        return text.isEmpty() || text.chars().anyMatch(Character::isWhitespace) ? null : text;
    }
}
