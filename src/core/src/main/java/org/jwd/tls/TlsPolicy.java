package org.jwd.tls;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * How jwd speaks TLS, on both sides: Jetty's {@link SslContextFactory} set up from a {@link TlsConfig}.
 * Protocols older than TLS 1.2 are off towards clients and towards servers, whatever the JDK's
 * {@code java.security} would still allow; towards clients, cipher suites without forward secrecy or in CBC
 * mode are off too (what remains: ECDHE/DHE with AES-GCM or ChaCha20, and TLS 1.3).
 */
public final class TlsPolicy {
    /** Everything before TLS 1.2. */
    public static final String[] WEAK_PROTOCOLS = {"SSL", "SSLv2", "SSLv2Hello", "SSLv3", "TLSv1", "TLSv1.1"};
    /**
     * Jetty's own default exclusions (MD5 and SHA-1 MACs, RSA key exchange, NULL, anonymous, SSL_ names; the
     * {@code ssl} module's XML drops the RSA one, so they are all repeated here) and CBC modes.
     */
    public static final String[] WEAK_CIPHER_SUITES = {"^.*_(MD5|SHA|SHA1)$", "^TLS_RSA_.*$", "^SSL_.*$",
        "^.*_NULL_.*$", "^.*_anon_.*$", "^.*_CBC_.*$"};

    private TlsPolicy() {
    }

    /**
     * The TLS client towards the servers (re-encryption): trusts the configured truststore (else the JDK's
     * CAs), checks that a server's certificate names the host of its {@code https_url} unless
     * {@code wdisp/ssl_verify_hostname=false}, and never trusts blindly.
     */
    public static SslContextFactory.Client towardsServers(TlsConfig tls) throws IOException, GeneralSecurityException {
        SslContextFactory.Client factory = new SslContextFactory.Client();
        factory.setTrustAll(false);
        KeyStore trustStore = tls.loadTrustStore();
        if (trustStore != null) {
            factory.setTrustStore(trustStore);
        }
        factory.setEndpointIdentificationAlgorithm(tls.verifyHostname() ? "HTTPS" : null);
        factory.addExcludeProtocols(WEAK_PROTOCOLS);
        return factory;
    }

    /**
     * Jetty's TLS server for clients (termination): jwd's keystore, and the weak protocols and suites off. A client
     * certificate is asked for or required as {@code icm/HTTPS/verify_client} says and checked against the trusted
     * certificates of the same keystore (Jetty's truststore when none is given is the keystore: SAP's "root
     * certificates in the SSL Server PSE certificate list").
     */
    public static void towardsClients(SslContextFactory.Server factory, TlsConfig tls)
            throws IOException, GeneralSecurityException {
        KeyStore keyStore = TlsConfig.load(tls.keyStore(), tls.keyStorePassword());
        // By path, not as a loaded KeyStore, so that Jetty's ssl-reload module can watch the file.
        factory.setKeyStorePath(tls.keyStore().toString());
        factory.setKeyStoreType(keyStore.getType());
        factory.setKeyStorePassword(tls.keyStorePassword());
        factory.addExcludeProtocols(WEAK_PROTOCOLS);
        factory.addExcludeCipherSuites(WEAK_CIPHER_SUITES);
        factory.setWantClientAuth(tls.clientCerts().verifyClient() == 1);
        factory.setNeedClientAuth(tls.clientCerts().verifyClient() == 2);
    }
}
