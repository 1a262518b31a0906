package org.jwd.routing;

import java.util.List;

/**
 * What routing reads of a client request: nothing else of it can change where it goes. Its path is normalized once,
 * here: system selection and routing read the same {@link #path()}.
 *
 * @param rawPath       the request-URI path as received, still percent-encoded, with any {@code ;parameters}
 * @param query         the raw query string, or {@code null}
 * @param cookieHeaders the values of every {@code Cookie} header
 * @param secure        whether the request arrived over TLS
 * @param path          {@code rawPath} decoded and normalized; {@code null} when it cannot be ({@link #badPath()})
 * @param badPath       why {@code rawPath} is refused (answered 400); {@code null} when {@link #path()} is set
 */
public record RoutingRequest(String method, String rawPath, String query, List<String> cookieHeaders,
                             boolean secure, NormalizedPath path, BadPathException badPath) {

    /** The request, its path normalized. */
    public static RoutingRequest of(String method, String rawPath, String query, List<String> cookieHeaders,
                                    boolean secure) {
        try {
            return new RoutingRequest(method, rawPath, query, cookieHeaders, secure,
                    PathNormalizer.normalize(rawPath), null);
        } catch (BadPathException e) {
            return new RoutingRequest(method, rawPath, query, cookieHeaders, secure, null, e);
        }
    }
}
