package org.jwd.tls;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.config.KeyReader;
import org.jwd.config.ServerPorts;

/**
 * End-to-end TLS (SAP's {@code PROT=ROUTER}): a listener that never decrypts and hands each TLS connection to
 * an HTTPS-enabled server, weighted by capacity, keeping a client network on one server.
 *
 * @param port               {@code wdisp/HTTPS/port}; 0 takes any free port (tests)
 * @param stickyMask         {@code wdisp/HTTPS/sticky_mask} as an IPv4 address in an int: clients whose
 *                           addresses agree under the mask are one client and go to one server
 * @param contextTimeout     {@code wdisp/HTTPS/context_timeout}: a client address not seen for this long is
 *                           balanced anew
 * @param maxClientIpEntries {@code wdisp/HTTPS/max_client_ip_entries}: at most this many client networks
 *                           are remembered; past it the least recently seen is forgotten
 * @param defaultLogonGroup  {@code wdisp/HTTPS/dest_logon_group}: where connections go whose SNI name is not
 *                           listed; {@code null}: every HTTPS-enabled server
 * @param logonGroupsBySni   {@code wdisp/HTTPS/dest_logon_group} entries {@code host=group}: the SNI name of
 *                           the ClientHello picks the logon group (names in lower case)
 */
public record PassthroughConfig(int port, int stickyMask, Duration contextTimeout, int maxClientIpEntries,
                                String defaultLogonGroup, Map<String, String> logonGroupsBySni) {
    public static final String PORT = "wdisp/HTTPS/port";
    public static final String STICKY_MASK = "wdisp/HTTPS/sticky_mask";
    public static final String CONTEXT_TIMEOUT = "wdisp/HTTPS/context_timeout";
    public static final String MAX_CLIENT_IP_ENTRIES = "wdisp/HTTPS/max_client_ip_entries";
    public static final String DEST_LOGON_GROUP = "wdisp/HTTPS/dest_logon_group";

    /** SAP's default: 255.255.240.0, a /20. */
    public static final int DEFAULT_STICKY_MASK = 0xFFFFF000;
    public static final Duration DEFAULT_CONTEXT_TIMEOUT = Duration.ofSeconds(3600);
    public static final int DEFAULT_MAX_CLIENT_IP_ENTRIES = 50_000;

    private static final Pattern HOST = Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");

    public PassthroughConfig {
        logonGroupsBySni = Map.copyOf(logonGroupsBySni);
    }

    /** Whether the ClientHello must be read for its SNI name before a server is chosen. */
    public boolean routesBySni() {
        return !logonGroupsBySni.isEmpty();
    }

    /** The logon group for a ClientHello with this SNI name ({@code null}: none sent), or {@code null}: every server. */
    public String logonGroupFor(String serverName) {
        if (serverName != null) {
            String group = logonGroupsBySni.get(normalizeHost(serverName));
            if (group != null) {
                return group;
            }
        }
        return defaultLogonGroup;
    }

    /** Reads the {@code wdisp/HTTPS/*} keys; {@code null} when {@code wdisp/HTTPS/port} is not set. */
    static PassthroughConfig read(KeyReader keys, DispatcherConfig core) {
        int before = keys.problemCount();
        int port = keys.integer(PORT, 0, 0, 65535, "a port number (0 = any free port)");
        // SAP's way: an icm/server_port_<xx> line with PROT=ROUTER
        List<ServerPorts.ServerPort> routers = core.serverPorts().of(ServerPorts.Protocol.ROUTER);
        boolean declared = keys.raw(PORT) != null || !routers.isEmpty();
        if (!routers.isEmpty()) {
            if (keys.raw(PORT) != null && port != routers.get(0).port()) {
                keys.problem(PORT, "the port of " + routers.get(0) + " or no " + PORT + ": both name the end-to-end"
                        + " TLS listener");
            }
            port = routers.get(0).port();
        }
        if (declared && keys.problemCount() == before && !TlsConfig.discovers(keys)
                && core.servers().stream().noneMatch(s -> s.httpsUrl() != null)) {
            keys.problem(PORT, "HTTPS-enabled servers to forward to, but no server has a server.<id>.https_url");
        }
        int mask = keys.value(STICKY_MASK, DEFAULT_STICKY_MASK, "an IPv4 netmask such as 255.255.240.0",
                PassthroughConfig::ipv4);
        Duration timeout = keys.seconds(CONTEXT_TIMEOUT, DEFAULT_CONTEXT_TIMEOUT,
                "a positive number of seconds, or a number with a unit (500ms, 30s, 10m, 1h)");
        int maxEntries = keys.integer(MAX_CLIENT_IP_ENTRIES, DEFAULT_MAX_CLIENT_IP_ENTRIES, 1, Integer.MAX_VALUE,
                "a positive integer");
        String dest = keys.raw(DEST_LOGON_GROUP);
        Destinations destinations = dest == null || dest.isBlank() ? new Destinations(null, Map.of())
                : destinations(keys, dest, core);
        return !declared ? null : new PassthroughConfig(port, mask, timeout, maxEntries,
                destinations.defaultGroup(), destinations.bySni());
    }

    private record Destinations(String defaultGroup, Map<String, String> bySni) {
    }

    /** {@code wdisp/HTTPS/dest_logon_group}: a plain group for every connection, and {@code host=group} by SNI. */
    private static Destinations destinations(KeyReader keys, String dest, DispatcherConfig core) {
        String defaultGroup = null;
        Map<String, String> bySni = new LinkedHashMap<>();
        boolean ok = true;
        for (String raw : dest.split(",")) {
            String entry = raw.strip();
            int eq = entry.indexOf('=');
            String group = eq < 0 ? entry : entry.substring(eq + 1).strip();
            if (!httpsLogonGroup(core, group)) {
                ok = false;
            } else if (eq < 0) {
                ok &= defaultGroup == null;
                defaultGroup = group;
            } else {
                String host = normalizeHost(entry.substring(0, eq));
                ok &= HOST.matcher(host).matches() && bySni.putIfAbsent(host, group) == null;
            }
        }
        if (!ok) {
            keys.problem(DEST_LOGON_GROUP, "a logon group with HTTPS-enabled members, or entries host=group (the SNI"
                    + " name of the ClientHello picks the group) and at most one plain group for every other"
                    + " connection");
        }
        return new Destinations(defaultGroup, bySni);
    }

    private static boolean httpsLogonGroup(DispatcherConfig config, String group) {
        return config.logonGroups().stream().filter(lg -> lg.name().equals(group)).anyMatch(lg -> config.servers()
                .stream().anyMatch(s -> s.httpsUrl() != null && lg.includes(s)));
    }

    static String normalizeHost(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    /** {@code a.b.c.d} as an int, or {@code null}. */
    static Integer ipv4(String text) {
        String[] parts = text.strip().split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        int value = 0;
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)) {
                return null;
            }
            int octet = Integer.parseInt(part);
            if (octet > 255) {
                return null;
            }
            value = value << 8 | octet;
        }
        return value;
    }

    static String formatIpv4(int value) {
        return (value >>> 24) + "." + (value >>> 16 & 0xFF) + "." + (value >>> 8 & 0xFF) + "." + (value & 0xFF);
    }

    @Override
    public String toString() {
        return "end-to-end TLS on port " + port + " (sticky mask " + formatIpv4(stickyMask) + ", context timeout "
                + Durations.format(contextTimeout) + ", at most " + maxClientIpEntries + " client addresses"
                + (defaultLogonGroup == null ? "" : ", logon group " + defaultLogonGroup)
                + (logonGroupsBySni.isEmpty() ? "" : ", by SNI " + logonGroupsBySni) + ")";
    }
}
