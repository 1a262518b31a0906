package org.jwd.tls;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;

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
    static PassthroughConfig from(DispatcherConfig config, Problems problems) {
        int port = 0;
        String portText = problems.value(PORT);
        if (portText != null) {
            Integer p = integer(portText, 0, 65535);
            if (p == null) {
                problems.add(PORT, "a port number (0 = any free port)");
            } else {
                port = p;
                if (config.servers().stream().noneMatch(s -> s.httpsUrl() != null)) {
                    problems.add(PORT, "HTTPS-enabled servers to forward to, but no server has a "
                            + "server.<id>.https_url");
                }
            }
        }
        int mask = DEFAULT_STICKY_MASK;
        if (problems.value(STICKY_MASK) != null) {
            Integer m = ipv4(problems.value(STICKY_MASK));
            if (m == null) {
                problems.add(STICKY_MASK, "an IPv4 netmask such as 255.255.240.0");
            } else {
                mask = m;
            }
        }
        Duration timeout = DEFAULT_CONTEXT_TIMEOUT;
        if (problems.value(CONTEXT_TIMEOUT) != null) {
            Duration t = seconds(problems.value(CONTEXT_TIMEOUT));
            if (t == null) {
                problems.add(CONTEXT_TIMEOUT, "a positive number of seconds, or a number with a unit (500ms, 30s, 10m, 1h)");
            } else {
                timeout = t;
            }
        }
        int maxEntries = DEFAULT_MAX_CLIENT_IP_ENTRIES;
        if (problems.value(MAX_CLIENT_IP_ENTRIES) != null) {
            Integer n = integer(problems.value(MAX_CLIENT_IP_ENTRIES), 1, Integer.MAX_VALUE);
            if (n == null) {
                problems.add(MAX_CLIENT_IP_ENTRIES, "a positive integer");
            } else {
                maxEntries = n;
            }
        }
        String defaultGroup = null;
        Map<String, String> bySni = new LinkedHashMap<>();
        String dest = problems.value(DEST_LOGON_GROUP);
        if (dest != null && !dest.isBlank()) {
            String expected = "a logon group with HTTPS-enabled members, or entries host=group (the SNI name of the"
                    + " ClientHello picks the group) and at most one plain group for every other connection";
            boolean ok = true;
            for (String raw : dest.split(",")) {
                String entry = raw.strip();
                int eq = entry.indexOf('=');
                String group = eq < 0 ? entry : entry.substring(eq + 1).strip();
                if (!httpsLogonGroup(config, group)) {
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
                problems.add(DEST_LOGON_GROUP, expected);
            }
        }
        return portText == null ? null : new PassthroughConfig(port, mask, timeout, maxEntries, defaultGroup, bySni);
    }

    private static boolean httpsLogonGroup(DispatcherConfig config, String group) {
        return config.logonGroups().stream().filter(lg -> lg.name().equals(group)).anyMatch(lg -> config.servers()
                .stream().anyMatch(s -> s.httpsUrl() != null && lg.includes(s)));
    }

    static String normalizeHost(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    private static Integer integer(String text, int min, int max) {
        try {
            long v = Long.parseLong(text.strip());
            return v < min || v > max ? null : (int) v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** SAP gives this timeout in seconds: a plain number is seconds; a unit may be given. */
    private static Duration seconds(String text) {
        String s = text.strip();
        try {
            Duration d = !s.isEmpty() && s.chars().allMatch(Character::isDigit) && s.length() < 12
                    ? Duration.ofSeconds(Long.parseLong(s)) : Durations.parse(s);
            return d.isZero() || d.isNegative() ? null : d;
        } catch (IllegalArgumentException e) {
            return null;
        }
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
