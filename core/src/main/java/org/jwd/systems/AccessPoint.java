package org.jwd.systems;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * One item of {@code SRCSRV}: the access point of jwd a request arrived on, {@code <host>:<port>}.
 *
 * <p>The host is {@code *} (any local address) or an IP address of this machine, compared with the address
 * the connection was accepted on. A host name is refused rather than resolved: resolving it would make the
 * configuration depend on DNS at start, and a name that resolves differently later would silently stop
 * matching. To tell systems apart by name, {@code SRCVHOST} reads the {@code Host} header.
 *
 * @param host {@link #ANY_HOST}, or an IP address in Java's normal text form ({@code 10.0.0.1}, {@code 0:0:0:0:0:0:0:1})
 * @param port 1 to 65535
 */
public record AccessPoint(String host, int port) {
    public static final String ANY_HOST = "*";
    static final String EXPECTED = "<host>:<port>, the host * or an IP address of this machine"
            + " (names are not resolved: use SRCVHOST for the Host header), the port 1 to 65535";
    private static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    /**
     * Reads {@code *:8080}, {@code 10.0.0.1:8443} or {@code [::1]:8080}.
     *
     * @return {@code null} when the text is not of that form
     */
    static AccessPoint parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            return null;
        }
        String host = text.substring(0, colon).strip();
        int port = VirtualHost.port(text.substring(colon + 1).strip());
        if (port < 0) {
            return null;
        }
        if (host.equals(ANY_HOST)) {
            return new AccessPoint(ANY_HOST, port);
        }
        String address = normalAddress(host);
        return address == null ? null : new AccessPoint(address, port);
    }

    /**
     * An IP address literal in Java's normal text form, or {@code null} when {@code text} is none. Never asks
     * DNS: only texts that can be nothing but an address literal reach {@link InetAddress#getByName}.
     */
    static String normalAddress(String text) {
        String s = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        if (IPV4.matcher(s).matches()) {
            return s;
        }
        if (!IPV6.matcher(s).matches()) {
            return null;
        }
        try {
            // a text with ':' is parsed as an IPv6 literal or refused, never looked up
            return InetAddress.getByName(s).getHostAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Whether a connection accepted on {@code localAddress} (normal form) and {@code localPort} arrived here. */
    boolean matches(String localAddress, int localPort) {
        return port == localPort && (host.equals(ANY_HOST) || host.equals(localAddress));
    }

    /** Whether some connection arrives at both. */
    boolean overlaps(AccessPoint other) {
        return port == other.port && (host.equals(ANY_HOST) || other.host.equals(ANY_HOST) || host.equals(other.host));
    }

    /** The narrower of two overlapping access points: what a connection meeting both arrived on. */
    AccessPoint narrower(AccessPoint other) {
        return host.equals(ANY_HOST) ? other : this;
    }

    /** The form {@link #parse} reads. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
