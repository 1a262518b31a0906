package org.jwd.admin;

import java.net.URI;
import java.util.Locale;

/**
 * Refuses an action that another site could have made the administrator's browser send. Two proofs are needed:
 * <ol>
 * <li>the header {@value #HEADER}{@code : 1}, which a cross-site form cannot set and a cross-site script can only
 *     set after a CORS preflight that jwd never approves;</li>
 * <li>an {@code Origin} (or, when a browser sends none, a {@code Referer}) naming the same host and port as the
 *     request's {@code Host}: a page of this very admin interface.</li>
 * </ol>
 * The page's script sends the header; browsers add {@code Origin} to every POST themselves.
 */
public final class CrossSiteCheck {
    public static final String HEADER = "X-Jwd-Admin";

    private CrossSiteCheck() {
    }

    /**
     * @param scheme  the request's scheme ({@code http} or {@code https}), for the default port of {@code host}
     * @param host    the {@code Host} header
     * @param origin  the {@code Origin} header, or {@code null}
     * @param referer the {@code Referer} header, or {@code null}
     * @param custom  the {@value #HEADER} header, or {@code null}
     * @return {@code null} when the request may act; otherwise why not, for the 403 answer
     */
    public static String refusal(String scheme, String host, String origin, String referer, String custom) {
        if (!"1".equals(custom)) {
            return "an action needs the header " + HEADER + ": 1 (sent by the admin page)";
        }
        String expected = authority(scheme, host);
        if (expected == null) {
            return "the request has no valid Host header";
        }
        String source = origin != null ? origin : referer;
        String what = origin != null ? "Origin" : "Referer";
        if (source == null) {
            return "an action needs an Origin or Referer header naming this host";
        }
        String actual;
        try {
            URI uri = new URI(source.strip());
            actual = uri.getScheme() == null || uri.getRawAuthority() == null ? null
                    : authority(uri.getScheme(), uri.getRawAuthority());
        } catch (Exception e) {
            actual = null;
        }
        if (actual == null || !actual.equals(expected)) {
            return what + " " + source + " is not this host (" + host + "): cross-site requests may not act";
        }
        return null;
    }

    /** {@code scheme://host:port} in lower case, with the default port filled in; {@code null} if malformed. */
    static String authority(String scheme, String hostAndPort) {
        if (hostAndPort == null || scheme == null || hostAndPort.isEmpty() || hostAndPort.indexOf('@') >= 0) {
            return null;
        }
        String s = scheme.toLowerCase(Locale.ROOT);
        int defaultPort = switch (s) {
            case "http" -> 80;
            case "https" -> 443;
            default -> -1;
        };
        if (defaultPort < 0) {
            return null;
        }
        String h = hostAndPort.strip().toLowerCase(Locale.ROOT);
        int colon = h.lastIndexOf(':');
        int bracket = h.lastIndexOf(']');
        String name = h;
        int port = defaultPort;
        if (colon > bracket) {
            name = h.substring(0, colon);
            try {
                port = Integer.parseInt(h.substring(colon + 1));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return name.isEmpty() ? null : s + "://" + name + ":" + port;
    }
}
