package org.jwd.proxy;

import java.security.cert.X509Certificate;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.jwd.config.HeaderForwarding;
import org.jwd.tls.ClientCertConfig;

/** The headers jwd sets on the way to a server, and drops on the way back. */
final class ProxyHeaders {
    private static final String CERTIFICATES = "jakarta.servlet.request.X509Certificate";
    private static final String CIPHER_SUITE = "jakarta.servlet.request.cipher_suite";
    private static final String KEY_SIZE = "jakarta.servlet.request.key_size";

    private ProxyHeaders() {
    }

    /** Sets the headers jwd owns on {@code proxyRequest}, after Jetty copied the client's (see {@link OwnedHeaders}). */
    static void rewrite(HttpServletRequest clientRequest, Request proxyRequest, HeaderForwarding rules,
                        ClientCertConfig certs) {
        String peer = clientRequest.getRemoteAddr();
        String scheme = clientRequest.isSecure() ? "https" : "http";
        String accessPoints = rules.addAccessPoints() && rules.forceAccessPoints() == null
                ? HeaderForwarding.accessPoints(scheme, clientRequest.getLocalPort()) : null;
        OwnedHeaders.Client client = new OwnedHeaders.Client(peer, rules.trustedProxies().trusts(peer), scheme,
                host(clientRequest), accessPoints,
                certs.forwardAsHeader() && clientRequest.isSecure() ? tls(clientRequest) : null);
        proxyRequest.headers(headers -> OwnedHeaders.rewrite(headers, client, rules, certs));
    }

    /**
     * The host the client asked for: its {@code Host} header, or for HTTP/2, which carries it in the
     * {@code :authority} pseudo-header (no {@code Host} header), the server name and port Jetty read from it.
     */
    static String host(HttpServletRequest clientRequest) {
        String host = clientRequest.getHeader("Host");
        if (host != null || !"HTTP/2.0".equals(clientRequest.getProtocol())) {
            return host;
        }
        String name = clientRequest.getServerName();
        if (name.indexOf(':') >= 0 && !name.startsWith("[")) {
            name = "[" + name + "]";
        }
        int port = clientRequest.getServerPort();
        boolean defaultPort = port == (clientRequest.isSecure() ? 443 : 80);
        return port <= 0 || defaultPort ? name : name + ":" + port;
    }


    /** The client's TLS connection to jwd, as the container reports it. */
    private static OwnedHeaders.Tls tls(HttpServletRequest clientRequest) {
        Object chain = clientRequest.getAttribute(CERTIFICATES);
        Object cipher = clientRequest.getAttribute(CIPHER_SUITE);
        Object keySize = clientRequest.getAttribute(KEY_SIZE);
        return new OwnedHeaders.Tls(chain instanceof X509Certificate[] certificates ? List.of(certificates)
                : List.of(), cipher instanceof String s ? s : null, keySize instanceof Integer i ? i : null);
    }

    /**
     * Copies the server's headers to the client's answer, each value as the server wrote it: Jetty's own copy splits
     * a value at its commas and joins the parts again, which drops their quotes and spaces (a download's
     * {@code attachment; filename="report, 2026.pdf"} reached the browser as {@code attachment;filename=report,
     * 2026.pdf}). A name's first field replaces what the container set (Date, Server), the others add to it, as in
     * Jetty's. Hop-by-hop headers stay behind: {@code hopHeaders} (Jetty's fixed list) and those the server's
     * {@code Connection} header names; {@code filter} (the servlet's hook) may drop or change each of the others.
     */
    static void toClient(HttpFields serverHeaders, HttpServletResponse proxyResponse, Set<String> hopHeaders,
                         UnaryOperator<HttpField> filter) {
        Set<String> hopOnly = namedByConnection(serverHeaders);
        Set<String> copied = new HashSet<>();
        for (int i = 0; i < serverHeaders.size(); i++) {
            HttpField field = serverHeaders.getField(i);
            String name = field.getName();
            String lowerCase = name.toLowerCase(Locale.ROOT);
            HttpField kept = hopHeaders.contains(lowerCase) || hopOnly.contains(lowerCase) ? null : filter.apply(field);
            if (kept == null) {
                continue;
            }
            String value = kept.getValue() == null ? "" : kept.getValue();
            if (copied.add(lowerCase)) {
                proxyResponse.setHeader(name, value);
            } else {
                proxyResponse.addHeader(name, value);
            }
        }
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
