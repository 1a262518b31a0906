package org.jwd.tls;

import java.util.List;

import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The protocol versions and cipher suites of one side of jwd's TLS, as an SAP value chose them
 * ({@link CipherSuiteString}): Java's names, in the order of preference.
 *
 * @param value        the SAP value they were read from, for messages and the admin page
 * @param protocols    {@code TLSv1.2}, {@code TLSv1.3}: never an older one
 * @param cipherSuites JSSE's names, preferred first
 */
public record TlsSuites(String value, List<String> protocols, List<String> cipherSuites) {
    /** Which side a value is for: what jwd offers at least differs. */
    public enum Side {
        /** jwd's HTTPS listeners ({@code ssl/ciphersuites}): forward-secret AEAD suites only. */
        CLIENTS,
        /** jwd as the servers' client ({@code ssl/client_ciphersuites}): whatever the JDK enables. */
        SERVERS
    }

    public TlsSuites {
        protocols = List.copyOf(protocols);
        cipherSuites = List.copyOf(cipherSuites);
    }

    /** Makes {@code factory} offer these versions and suites, in this order, and nothing else. */
    void applyTo(SslContextFactory factory) {
        factory.setIncludeProtocols(protocols.toArray(String[]::new));
        factory.setIncludeCipherSuites(cipherSuites.toArray(String[]::new));
        factory.setUseCipherSuitesOrder(true);
    }

    @Override
    public String toString() {
        return "'" + value + "' (" + String.join(", ", protocols) + "; " + cipherSuites.size() + " cipher suites)";
    }
}
