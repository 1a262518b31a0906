package org.jwd.tls;

/**
 * What one HTTPS listener presents and asks, each setting from the most particular line that gives it: the port's
 * {@code VCLIENT}, else its SSL configuration's, else {@code icm/HTTPS/verify_client}; the configuration's
 * {@code CIPHERS}, else {@code ssl/ciphersuites}, else jwd's own (TLS 1.2 and 1.3, forward-secret AEAD suites).
 *
 * @param config       the SSL configuration: its credentials, session cache
 * @param verifyClient 0 no client certificate asked for, 1 asked for, 2 required
 * @param suites       the versions and suites, or {@code null} for jwd's own
 */
public record HttpsSettings(SslConfig config, int verifyClient, TlsSuites suites) {
    @Override
    public String toString() {
        return config.name() + ", client certificates " + switch (verifyClient) {
            case 0 -> "not asked for";
            case 1 -> "asked for";
            default -> "required";
        } + (suites == null ? "" : ", ciphers " + suites);
    }
}
