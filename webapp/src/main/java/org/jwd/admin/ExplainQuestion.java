package org.jwd.admin;

import java.util.Locale;

/**
 * What {@code GET api/explain?url=...} asks: a path, or a full URL, which says how the client came too (over TLS
 * or not, to which host and port), as system selection and {@code wdisp/ssl_encrypt=2} read it.
 *
 * @param host the full URL's {@code host[:port]}, {@code null} for a path alone
 * @param port the full URL's port (80 or 443 without one), or for a path alone the port the question came to;
 *             {@code -1} when the URL's port is no number
 */
record ExplainQuestion(String rawPath, String query, String host, int port, boolean secure) {

    /** @return the question, or {@code null} when {@code url} is neither a path nor an http(s) URL */
    static ExplainQuestion parse(String url, int localPort) {
        String pathAndQuery = url;
        boolean secure = false;
        String host = null;
        int port = localPort;
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("https://") || lower.startsWith("http://")) {
            secure = lower.startsWith("https://");
            int path = url.indexOf('/', url.indexOf("//") + 2);
            pathAndQuery = path < 0 ? "/" : url.substring(path);
            host = url.substring(url.indexOf("//") + 2, path < 0 ? url.length() : path);
            port = portOf(host, secure);
        }
        String rawPath = pathAndQuery;
        String query = null;
        int q = pathAndQuery.indexOf('?');
        if (q >= 0) {
            rawPath = pathAndQuery.substring(0, q);
            query = pathAndQuery.substring(q + 1);
        }
        return rawPath.startsWith("/") ? new ExplainQuestion(rawPath, query, host, port, secure) : null;
    }

    /** The port of a URL's {@code host[:port]}: 443 or 80 without one; {@code -1} when it is no number. */
    private static int portOf(String authority, boolean secure) {
        int colon = authority.lastIndexOf(':');
        if (colon < 0 || authority.endsWith("]")) {
            return secure ? 443 : 80;
        }
        try {
            return Integer.parseInt(authority.substring(colon + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
