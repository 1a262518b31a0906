package org.jwd.admin;

import org.jwd.config.AdminConfig;
import java.util.Locale;

/**
 * The one place that decides which configuration values the admin interface never shows: every key naming a
 * password ({@code admin.password_hash}, {@code jwd.ssl_keystore_password}, {@code wdisp/ssl_truststore_password},
 * and any later one named so). URLs carry no credentials to mask: the configuration refuses a user part in them.
 */
final class Secrets {
    static final String MASK = "(hidden)";

    private Secrets() {
    }

    static boolean isSecret(String key) {
        return key.equals(AdminConfig.PASSWORD_HASH) || key.toLowerCase(Locale.ROOT).contains("password");
    }

    /** {@code value}, or {@value #MASK} when {@code key} is a secret's and there is a value to hide. */
    static String masked(String key, String value) {
        return value != null && isSecret(key) ? MASK : value;
    }
}
