package org.jwd.tls;

import java.util.regex.Pattern;

import javax.security.auth.x500.X500Principal;

import org.jwd.config.KeyReader;

/**
 * Client certificates on jwd's HTTPS port, as SAP's ICM and Web Dispatcher handle them (help.sap.com: "SSL
 * Parameters for ICM and Web Dispatcher", 48/477e7fe9d771b9e10000000a421937; "X.509-Based Logon to NetWeaver AS from
 * SAP Web Dispatcher", 48/9ab5d73e6d062be10000000a42189d; {@code icm/HTTPS/verify_client},
 * 48/3e87afca6b72d0e10000000a42189c): jwd asks for a certificate, checks it against the CAs of its keystore (SAP:
 * "the root certificates in the SSL Server PSE certificate list"), and passes it to the server in header fields,
 * whose names the server's ICM must share.
 *
 * <p>A client's own header fields of these names never reach a server, whatever the client and however it came:
 * only a trusted intermediary's (another dispatcher in front, whose certificate has the configured subject and
 * issuer, SAP's {@code icm/HTTPS/trust_client_with_subject} and {@code _issuer}) are passed on, and then jwd adds
 * none of its own: the intermediary's certificate is not the user's.
 *
 * @param verifyClient    {@code icm/HTTPS/verify_client}: 0 no certificate asked for, 1 asked for (SAP's default),
 *                        2 required: a client without a valid one is refused in the handshake
 * @param forwardAsHeader {@code icm/HTTPS/forward_ccert_as_header}: the client's certificate in header fields
 * @param headers         the header fields' names
 * @param trustIssuer     {@code icm/HTTPS/trust_client_with_issuer}, or {@code null}
 * @param trustSubject    {@code icm/HTTPS/trust_client_with_subject}, or {@code null}
 */
public record ClientCertConfig(int verifyClient, boolean forwardAsHeader, CertificateHeaders headers,
                               X500Principal trustIssuer, X500Principal trustSubject) {
    public static final String VERIFY_CLIENT = "icm/HTTPS/verify_client";
    public static final String FORWARD_AS_HEADER = "icm/HTTPS/forward_ccert_as_header";
    public static final String TRUST_ISSUER = "icm/HTTPS/trust_client_with_issuer";
    public static final String TRUST_SUBJECT = "icm/HTTPS/trust_client_with_subject";
    static final String CERTIFICATE_HEADER = "icm/HTTPS/client_certificate_header_name";
    static final String CHAIN_PREFIX = "icm/HTTPS/client_certificate_chain_header_prefix";
    static final String CIPHER_SUITE_HEADER = "icm/HTTPS/client_cipher_suite_header_name";
    static final String KEY_SIZE_HEADER = "icm/HTTPS/client_key_size_header_name";

    /** SAP's defaults: certificates asked for, not forwarded, SAP's header names, no intermediary trusted. */
    public static final ClientCertConfig DEFAULTS = new ClientCertConfig(1, false, CertificateHeaders.SAP, null, null);

    /** An HTTP field name (RFC 9110's token). */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /**
     * The names of the header fields (SAP's defaults in {@link #SAP}; SAP: "You should not change the default values
     * unless absolutely necessary", since the server's ICM reads the same names).
     *
     * @param certificate {@code icm/HTTPS/client_certificate_header_name}: the client's certificate, Base64 of its DER
     *                    encoding on one line
     * @param chainPrefix {@code icm/HTTPS/client_certificate_chain_header_prefix}: {@code <prefix>1} ... {@code
     *                    <prefix>n} carry the CA certificates the client sent, its root excepted
     * @param cipherSuite {@code icm/HTTPS/client_cipher_suite_header_name}: the TLS cipher suite
     * @param keySize     {@code icm/HTTPS/client_key_size_header_name}: the bits of the cipher's key
     */
    public record CertificateHeaders(String certificate, String chainPrefix, String cipherSuite, String keySize) {
        public static final CertificateHeaders SAP = new CertificateHeaders("SSL_CLIENT_CERT", "SSL_CLIENT_CERT_CHAIN_",
                "SSL_CIPHER_SUITE", "SSL_CIPHER_USEKEYSIZE");
    }

    /** Whether an intermediary can be trusted at all: SAP needs both its subject and its issuer. */
    public boolean trustsIntermediaries() {
        return trustIssuer != null && trustSubject != null;
    }

    /** Whether a client certificate of this subject and issuer is a trusted intermediary's. */
    public boolean isTrustedIntermediary(X500Principal subject, X500Principal issuer) {
        return trustsIntermediaries() && trustSubject.equals(subject) && trustIssuer.equals(issuer);
    }

    /** Reads the keys, all restart-only: the TLS listener and the header names are set up once. */
    static ClientCertConfig read(KeyReader keys) {
        int verify = keys.integer(VERIFY_CLIENT, 1, 0, 2, "0 (no client certificate asked for), 1 (asked for) or 2"
                + " (required)");
        boolean forward = keys.bool(FORWARD_AS_HEADER, false);
        CertificateHeaders sap = CertificateHeaders.SAP;
        CertificateHeaders names = new CertificateHeaders(name(keys, CERTIFICATE_HEADER, sap.certificate()),
                name(keys, CHAIN_PREFIX, sap.chainPrefix()), name(keys, CIPHER_SUITE_HEADER, sap.cipherSuite()),
                name(keys, KEY_SIZE_HEADER, sap.keySize()));
        X500Principal issuer = principal(keys, TRUST_ISSUER);
        X500Principal subject = principal(keys, TRUST_SUBJECT);
        if ((keys.raw(TRUST_ISSUER) == null) != (keys.raw(TRUST_SUBJECT) == null)) {
            String given = keys.raw(TRUST_ISSUER) == null ? TRUST_SUBJECT : TRUST_ISSUER;
            String missing = given.equals(TRUST_ISSUER) ? TRUST_SUBJECT : TRUST_ISSUER;
            keys.problemText(given, given + " is set, but " + missing + " is not: expected both, the subject and"
                    + " the issuer of the trusted intermediary's certificate (SAP trusts neither alone)");
        }
        return new ClientCertConfig(verify, forward, names, issuer, subject);
    }

    private static String name(KeyReader keys, String key, String fallback) {
        return keys.value(key, fallback, "a header field name (letters, digits, '-', '_')",
                t -> TOKEN.matcher(t.strip()).matches() ? t.strip() : null);
    }

    /** A distinguished name as SAP writes it ({@code CN=wdisp, O=Example, C=DE}); compared as X.500 names. */
    private static X500Principal principal(KeyReader keys, String key) {
        return keys.value(key, null, "a distinguished name such as CN=wdisp, O=Example, C=DE", X500Principal::new);
    }

    @Override
    public String toString() {
        return "client certificates " + switch (verifyClient) {
            case 0 -> "not asked for";
            case 1 -> "asked for";
            default -> "required";
        } + (forwardAsHeader ? ", forwarded as " + headers.certificate() : "")
                + (trustsIntermediaries() ? ", intermediary " + trustSubject.getName() + " trusted" : "");
    }
}
