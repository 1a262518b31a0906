package org.jwd.proxy;

import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.jwd.config.TrustedProxies;

/** The headers jwd sets on the way to a server, and drops on the way back. */
final class ProxyHeaders {
    /**
     * Removed from what the client sent, then set by jwd: a server would believe a client's values. Only a
     * trusted proxy's X-Forwarded-For/-Proto/-Host/-Port survive, through {@link ForwardedHeaders}.
     */
    private static final List<HttpHeader> FORWARDING_HEADERS = List.of(HttpHeader.X_FORWARDED_FOR,
            HttpHeader.X_FORWARDED_PROTO, HttpHeader.X_FORWARDED_HOST, HttpHeader.X_FORWARDED_SERVER,
            HttpHeader.X_FORWARDED_PORT, HttpHeader.FORWARDED);

    private ProxyHeaders() {
    }

    /** Sets the {@code X-Forwarded-*} headers of {@code proxyRequest} (see {@link ForwardedHeaders}). */
    static void addForwarded(HttpServletRequest clientRequest, Request proxyRequest, TrustedProxies trustedProxies) {
        String host = clientRequest.getHeader("Host");
        if (host == null && "HTTP/2.0".equals(clientRequest.getProtocol())) {
            // HTTP/2 carries the host in its :authority pseudo-header, which is no Host header.
            host = clientRequest.getServerName() + ":" + clientRequest.getServerPort();
        }
        String peer = clientRequest.getRemoteAddr();
        boolean trusted = trustedProxies.trusts(peer);
        ForwardedHeaders forwarded = ForwardedHeaders.of(trusted, peer,
                trusted ? Collections.list(clientRequest.getHeaders("X-Forwarded-For")) : List.of(),
                trusted ? clientRequest.getHeader("X-Forwarded-Proto") : null,
                trusted ? clientRequest.getHeader("X-Forwarded-Host") : null,
                trusted ? clientRequest.getHeader("X-Forwarded-Port") : null,
                clientRequest.getScheme(), host);
        proxyRequest.headers(headers -> {
            FORWARDING_HEADERS.forEach(headers::remove);
            headers.put(HttpHeader.X_FORWARDED_FOR, forwarded.forwardedFor());
            headers.put(HttpHeader.X_FORWARDED_PROTO, forwarded.proto());
            if (forwarded.host() != null) {
                headers.put(HttpHeader.X_FORWARDED_HOST, forwarded.host());
            }
            if (forwarded.port() != null) {
                headers.put(HttpHeader.X_FORWARDED_PORT, forwarded.port());
            }
        });
    }

    /**
     * The headers the server's {@code Connection} header names, in lower case: headers of this hop only. Read once
     * per answer; the usual values ({@code keep-alive}, {@code close}) name none and are not parsed.
     */
    static Set<String> namedByConnection(HttpFields serverHeaders) {
        Set<String> named = Set.of();
        for (int i = 0; i < serverHeaders.size(); i++) {
            HttpField connection = serverHeaders.getField(i);
            if (connection.getHeader() != HttpHeader.CONNECTION || namesNoHeader(connection.getValue())) {
                continue;
            }
            for (String token : connection.getValueList()) {
                if (named.isEmpty()) {
                    named = new HashSet<>();
                }
                named.add(token.toLowerCase(Locale.ROOT));
            }
        }
        return named;
    }

    private static boolean namesNoHeader(String connectionValue) {
        return connectionValue == null || "keep-alive".equalsIgnoreCase(connectionValue)
                || "close".equalsIgnoreCase(connectionValue);
    }
}
