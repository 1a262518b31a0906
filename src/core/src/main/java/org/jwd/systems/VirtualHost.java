package org.jwd.systems;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One item of {@code SRCVHOST}: a host name the client addressed, as the {@code Host} header carries it, with or
 * without a port ({@code erp.example.com}, {@code erp.example.com:443}). Names compare regardless of case, as DNS
 * names do, and without a trailing dot. Without a port the item matches the name on any port; with one, only that
 * port, where a {@code Host} header without a port means the scheme's (80, or 443 over TLS).
 *
 * @param name lower case, without a trailing dot; an IPv6 address without brackets
 * @param port 1 to 65535, or {@link #ANY_PORT}
 */
public record VirtualHost(String name, int port) {
    public static final int ANY_PORT = -1;
    static final String EXPECTED = "a host name or IP address, optionally with :<port> (1 to 65535)";
    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");

    /** Reads {@code erp.example.com}, {@code erp.example.com:8443} or {@code [::1]:8443}; {@code null} if it is none. */
    static VirtualHost parse(String text) {
        return parse(text, ANY_PORT);
    }

    /**
     * Reads a {@code Host} header's value the same way, a missing port being {@code defaultPort}.
     *
     * @return {@code null} when the value is not a host with an optional port
     */
    static VirtualHost parse(String text, int defaultPort) {
        String s = text.strip();
        String host;
        String port = null;
        if (s.startsWith("[")) {
            int end = s.indexOf(']');
            if (end < 0) {
                return null;
            }
            host = s.substring(0, end + 1);
            if (end + 1 < s.length()) {
                if (s.charAt(end + 1) != ':') {
                    return null;
                }
                port = s.substring(end + 2);
            }
        } else {
            int colon = s.indexOf(':');
            host = colon < 0 ? s : s.substring(0, colon);
            port = colon < 0 ? null : s.substring(colon + 1);
        }
        int portNumber = port == null ? defaultPort : port(port);
        if (port != null && portNumber < 0) {
            return null;
        }
        String name = name(host);
        return name == null ? null : new VirtualHost(name, portNumber);
    }

    private static String name(String host) {
        if (host.startsWith("[")) {
            return host.endsWith("]") ? AccessPoint.normalAddress(host) : null;
        }
        String lower = host.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".")) {
            lower = lower.substring(0, lower.length() - 1);
        }
        return NAME.matcher(lower).matches() ? lower : null;
    }

    /** A port number 1 to 65535, or -1. */
    static int port(String text) {
        if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        int port = Integer.parseInt(text);
        return port >= 1 && port <= 65535 ? port : -1;
    }

    /** Whether a request whose {@code Host} header was read into {@code requested} (with its port) addressed this. */
    boolean matches(VirtualHost requested) {
        return name.equals(requested.name) && (port == ANY_PORT || port == requested.port);
    }

    /** Whether some {@code Host} header meets both. */
    boolean overlaps(VirtualHost other) {
        return name.equals(other.name) && (port == ANY_PORT || other.port == ANY_PORT || port == other.port);
    }

    /** The narrower of two overlapping virtual hosts. */
    VirtualHost narrower(VirtualHost other) {
        return port == ANY_PORT ? other : this;
    }

    /** The form {@link #parse(String)} reads. */
    @Override
    public String toString() {
        String host = name.indexOf(':') >= 0 ? "[" + name + "]" : name;
        return port == ANY_PORT ? host : host + ":" + port;
    }
}
