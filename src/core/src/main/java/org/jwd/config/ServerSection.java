package org.jwd.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads one server's description with the same rules and defaults wherever it comes from: a
 * {@code server.<id>.*} block of the configuration file, or the body of a server's registration
 * ({@code PUT /jwd/admin/api/servers/<id>}), whose fields are the block's keys without the prefix.
 */
public final class ServerSection {
    public static final KeyReader.Family SERVERS = new KeyReader.Family("server.", "<id>",
            "a server id of letters, digits, '_' or '-'", "server key");
    private static final String TOKEN = "a non-empty value without spaces";

    private ServerSection() {
    }

    /** Every {@code server.<id>.*} block of the file, in the order of the ids; a server with a problem is left out. */
    static List<ServerConfig> readAll(KeyReader keys, Collection<String> logonGroups) {
        List<ServerConfig> servers = new ArrayList<>();
        for (String id : keys.ids(SERVERS)) {
            ServerConfig server = read(keys, SERVERS.prefix() + id + ".", id, logonGroups);
            if (server != null) {
                servers.add(server);
            }
        }
        return servers;
    }

    /**
     * @param prefix      {@code server.<id>.} in the file; empty for a registration body
     * @param logonGroups the logon groups defined: a server may only name these
     * @return the server, or {@code null} when a problem was reported
     */
    public static ServerConfig read(KeyReader keys, String prefix, String id, Collection<String> logonGroups) {
        int before = keys.problemCount();
        String urlKey = prefix + "url";
        String httpsKey = prefix + "https_url";
        URI url = keys.url(urlKey, Set.of("http"), false, "http://host:port");
        URI httpsUrl = keys.url(httpsKey, Set.of("https"), false, "https://host:port");
        if (keys.raw(urlKey) == null && keys.raw(httpsKey) == null) {
            // SAP: the servers with an HTTPS port form the S groups; one with only that port is in them alone
            keys.missingBoth(urlKey, httpsKey, "every server", "http://host:port", "https://host:port");
        }
        ServerType type = null;
        if (keys.raw(prefix + "type") == null) {
            keys.missing(prefix + "type", "j2ee or abap");
        } else {
            type = keys.value(prefix + "type", null, "j2ee or abap", ServerType::parse);
        }
        int capacity = keys.integer(prefix + "capacity", 1, 1, Integer.MAX_VALUE, "a positive integer");
        Set<String> groups = new LinkedHashSet<>(keys.list(prefix + "logon_groups"));
        for (String g : groups) {
            if (!logonGroups.contains(g)) {
                keys.problem(prefix + "logon_groups", g, "a logon group defined by logon_group." + g
                        + ".url_prefixes in the configuration");
            }
        }
        String lbId = keys.value(prefix + "lb_id", id, TOKEN, ServerSection::token);
        String instanceId = keys.value(prefix + "instance_id", ServerConfig.defaultInstanceId(lbId), TOKEN,
                ServerSection::token);
        String name = keys.value(prefix + "name", id, TOKEN, ServerSection::token);
        String route = keys.value(prefix + "route", null, TOKEN, ServerSection::token);
        String healthPath = keys.value(prefix + "health_path",
                type == ServerType.ABAP ? ServerConfig.ABAP_PING_PATH : "/", "a path starting with '/'",
                p -> p.startsWith("/") && p.chars().noneMatch(c -> c <= ' ') ? p : null);
        ServerHealthCheck check = healthCheck(keys, prefix);
        ServerState state = keys.value(prefix + "state", ServerState.ACTIVE, ServerState.EXPECTED, ServerState::parse);
        if (keys.problemCount() > before) {
            return null;
        }
        return new ServerConfig(id, url, httpsUrl, type, capacity, groups, lbId, name, route, healthPath,
                instanceId, check, state);
    }

    /** {@code health_status}, {@code health_interval}, {@code health_timeout}, {@code health_rise}, {@code health_fall}. */
    private static ServerHealthCheck healthCheck(KeyReader keys, String prefix) {
        String positive = "a positive duration: " + Durations.EXPECTED;
        return new ServerHealthCheck(
                keys.value(prefix + "health_status", null, ExpectedStatus.EXPECTED, ExpectedStatus::parse),
                keys.duration(prefix + "health_interval", null, false, positive),
                keys.duration(prefix + "health_timeout", null, false, positive),
                keys.value(prefix + "health_rise", null, "a positive integer", ServerSection::positive),
                keys.value(prefix + "health_fall", null, "a positive integer", ServerSection::positive));
    }

    private static Integer positive(String text) {
        int n = Integer.parseInt(text.strip());
        return n >= 1 ? n : null;
    }

    private static String token(String text) {
        return text.isEmpty() || text.chars().anyMatch(Character::isWhitespace) ? null : text;
    }
}
