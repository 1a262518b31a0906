package org.jwd.config;

import java.time.Duration;


/**
 * The administration interface's keys.
 *
 * @param user           {@code admin.user}, or {@code null}: then the administration interface is off (404)
 * @param passwordHash   {@code admin.password_hash}, present exactly when {@code user} is
 * @param registryExpiry a server that registered itself and has not reported for this long is removed:
 *                       {@code rdisp/registry_expiry}, by default {@code rdisp/autoabaptime} x 1.1
 */
public record AdminConfig(String user, PasswordHash passwordHash, Duration registryExpiry) {
    public static final String USER = "admin.user";
    public static final String PASSWORD_HASH = "admin.password_hash";
    public static final String REGISTRY_EXPIRY = "rdisp/registry_expiry";

    /** The administration interface is served (credentials are configured). */
    public boolean enabled() {
        return user != null;
    }

    /**
     * Reads and checks the keys, all restart-only (the administration interface is set up once); every problem
     * names the key, the value and what is expected.
     *
     * @param core the core configuration: the registry's expiry follows {@code rdisp/autoabaptime} by default
     */
    public static AdminConfig read(KeyReader keys, DispatcherConfig core) {
        KeyReader restart = keys.restartOnly();
        String user = restart.raw(USER);
        String hashText = restart.raw(PASSWORD_HASH);
        if (user != null && (user.isEmpty() || user.indexOf(':') >= 0
                || user.chars().anyMatch(c -> c <= ' ' || c == 0x7f))) {
            keys.problem(USER, "a user name without ':', spaces or control characters");
        }
        PasswordHash hash = null;
        if (hashText != null) {
            try {
                hash = PasswordHash.parse(hashText);
            } catch (IllegalArgumentException e) {
                keys.problem(PASSWORD_HASH, PasswordHash.EXPECTED + " (" + e.getMessage() + ")");
            }
        }
        if (user != null && hashText == null) {
            keys.problem(PASSWORD_HASH, PasswordHash.EXPECTED + ", since " + USER + " is set");
        }
        if (user == null && hashText != null) {
            keys.problem(USER, "the administrator's user name, since " + PASSWORD_HASH + " is set");
        }
        Duration expiry = restart.seconds(REGISTRY_EXPIRY, core.autoAbapTime().plus(core.autoAbapTime().dividedBy(10)),
                "a positive number of seconds, or a number with a unit (500ms, 30s, 10m, 1h)");
        return new AdminConfig(user, hash, expiry);
    }

    @Override
    public String toString() {
        return enabled() ? "administration for user " + user + ", registry expiry " + Durations.format(registryExpiry)
                : "administration off";
    }
}
