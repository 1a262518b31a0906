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
     * {@code wdisp/ssl_verify_hostname=false}, never trusts blindly, presents jwd's client certificate with
     * {@code wdisp/ssl_auth} 1 or 2, and offers the versions and suites of {@code ssl/client_ciphersuites}.
     */
    public static SslContextFactory.Client towardsServers(Reencryption servers)
            throws IOException, GeneralSecurityException {
        return towardsServers(servers, servers.credentials() == null ? null : KeyMaterial.load(servers.credentials()));
    }

    /** As {@link #towardsServers(Reencryption)}, presenting {@code keys} (opened already), or none. */
    static SslContextFactory.Client towardsServers(Reencryption servers, KeyMaterial keys)
            throws IOException, GeneralSecurityException {
        SslContextFactory.Client factory = new SslContextFactory.Client();
        factory.setTrustAll(false);
        KeyStore trustStore = servers.loadTrustStore();
        if (trustStore != null) {
            factory.setTrustStore(trustStore);
        }
        factory.setEndpointIdentificationAlgorithm(servers.verifyHostname() ? "HTTPS" : null);
        factory.addExcludeProtocols(WEAK_PROTOCOLS);
        if (keys != null) {
            keys.applyTo(factory);
        }
        if (servers.suites() != null) {
            servers.suites().applyTo(factory);
        }
        return factory;
    }

    /**
     * Jetty's TLS server for one HTTPS listener (termination): its keys (chosen by the name a client asks for, SNI),
     * and the weak protocols and suites off, or what its cipher suite string selects of the others. A client
     * certificate is asked for or required as its {@code VCLIENT} or {@code icm/HTTPS/verify_client} says and checked
     * against the certificates of the same files (SAP's "root certificates in the SSL Server PSE certificate list").
     */
    public static void towardsClients(SslContextFactory.Server factory, HttpsSettings https, KeyMaterial keys) {
        keys.applyTo(factory);
        factory.addExcludeProtocols(WEAK_PROTOCOLS);
        factory.addExcludeCipherSuites(WEAK_CIPHER_SUITES);
        if (https.suites() != null) {
            https.suites().applyTo(factory);
        }
        factory.setWantClientAuth(https.verifyClient() == 1);
        factory.setNeedClientAuth(https.verifyClient() == 2);
        factory.setSslSessionCacheSize(https.config().cacheSize());
        if (https.config().lifetime() != null) {
            factory.setSslSessionTimeout((int) Math.min(Integer.MAX_VALUE, https.config().lifetime().toSeconds()));
        }
    }

    /**
     * Hands renewed keys to a factory in use: new handshakes get them, open connections keep theirs. The keys were
     * opened already, so the factory's reload cannot fail on a file.
     */
    public static void renew(SslContextFactory factory, KeyMaterial keys) throws Exception {
        factory.reload(f -> keys.applyTo(f));
    }
}
