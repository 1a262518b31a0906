package org.jwd.tls;

import org.jwd.config.DispatcherConfig;

/**
 * {@code wdisp/ssl_encrypt}: how jwd talks to the servers. SAP's values are kept: {@code 0}, {@code 1}, {@code 2}.
 * Forwarding over HTTPS selects the S groups ({@code !J2EES}, {@code !DIAGS}, logon groups restricted to
 * HTTPS-enabled members) and each server's {@code https_url}.
 */
public enum SslEncrypt {
    /** {@code 0}: plain HTTP to the servers, whatever the client used (the default). */
    NEVER,
    /** {@code 1}: HTTPS to the servers, even for a client that came over plain HTTP. */
    ALWAYS,
    /** {@code 2}: the protocol the client used: HTTPS to the servers for a request that arrived over TLS. */
    LIKE_CLIENT;

    public static final String KEY = "wdisp/ssl_encrypt";

    /** Whether a request that arrived over TLS ({@code clientSecure}) or not goes to the servers over HTTPS. */
    public boolean secure(boolean clientSecure) {
        return this == ALWAYS || (this == LIKE_CLIENT && clientSecure);
    }

    /** {@code 0}, {@code 1} or {@code 2}; {@code null} for anything else. */
    public static SslEncrypt parse(String text) {
        return switch (text.strip()) {
            case "0" -> NEVER;
            case "1" -> ALWAYS;
            case "2" -> LIKE_CLIENT;
            default -> null;
        };
    }

    /** The setting of {@code config}, as its TLS section read it. */
    public static SslEncrypt of(DispatcherConfig config) {
        return config.section(TlsConfig.class).encrypt();
    }

    /** The value as SAP writes it. */
    public String value() {
        return Integer.toString(ordinal());
    }

    @Override
    public String toString() {
        return KEY + "=" + value() + switch (this) {
            case NEVER -> " (plain HTTP to the servers)";
            case ALWAYS -> " (HTTPS to the servers)";
            case LIKE_CLIENT -> " (to the servers over the client's protocol)";
        };
    }
}
