package org.jwd.admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;

/**
 * The administration interface's keys, checked here rather than by the parser (which only accepts them).
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
     * Reads and checks the keys; every problem names the key, the value and what is expected.
     *
     * @throws ConfigException with one message per problem
     */
    public static AdminConfig of(DispatcherConfig config) throws ConfigException {
        Map<String, String> p = config.properties();
        List<String> problems = new ArrayList<>();
        String user = p.get(USER);
        String hashText = p.get(PASSWORD_HASH);
        PasswordHash hash = null;
        if (user != null && (user.isEmpty() || user.indexOf(':') >= 0
                || user.chars().anyMatch(c -> c <= ' ' || c == 0x7f))) {
            problems.add(problem(USER, user, "a user name without ':', spaces or control characters"));
        }
        if (hashText != null) {
            try {
                hash = PasswordHash.parse(hashText);
            } catch (IllegalArgumentException e) {
                problems.add(problem(PASSWORD_HASH, hashText, PasswordHash.EXPECTED + " (" + e.getMessage() + ")"));
            }
        }
        if (user != null && hashText == null) {
            problems.add(problem(PASSWORD_HASH, "", PasswordHash.EXPECTED + ", since " + USER + " is set"));
        }
        if (user == null && hashText != null) {
            problems.add(problem(USER, "", "the administrator's user name, since " + PASSWORD_HASH + " is set"));
        }
        Duration expiry = config.autoAbapTime().plus(config.autoAbapTime().dividedBy(10));
        String expiryText = p.get(REGISTRY_EXPIRY);
        if (expiryText != null) {
            expiry = seconds(expiryText);
            if (expiry == null) {
                problems.add(problem(REGISTRY_EXPIRY, expiryText,
                        "a positive number of seconds, or a number with a unit (500ms, 30s, 10m, 1h)"));
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new AdminConfig(user, hash, expiry);
    }

    private static String problem(String key, String value, String expected) {
        return key + " = '" + value + "': expected " + expected;
    }

    /** As SAP's second-valued parameters: a plain number is seconds; a unit may be given. */
    private static Duration seconds(String text) {
        String s = text.strip();
        try {
            Duration d = !s.isEmpty() && s.chars().allMatch(Character::isDigit) ? Durations.parse(s + "s")
                    : Durations.parse(s);
            return d.isZero() ? null : d;
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return enabled() ? "administration for user " + user + ", registry expiry " + Durations.format(registryExpiry)
                : "administration off";
    }
}
