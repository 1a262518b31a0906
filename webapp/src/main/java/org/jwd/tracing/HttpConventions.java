package org.jwd.tracing;

import java.net.URI;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.semconv.ClientAttributes;
import io.opentelemetry.semconv.HttpAttributes;
import io.opentelemetry.semconv.NetworkAttributes;
import io.opentelemetry.semconv.ServerAttributes;
import io.opentelemetry.semconv.UrlAttributes;
import io.opentelemetry.semconv.UserAgentAttributes;

import org.eclipse.jetty.client.Request;
import org.jwd.accesslog.LogFormat;

/**
 * OpenTelemetry's semantic conventions for HTTP spans (stable since 1.23), as far as a proxy knows them. The method,
 * scheme, path and server are given at a span's start, where a sampler sees them; the rest only to a span that is
 * recorded, so that the nine in ten requests a sampler drops cost no more than their trace context. A URL's session
 * identifiers and passwords are redacted as in the access log ({@link LogFormat#redacted}).
 */
final class HttpConventions {
    /** The methods the conventions know; any other is {@code _OTHER}, its name in {@code http.request.method_original}. */
    private static final Set<String> KNOWN_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT",
            "OPTIONS", "TRACE", "PATCH");
    private static final String OTHER = "_OTHER";

    private HttpConventions() {
    }

    /** A span's name: its method, as no route is known ({@code HTTP} for a method the conventions do not know). */
    static String spanName(String method) {
        return KNOWN_METHODS.contains(method) ? method : "HTTP";
    }

    /** What a sampler may read of the client's request, on the server span's builder. */
    static void serverRequest(SpanBuilder span, HttpServletRequest clientRequest) {
        method(span, clientRequest.getMethod());
        span.setAttribute(UrlAttributes.URL_SCHEME, clientRequest.getScheme());
        span.setAttribute(UrlAttributes.URL_PATH, LogFormat.redacted(clientRequest.getRequestURI()));
        span.setAttribute(ServerAttributes.SERVER_ADDRESS, clientRequest.getServerName());
        span.setAttribute(ServerAttributes.SERVER_PORT, clientRequest.getServerPort());
    }

    /** The rest of the client's request, on a server span that is recorded. */
    static void serverRequestDetails(Span span, HttpServletRequest clientRequest) {
        String query = clientRequest.getQueryString();
        if (query != null) {
            span.setAttribute(UrlAttributes.URL_QUERY, LogFormat.redacted("?" + query).substring(1));
        }
        span.setAttribute(ClientAttributes.CLIENT_ADDRESS, clientRequest.getRemoteAddr());
        span.setAttribute(NetworkAttributes.NETWORK_PEER_ADDRESS, clientRequest.getRemoteAddr());
        span.setAttribute(NetworkAttributes.NETWORK_PEER_PORT, (long) clientRequest.getRemotePort());
        String version = protocolVersion(clientRequest.getProtocol());
        if (version != null) {
            span.setAttribute(NetworkAttributes.NETWORK_PROTOCOL_VERSION, version);
        }
        String userAgent = clientRequest.getHeader("User-Agent");
        if (userAgent != null) {
            span.setAttribute(UserAgentAttributes.USER_AGENT_ORIGINAL, userAgent);
        }
    }

    /** What a sampler may read of the request to the server, on a client span's builder. */
    static void clientRequest(SpanBuilder span, Request proxyRequest) {
        method(span, proxyRequest.getMethod());
        span.setAttribute(ServerAttributes.SERVER_ADDRESS, proxyRequest.getHost());
        span.setAttribute(ServerAttributes.SERVER_PORT, proxyRequest.getPort() > 0 ? proxyRequest.getPort()
                : "https".equalsIgnoreCase(proxyRequest.getScheme()) ? 443 : 80);
    }

    /** The request to the server's URL, on a client span that is recorded. */
    static void clientRequestDetails(Span span, Request proxyRequest) {
        URI target = proxyRequest.getURI();
        span.setAttribute(UrlAttributes.URL_FULL, LogFormat.redacted(target.toString()));
    }

    private static void method(SpanBuilder span, String method) {
        if (KNOWN_METHODS.contains(method)) {
            span.setAttribute(HttpAttributes.HTTP_REQUEST_METHOD, method);
        } else {
            span.setAttribute(HttpAttributes.HTTP_REQUEST_METHOD, OTHER);
            span.setAttribute(HttpAttributes.HTTP_REQUEST_METHOD_ORIGINAL, method);
        }
    }

    /** {@code 1.1} of {@code HTTP/1.1}, {@code 2} of {@code HTTP/2.0}; {@code null} for anything else. */
    static String protocolVersion(String protocol) {
        if (protocol == null || !protocol.startsWith("HTTP/")) {
            return null;
        }
        String version = protocol.substring("HTTP/".length());
        return version.endsWith(".0") && !version.equals("1.0") ? version.substring(0, version.length() - 2) : version;
    }
}
