package org.jwd.systems;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One item of {@code SRCSRV}: the access point of jwd a request arrived on, {@code <host>:<port>}, in SAP's syntax
 * ({@code SRCSRV=<src-host>:<source-ports>}, help.sap.com {@code wdisp/system_<xx>}; SAP's guides write
 * {@code SRCSRV=*:*} for every access point).
 *
 * <p>The host is {@code *} (any local address), an IP address, or a host name, compared with the address the
 * connection was accepted on: a name stands for the addresses it resolves to when the configuration is read (at the
 * start and at each reload, so that a name that moves is followed by the next reload), and one that resolves to none
 * is refused. The port is a number or {@code *} (any port jwd listens on).
 *
 * @param host      {@link #ANY_HOST}, an IP address in Java's normal text form ({@code 10.0.0.1},
 *                  {@code 0:0:0:0:0:0:0:1}), or a host name as written
 * @param port      1 to 65535, or {@link #ANY_PORT}
 * @param addresses the addresses the host stands for, normal form; empty for {@link #ANY_HOST}
 */
public record AccessPoint(String host, int port, List<String> addresses) {
    public static final String ANY_HOST = "*";
    /** {@code *} as the port: any port. */
    public static final int ANY_PORT = 0;
    static final String EXPECTED = "<host>:<port>, the host * (any address of this machine), an IP address or a"
            + " host name, the port 1 to 65535 or * (any)";
    private static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");
    /** A DNS name (RFC 1123 labels), which is never all digits and dots (that would be a bad IPv4 address). */
    private static final Pattern HOST_NAME = Pattern.compile(
            "(?=.*[A-Za-z])[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.?");

    public AccessPoint {
        addresses = List.copyOf(addresses);
    }

    /** An access point of {@code *} or an IP address literal (no name: nothing is resolved). */
    public AccessPoint(String host, int port) {
        this(host, port, host.equals(ANY_HOST) ? List.of() : List.of(host));
    }

    /**
     * Reads {@code *:8080}, {@code *:*}, {@code 10.0.0.1:8443}, {@code [::1]:8080} or {@code sapwd.example.com:8080}.
     *
     * @return {@code null} when the text is not of that form
     * @throws IllegalArgumentException naming the host, when a host name resolves to no address
     */
    static AccessPoint parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            return null;
        }
        String host = text.substring(0, colon).strip();
        String portText = text.substring(colon + 1).strip();
        int port = portText.equals("*") ? ANY_PORT : VirtualHost.port(portText);
        if (port < 0) {
            return null;
        }
        if (host.equals(ANY_HOST)) {
            return new AccessPoint(ANY_HOST, port);
        }
        String address = normalAddress(host);
        if (address != null) {
            return new AccessPoint(address, port);
        }
        return HOST_NAME.matcher(host).matches() ? new AccessPoint(host, port, resolve(host)) : null;
    }

    /** The addresses of a host name, in normal form; refused when there is none. */
    private static List<String> resolve(String name) {
        try {
            return Arrays.stream(InetAddress.getAllByName(name)).map(InetAddress::getHostAddress).distinct().toList();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("the host '" + name + "' does not resolve to an address (names are"
                    + " resolved when the configuration is read; expected a name of this machine, an IP address or *)");
        }
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
        return (port == ANY_PORT || port == localPort) && (host.equals(ANY_HOST) || addresses.contains(localAddress));
    }

    /** Whether some connection arrives at both. */
    boolean overlaps(AccessPoint other) {
        boolean ports = port == ANY_PORT || other.port == ANY_PORT || port == other.port;
        return ports && (host.equals(ANY_HOST) || other.host.equals(ANY_HOST)
                || addresses.stream().anyMatch(other.addresses::contains));
    }

    /** The narrower of two overlapping access points, host and port each: what a connection meeting both arrived on. */
    AccessPoint narrower(AccessPoint other) {
        AccessPoint hostSide = host.equals(ANY_HOST) ? other : this;
        return new AccessPoint(hostSide.host, port == ANY_PORT ? other.port : port, hostSide.addresses);
    }

    /** The form {@link #parse} reads. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + (port == ANY_PORT ? "*" : port);
    }
}
