package org.jwd.routing;

import java.util.List;

/**
 * What routing reads of a client request: nothing else of it can change where it goes.
 *
 * @param rawPath       the request-URI path as received, still percent-encoded, with any {@code ;parameters}
 * @param query         the raw query string, or {@code null}
 * @param cookieHeaders the values of every {@code Cookie} header
 * @param secure        whether the request arrived over TLS
 */
public record RoutingRequest(String method, String rawPath, String query, List<String> cookieHeaders,
                             boolean secure) {
}
