package org.jwd.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One SSL configuration HTTPS listeners present: SAP's {@code icm/ssl_config_<xx>} ("icm/ssl_config_&lt;xx&gt;",
 * help.sap.com), named by a port's {@code SSLCONFIG}, or {@code jwd.ssl_keystore}'s.
 *
 * @param name         how a port names it: {@code ID}, else {@code ssl_config_<xx>}; {@value #KEYSTORE} for
 *                     {@code jwd.ssl_keystore}
 * @param credentials  {@code CRED} and {@code SNI_CREDS}, with the password jwd's {@code PIN} names
 * @param verifyClient {@code VCLIENT}: 0, 1 or 2 as {@code icm/HTTPS/verify_client}; {@code null} when not given
 * @param suites       {@code CIPHERS}; {@code null} when not given
 * @param cacheSize    {@code CACHESIZE}: TLS sessions kept for resumption; -1 for Java's default
 * @param lifetime     {@code LIFETIME}: how long a TLS session may be resumed; {@code null} for Java's default
 */
public record SslConfig(String name, Credentials credentials, Integer verifyClient, TlsSuites suites, int cacheSize,
                        Duration lifetime) {
    /** The name of {@code jwd.ssl_keystore}'s configuration, which no {@code ID} can take (it has a dot). */
    public static final String KEYSTORE = "jwd.ssl_keystore";

    /** {@code jwd.ssl_keystore} with its password: the SSL configuration of ports that name none. */
    static SslConfig ofKeyStore(Path keyStore, Secret password) {
        return new SslConfig(KEYSTORE, new Credentials(TlsConfig.KEYSTORE, List.of(keyStore), password), null, null,
                -1, null);
    }

    @Override
    public String toString() {
        return name + " (" + credentials + ")";
    }
}
