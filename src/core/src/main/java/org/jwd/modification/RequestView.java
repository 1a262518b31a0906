package org.jwd.modification;

import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import org.jwd.routing.NormalizedPath;

/**
 * What the modification handler reads of a client's request: plain values and two look-ups, so that the action
 * files are applied, and tested, without a servlet container.
 *
 * @param method        {@code GET}, {@code POST}, ...
 * @param rawPath       the request-URI's path as received, still percent-encoded, with any {@code ;parameters}
 * @param query         the raw query string, or {@code null}
 * @param path          {@code rawPath} normalized ({@link org.jwd.routing.PathNormalizer}): what the prefixes of
 *                      {@code icm/HTTP/mod_<xx>} and {@code %{PATH_TRANSLATED}} read; a request whose path does not
 *                      normalize is not modified (routing answers it 400)
 * @param secure        whether the request came over TLS
 * @param remoteAddress the client's IP address (the peer's)
 * @param localAddress  the address the connection was accepted on
 * @param header        a request header's first value by name (any case), or {@code null}: as the client sent it,
 *                      less what jwd does not take from an untrusted client
 * @param accessPoints  {@code %{SERVER_ACCESS_POINTS}}, asked for only when a rule reads it
 */
public record RequestView(String method, String rawPath, String query, NormalizedPath path, boolean secure,
                          String remoteAddress, int remotePort, String localAddress, int localPort,
                          UnaryOperator<String> header, Supplier<String> accessPoints) {
    @Override
    public String toString() {
        return method + " " + rawPath + (query == null ? "" : "?" + query);
    }
}
