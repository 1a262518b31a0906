package org.jwd.tls;

import java.io.IOException;
import java.security.GeneralSecurityException;

import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.jwd.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTPS termination in the Jetty distribution: {@code jetty-base/etc/jwd-ssl-context.xml} (module
 * {@code jwd-ssl-context}, which takes the place of Jetty's {@code ssl-context} under Jetty's {@code ssl},
 * {@code https}, {@code http2} and {@code alpn}) asks {@link #sslContextFactory()} for Jetty's TLS server,
 * made from the same configuration file as the dispatcher's ({@code jwd.config}). The keystore's password
 * thus never appears on a command line or in an ini file.
 */
public final class TlsTermination {
    private static final Logger LOG = LoggerFactory.getLogger(TlsTermination.class);

    private TlsTermination() {
    }

    /** @throws IllegalStateException when the configuration is invalid or names no keystore (logged, key by key) */
    public static SslContextFactory.Server sslContextFactory() {
        TlsConfig tls = ServerLevelConfig.load().tls();
        if (!tls.terminates()) {
            throw ServerLevelConfig.fail(new ConfigException(TlsConfig.KEYSTORE + " is missing: expected the"
                    + " keystore for HTTPS (a PKCS12 or JKS file with jwd's key and certificate)"));
        }
        SslContextFactory.Server factory = new SslContextFactory.Server();
        try {
            TlsPolicy.towardsClients(factory, tls);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("jwd: cannot open " + tls.keyStore() + ": " + e.getMessage(), e);
        }
        LOG.info("jwd: HTTPS with the keystore {} (TLS 1.2 and 1.3 only), {}", tls.keyStore(), tls.clientCerts());
        return factory;
    }
}
