package org.jwd.proxy;

import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.ListIterator;
import java.util.Locale;
import java.util.stream.Stream;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.jwd.config.HeaderForwarding;
import org.jwd.tls.ClientCertConfig;
import org.jwd.tls.ClientCertConfig.CertificateHeaders;

/**
 * The request headers jwd owns: what it tells a server about the client. Jetty has copied the client's headers
 * (without {@code Host} and the hop-by-hop ones); these rules then remove every client value of an owned header
 * and set jwd's, so that a server never believes what a client claims about itself:
 *
 * <pre>
 * header                     jwd sets                                      a client's value
 * Host                       the client's (jwd.preserve_host, on)          -
 * X-Forwarded-For            the peer (wdisp/add_xforwardedfor_header)     trusted proxy: kept, the peer appended
 * X-Forwarded-Proto, -Host   the connection's scheme, the client's Host    trusted proxy: kept
 * X-Forwarded-Port           -                                             trusted proxy: kept
 * clientprotocol             http or https (wdisp/add_client_protocol_header)  trusted proxy: kept
 * x-sap-webdisp-ap           http=8080;https=8443 (wdisp/handle_webdisp_ap_header) trusted proxy: kept
 * Forwarded, X-Forwarded-Server  -                                         removed
 * SSL_CLIENT_CERT, SSL_CLIENT_CERT_CHAIN_n, SSL_CIPHER_SUITE, SSL_CIPHER_USEKEYSIZE
 *                            the connection's (icm/HTTPS/forward_ccert_as_header)
 *                                                                          trusted intermediary: kept, none added
 * </pre>
 *
 * Anything else the "trusted" column does not name is removed. A trusted proxy is a peer in
 * {@code jwd.trusted_proxies}; for the certificate headers, which log a user on, an address is not enough: only an
 * intermediary whose own client certificate has SAP's {@code icm/HTTPS/trust_client_with_subject} and
 * {@code _issuer} is believed. Names are compared regardless of case and with '-' and '_' alike, because a server
 * behind a CGI-style gateway reads {@code SSL-Client-Cert} and {@code SSL_CLIENT_CERT} as one variable.
 */
final class OwnedHeaders {
    static final String CLIENT_PROTOCOL = "clientprotocol";
    static final String ACCESS_POINTS = "x-sap-webdisp-ap";
    private static final String FOR = "X-Forwarded-For";
    private static final String PROTO = "X-Forwarded-Proto";
    private static final String HOST = "X-Forwarded-Host";
    private static final String PORT = "X-Forwarded-Port";
    /** The forwarding headers' names as {@link #key} writes them. */
    private static final List<String> FORWARDING = Stream.of(FOR, PROTO, HOST, PORT, "X-Forwarded-Server",
            "Forwarded", CLIENT_PROTOCOL, ACCESS_POINTS).map(OwnedHeaders::key).toList();

    private OwnedHeaders() {
    }

    /**
     * What jwd knows of the client.
     *
     * @param peer         the direct peer's address
     * @param trustedProxy whether the peer is in {@code jwd.trusted_proxies}
     * @param scheme       {@code http} or {@code https}: the connection jwd received the request on
     * @param host         the client's {@code Host} (HTTP/2: its {@code :authority}), or {@code null}
     * @param accessPoints jwd's access points for {@code x-sap-webdisp-ap}, or {@code null} when not needed
     * @param tls          the client's TLS connection to jwd, or {@code null} (plain HTTP, or not needed)
     */
    record Client(String peer, boolean trustedProxy, String scheme, String host, String accessPoints, Tls tls) {
    }

    /**
     * @param chain       the certificates the client presented, its own first; empty when it presented none
     * @param cipherSuite the cipher suite, or {@code null}
     * @param keySize     the bits of the cipher's key, or {@code null}
     */
    record Tls(List<X509Certificate> chain, String cipherSuite, Integer keySize) {
        Tls {
            chain = List.copyOf(chain);
        }
    }

    /** Applies the rules to the headers Jetty copied from the client. */
    static void rewrite(HttpFields.Mutable headers, Client client, HeaderForwarding rules, ClientCertConfig certs) {
        CertificateKeys certificateKeys = CertificateKeys.of(certs.headers());
        Believed believed = Believed.of(headers, client, certs, certificateKeys);
        removeOwned(headers, certificateKeys);
        if (rules.preserveHost() && client.host() != null) {
            headers.put(HttpHeader.HOST, client.host());
        }
        putIfValue(headers, FOR, rules.addXForwardedFor() ? believed.forwardedFor(client.peer())
                : believed.forwardedFor(null));
        putIfValue(headers, PROTO, or(believed.value(PROTO), client.scheme()));
        putIfValue(headers, HOST, or(believed.value(HOST), client.host()));
        putIfValue(headers, PORT, believed.value(PORT));
        putIfValue(headers, CLIENT_PROTOCOL, or(believed.value(CLIENT_PROTOCOL), rules.forceClientProtocol() != null
                ? rules.forceClientProtocol() : rules.addClientProtocol() ? client.scheme() : null));
        putIfValue(headers, ACCESS_POINTS, or(believed.value(ACCESS_POINTS), rules.forceAccessPoints() != null
                ? rules.forceAccessPoints() : rules.addAccessPoints() ? client.accessPoints() : null));
        if (certs.forwardAsHeader()) {
            if (believed.intermediary()) {
                believed.certificateFields().forEach(headers::add);
            } else if (client.tls() != null) {
                certificate(headers, client.tls(), certs.headers());
            }
        }
    }

    /** A trusted peer's values, read before the client's owned headers are removed. */
    private record Believed(List<String> forwardedFor, List<HttpField> fields, boolean intermediary,
                            List<HttpField> certificateFields) {
        static Believed of(HttpFields headers, Client client, ClientCertConfig certs, CertificateKeys certificate) {
            List<String> chain = new ArrayList<>();
            List<HttpField> fields = new ArrayList<>();
            boolean intermediary = certs.forwardAsHeader() && isIntermediary(client.tls(), certs);
            List<HttpField> certificateFields = new ArrayList<>();
            for (HttpField field : headers) {
                if (client.trustedProxy() && field.is(FOR)) {
                    if (field.getValue() != null && !field.getValue().isBlank()) {
                        chain.add(field.getValue().strip());
                    }
                } else if (client.trustedProxy() && isForwarding(field.getName())) {
                    fields.add(field);
                } else if (intermediary && certificate.owns(field.getName())) {
                    certificateFields.add(field);
                }
            }
            return new Believed(chain, fields, intermediary, certificateFields);
        }

        /** The believed chain with {@code peer} appended; {@code null} when both are missing. */
        String forwardedFor(String peer) {
            List<String> all = new ArrayList<>(forwardedFor);
            if (peer != null) {
                all.add(peer);
            }
            return all.isEmpty() ? null : String.join(", ", all);
        }

        /** The first value a trusted proxy sent for {@code name}, or {@code null}. */
        String value(String name) {
            for (HttpField field : fields) {
                if (field.is(name) && field.getValue() != null && !field.getValue().isBlank()) {
                    return field.getValue().strip();
                }
            }
            return null;
        }
    }

    private static boolean isIntermediary(Tls tls, ClientCertConfig certs) {
        if (tls == null || tls.chain().isEmpty()) {
            return false;
        }
        X509Certificate own = tls.chain().get(0);
        return certs.isTrustedIntermediary(own.getSubjectX500Principal(), own.getIssuerX500Principal());
    }

    /** Removes every field whose name is owned, in any case and with '-' for '_'. */
    private static void removeOwned(HttpFields.Mutable headers, CertificateKeys certificate) {
        for (ListIterator<HttpField> i = headers.listIterator(); i.hasNext(); ) {
            String name = i.next().getName();
            if (isForwarding(name) || certificate.owns(name)) {
                i.remove();
            }
        }
    }

    private static boolean isForwarding(String name) {
        for (String key : FORWARDING) {
            if (sameKey(name, key, false)) {
                return true;
            }
        }
        return false;
    }

    /** The certificate fields' names as {@link #key} writes them, made once per request from the configuration. */
    private record CertificateKeys(String certificate, String cipherSuite, String keySize, String chainPrefix) {
        static CertificateKeys of(CertificateHeaders names) {
            return new CertificateKeys(key(names.certificate()), key(names.cipherSuite()), key(names.keySize()),
                    key(names.chainPrefix()));
        }

        /** A certificate field's name, in any case and with '-' for '_'; {@code <prefix><anything>} for the chain. */
        boolean owns(String name) {
            return sameKey(name, certificate, false) || sameKey(name, cipherSuite, false)
                    || sameKey(name, keySize, false) || sameKey(name, chainPrefix, true);
        }
    }

    /**
     * Whether {@code name} read as {@link #key} reads it is {@code key} (or, with {@code prefix}, starts with it),
     * without making a string: this runs for every header of every request.
     */
    private static boolean sameKey(String name, String key, boolean prefix) {
        if (prefix ? name.length() < key.length() : name.length() != key.length()) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = name.charAt(i);
            if ((c == '-' ? '_' : Character.toLowerCase(c)) != key.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The connection's certificate as SAP's Web Dispatcher passes it: Base64 of the DER encoding, one line; the CA
     * certificates the client sent, numbered from 1 and without the self-signed root, which the server's own trust
     * list must hold ("It must not be transferred to the server").
     */
    private static void certificate(HttpFields.Mutable headers, Tls tls, CertificateHeaders names) {
        if (!tls.chain().isEmpty()) {
            headers.put(names.certificate(), base64(tls.chain().get(0)));
            int n = 1;
            for (X509Certificate ca : tls.chain().subList(1, tls.chain().size())) {
                if (!ca.getSubjectX500Principal().equals(ca.getIssuerX500Principal())) {
                    headers.put(names.chainPrefix() + n++, base64(ca));
                }
            }
        }
        putIfValue(headers, names.cipherSuite(), tls.cipherSuite());
        putIfValue(headers, names.keySize(), tls.keySize() == null ? null : tls.keySize().toString());
    }

    private static String base64(X509Certificate certificate) {
        try {
            return Base64.getEncoder().encodeToString(certificate.getEncoded());
        } catch (CertificateEncodingException e) {
            // the TLS stack parsed it from its encoding moments ago
            throw new IllegalStateException("cannot encode the client's certificate " + certificate
                    .getSubjectX500Principal(), e);
        }
    }

    private static void putIfValue(HttpFields.Mutable headers, String name, String value) {
        if (value != null) {
            headers.put(name, value);
        }
    }

    private static String or(String value, String fallback) {
        return value != null ? value : fallback;
    }

    /** A header name as servers may read it: lower case, '-' as '_'. */
    static String key(String name) {
        return name.toLowerCase(Locale.ROOT).replace('-', '_');
    }
}
