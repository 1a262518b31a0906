package org.jwd.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.Locale;

import org.jwd.config.KeyReader;

/**
 * jwd's TLS towards the servers ({@code wdisp/ssl_encrypt} 1 and 2, and the HTTPS health checks): whom it trusts,
 * and the client certificate it presents, as SAP's Web Dispatcher does with {@code wdisp/ssl_auth} ("Setting the SSL
 * Profile Parameters for the SAP Web Dispatcher", help.sap.com, 9a/53a2a4a45e244aa189c2b7065a0b78: "wdisp/ssl_auth =
 * &lt;0,1,2&gt;", "wdisp/ssl_cred = &lt;File_name_of_client_PSE&gt;"; "If wdisp/ssl_auth = 1 or 2, then SSL with
 * mutual authentication is used", 36/fd39eacf4cde4a8fe32d7f29b3db16). SAP's 1 presents its standard SSL client PSE
 * ({@code SAPSSLC.pse}), 2 the PSE {@code wdisp/ssl_cred} names; jwd reads no PSE, so both present the PKCS#12 file
 * {@code wdisp/ssl_cred} names, exported from that PSE, opened with {@code wdisp/ssl_cred_password}. A server whose
 * ICM trusts jwd's certificate ({@code icm/HTTPS/trust_client_with_subject} and {@code _issuer}) then believes the
 * client certificates jwd forwards in {@code SSL_CLIENT_CERT}.
 *
 * @param trustStore         {@code wdisp/ssl_truststore}: the CAs trusted for the servers' certificates, or
 *                           {@code null}: the JDK's own
 * @param trustStorePassword {@code wdisp/ssl_truststore_password}, or {@code null}
 * @param verifyHostname     {@code wdisp/ssl_verify_hostname}: a server's certificate must name the host of its
 *                           {@code https_url}
 * @param auth               {@code wdisp/ssl_auth}: 0 no client certificate, 1 or 2 jwd's own
 * @param credentials        {@code wdisp/ssl_cred} and its password; {@code null} with {@code wdisp/ssl_auth=0}
 * @param suites             {@code ssl/client_ciphersuites}, or {@code null}: the JDK's
 */
public record Reencryption(Path trustStore, Secret trustStorePassword, boolean verifyHostname, int auth,
                           Credentials credentials, TlsSuites suites) {
    public static final String AUTH = "wdisp/ssl_auth";
    public static final String CRED = "wdisp/ssl_cred";
    public static final String CRED_PASSWORD = "wdisp/ssl_cred_password";
    public static final String CLIENT_CIPHERSUITES = "ssl/client_ciphersuites";

    static Reencryption read(KeyReader keys) {
        boolean verifyHostname = keys.bool(TlsConfig.VERIFY_HOSTNAME, true);
        Secret trustPassword = Secret.read(keys, TlsConfig.TRUSTSTORE_PASSWORD);
        Path trustStore = TlsConfig.store(keys, TlsConfig.TRUSTSTORE, TlsConfig.TRUSTSTORE_PASSWORD, trustPassword,
                false);
        int auth = keys.integer(AUTH, 0, 0, 2, "0 (no client certificate towards the servers), 1 or 2 (jwd's own,"
                + " the PKCS#12 file " + CRED + " names)");
        TlsSuites suites = keys.value(CLIENT_CIPHERSUITES, null, "SAP's cipher suite string", text -> {
            try {
                return CipherSuiteString.parse(text, TlsSuites.Side.SERVERS);
            } catch (IllegalArgumentException e) {
                keys.problemText(CLIENT_CIPHERSUITES, CLIENT_CIPHERSUITES + " = '" + text + "': " + e.getMessage());
                return null;
            }
        });
        return new Reencryption(trustStore, trustPassword, verifyHostname, auth, credentials(keys, auth), suites);
    }

    private static Credentials credentials(KeyReader keys, int auth) {
        String cred = keys.raw(CRED);
        Secret password = Secret.read(keys, CRED_PASSWORD);
        if (cred == null || cred.isBlank()) {
            if (auth != 0) {
                keys.problemText(AUTH, AUTH + " = '" + auth + "': jwd presents its client certificate from the PKCS#12"
                        + " file " + CRED + " names: expected " + CRED + " and " + CRED_PASSWORD + " (jwd reads no PSE:"
                        + " export SAPSSLC.pse with sapgenpse export_p12)");
            }
            return null;
        }
        if (auth == 0) {
            keys.problemText(CRED, CRED + " = '" + cred + "': " + AUTH + " is 0, so jwd would present no certificate:"
                    + " expected " + AUTH + "=1 or 2 with it");
            return null;
        }
        if (cred.strip().toLowerCase(Locale.ROOT).endsWith(".pse")) {
            keys.problem(CRED, "the PKCS#12 file sapgenpse export_p12 -p " + cred.strip() + " makes of the PSE: jwd"
                    + " reads no PSE");
            return null;
        }
        if (password == null) {
            keys.problemText(CRED, CRED_PASSWORD + " is missing: expected the password of " + CRED + " = '" + cred
                    + "' (" + Secret.EXPECTED + ")");
            return null;
        }
        return Credentials.check(keys, CRED, List.of(keys.directory().resolve(cred.strip()).normalize()), password);
    }

    /** The truststore, opened; {@code null} when the JDK's own trusted CAs apply. */
    public KeyStore loadTrustStore() throws IOException, GeneralSecurityException {
        return trustStore == null ? null : TlsConfig.load(trustStore, trustStorePassword);
    }

    @Override
    public String toString() {
        return "truststore " + (trustStore == null ? "of the JDK" : trustStore) + ", hostname verification "
                + (verifyHostname ? "on" : "OFF") + (credentials == null ? "" : ", client certificate "
                + credentials.files().get(0)) + (suites == null ? "" : ", ciphers " + suites);
    }
}
