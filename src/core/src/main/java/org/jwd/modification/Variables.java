package org.jwd.modification;

import java.util.Locale;

/**
 * SAP's variables ({@code %{NAME}}, "Using Variables in HTTP Request Modifications"), each compiled once, when the
 * action file is read, into the look-up it stands for; a name jwd does not know, or does not support, stops the
 * start with its line.
 *
 * <ul>
 *   <li>header fields: {@code HTTP_<NAME>} is the header {@code <NAME>} with '_' read as '-' ({@code HTTP_HOST},
 *       {@code HTTP_USER_AGENT}, {@code HTTP_ACCEPT_LANGUAGE}, ... as SAP lists them, and any other header the same
 *       way); {@code HEADER:<name>} any header by its name; {@code HTTP_HOST_SHORT} and {@code HTTP_HOST_DOMAIN}
 *       the host name's first label and the rest, without the port;</li>
 *   <li>the request URL: {@code REQUEST_METHOD}, {@code SERVER_PROTOCOL} ({@code http} or {@code https}), {@code PATH}
 *       (decoded, with its parameters, not normalized), {@code PATH_TRANSLATED} (decoded and normalized, as routing
 *       reads it), {@code QUERY_STRING};</li>
 *   <li>the connection: {@code SERVER_PORT}, {@code SERVER_ADDR}, {@code REMOTE_ADDR} and {@code REMOTE_HOST} (both
 *       the client's address: no name is looked up), {@code REMOTE_PORT}, {@code SERVER_ACCESS_POINTS}
 *       ({@code http:8080,https:8443}).</li>
 * </ul>
 * A variable without a value (a header the request lacks) reads as the empty text.
 */
final class Variables {
    /** A compiled variable: its value for one request. */
    @FunctionalInterface
    interface Value {
        String of(Context context);
    }

    private Variables() {
    }

    /**
     * The look-up of {@code name}.
     *
     * @throws IllegalArgumentException naming the variable and why it is refused
     */
    static Value compile(String name) {
        Value fixed = fixed(name);
        if (fixed != null) {
            return fixed;
        }
        if (name.startsWith("HEADER:") && name.length() > "HEADER:".length()) {
            return header(name.substring("HEADER:".length()));
        }
        if (name.regionMatches(true, 0, "FORMFIELD:", 0, "FORMFIELD:".length())) {
            throw new IllegalArgumentException("%{" + name + "} is not supported: a form field may stand in the"
                    + " request's body, which jwd streams to the server unread; read %{QUERY_STRING} instead");
        }
        if (name.startsWith("SSL_")) {
            throw new IllegalArgumentException("%{" + name + "} is not supported: jwd's rules do not read the"
                    + " client's certificate");
        }
        if (name.startsWith("HTTP_") && name.length() > "HTTP_".length() && name.equals(name.toUpperCase(Locale.ROOT))) {
            return header(name.substring("HTTP_".length()).replace('_', '-'));
        }
        throw new IllegalArgumentException("unknown variable %{" + name + "}: expected one of SAP's variables"
                + " (REQUEST_METHOD, SERVER_PROTOCOL, PATH, PATH_TRANSLATED, QUERY_STRING, SERVER_PORT, SERVER_ADDR,"
                + " REMOTE_ADDR, REMOTE_HOST, REMOTE_PORT, SERVER_ACCESS_POINTS, HTTP_<HEADER>, HTTP_HOST_SHORT,"
                + " HTTP_HOST_DOMAIN, HEADER:<name>), written in capitals");
    }

    private static Value fixed(String name) {
        return switch (name) {
            case "REQUEST_METHOD" -> c -> c.request().method();
            case "SERVER_PROTOCOL" -> c -> c.request().secure() ? "https" : "http";
            case "PATH" -> Context::decodedPath;
            case "PATH_TRANSLATED" -> c -> c.normalized() == null ? c.decodedPath() : c.normalized().path();
            case "QUERY_STRING" -> c -> c.query() == null ? "" : c.query();
            case "SERVER_PORT" -> c -> String.valueOf(c.request().localPort());
            case "SERVER_ADDR" -> c -> c.request().localAddress();
            case "REMOTE_ADDR", "REMOTE_HOST" -> c -> c.request().remoteAddress();
            case "REMOTE_PORT" -> c -> String.valueOf(c.request().remotePort());
            case "SERVER_ACCESS_POINTS" -> c -> c.request().accessPoints().get();
            case "HTTP_HOST_SHORT" -> c -> hostPart(c, true);
            case "HTTP_HOST_DOMAIN" -> c -> hostPart(c, false);
            default -> null;
        };
    }

    private static Value header(String headerName) {
        String lowerCase = headerName.toLowerCase(Locale.ROOT);
        return c -> c.header(headerName, lowerCase);
    }

    /** The {@code Host} header's name without its port: its first label, or what follows that label. */
    private static String hostPart(Context c, boolean shortName) {
        String host = c.header("Host", "host");
        if (host == null) {
            return "";
        }
        int colon = host.lastIndexOf(':');
        if (colon >= 0 && !host.endsWith("]")) {
            host = host.substring(0, colon);
        }
        int dot = host.startsWith("[") ? -1 : host.indexOf('.');
        if (dot < 0) {
            return shortName ? host : "";
        }
        return shortName ? host.substring(0, dot) : host.substring(dot + 1);
    }
}
