package org.jwd.systems;

import java.util.Objects;

import org.jwd.routing.NormalizedPath;

/**
 * What selects a request's system.
 *
 * @param localAddress the IP address the connection was accepted on ({@code ServletRequest.getLocalAddr()})
 * @param localPort    the port it was accepted on ({@code getLocalPort()})
 * @param host         the {@code Host} header (with HTTP/2, the {@code :authority}), as the client sent it, or as a
 *                     trusted proxy forwarded it; {@code null} when there is none
 * @param secure       whether the request came over TLS: a {@code Host} without a port then means 443, else 80
 * @param path         the normalized path, as the URL mapping table reads it
 */
public record SelectionRequest(String localAddress, int localPort, String host, boolean secure, NormalizedPath path) {
    public SelectionRequest {
        Objects.requireNonNull(localAddress, "localAddress");
        Objects.requireNonNull(path, "path");
    }

    @Override
    public String toString() {
        return "host " + Selection.quote(host) + ", port " + localPort + " (" + localAddress + "), path " + path.path();
    }
}
