package org.jwd.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The administration interface's keys: its users, where it is served ({@code icm/HTTP/admin_<xx>}), the metrics
 * without credentials, the health URLs' listeners and the registry's expiry. All need a restart: the interface is
 * set up once.
 *
 * @param users            every user: the administrator of {@code admin.user} first, then {@code admin.users.<name>}
 *                         by name; none: the administration is off (404 at the default prefix; 401 at the
 *                         {@code PREFIX} of an {@code icm/HTTP/admin_<xx>}, which stays jwd's)
 * @param entries          the {@code icm/HTTP/admin_<xx>} entries, or {@link AdminEntry#DEFAULT} alone
 * @param anonymousMetrics {@code admin.metrics_anonymous}: {@code <PREFIX>/metrics} without credentials (still on
 *                         the entries' listeners and for their clients only)
 * @param healthUrls       {@code jwd.health_urls}: where {@code /jwd/health/live} and {@code /ready} answer
 * @param registryExpiry   a server that registered itself and has not reported for this long is removed:
 *                         {@code rdisp/registry_expiry}, by default {@code rdisp/autoabaptime} x 1.1
 */
public record AdminConfig(List<AdminUser> users, List<AdminEntry> entries, boolean anonymousMetrics,
                          HealthUrls healthUrls, Duration registryExpiry) {
    public static final String USER = "admin.user";
    public static final String PASSWORD_HASH = "admin.password_hash";
    public static final String METRICS_ANONYMOUS = "admin.metrics_anonymous";
    public static final String HEALTH_URLS = "jwd.health_urls";
    public static final String REGISTRY_EXPIRY = "rdisp/registry_expiry";
    static final KeyReader.Family USERS = new KeyReader.Family("admin.users.", "<name>",
            "a user name of letters, digits, '_' or '-'", "user key");

    /** Where the health URLs answer. */
    public enum HealthUrls {
        /** on every listener */
        ALL,
        /** only on the listeners the {@code icm/HTTP/admin_<xx>} entries name ({@code PORT}, {@code HOST}) */
        ADMIN,
        /** nowhere: 404 */
        OFF;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public AdminConfig {
        users = List.copyOf(users);
        entries = List.copyOf(entries);
    }

    /** The administration interface is served (a user is configured). */
    public boolean enabled() {
        return !users.isEmpty();
    }

    /** What the start and {@code bin/jwd check} say of SAP's {@code DOCROOT} and {@code AUTHFILE}, one per entry. */
    public List<String> notUsed() {
        return entries.stream().map(e -> e.notUsed(enabled())).filter(java.util.Objects::nonNull).toList();
    }

    /** The user of this name, or {@code null}. */
    public AdminUser user(String name) {
        return users.stream().filter(u -> u.name().equals(name)).findFirst().orElse(null);
    }

    /** The entry that serves a request for {@code prefix} on this listener, or {@code null} when none does. */
    public AdminEntry entry(String prefix, String localAddress, int localPort) {
        return entries.stream().filter(e -> e.prefix().equals(prefix) && e.servesListener(localAddress, localPort))
                .findFirst().orElse(null);
    }

    /** Whether a health URL answers on this listener. */
    public boolean healthOn(String localAddress, int localPort) {
        return switch (healthUrls) {
            case ALL -> true;
            case OFF -> false;
            case ADMIN -> entries.stream().anyMatch(e -> e.servesListener(localAddress, localPort));
        };
    }

    /**
     * Reads and checks the keys, all restart-only; every problem names the key, the value and what is expected.
     *
     * @param core the core configuration: the registry's expiry follows {@code rdisp/autoabaptime} by default
     */
    public static AdminConfig read(KeyReader keys, DispatcherConfig core) {
        KeyReader restart = keys.restartOnly();
        List<AdminUser> users = new ArrayList<>();
        AdminUser administrator = administrator(restart);
        if (administrator != null) {
            users.add(administrator);
        }
        for (String name : restart.ids(USERS)) {
            AdminUser user = user(restart, name);
            if (user != null && administrator != null && name.equals(administrator.name())) {
                keys.problem(USERS.prefix() + name + ".password_hash", "another name than " + USER
                        + "'s: a user is defined once");
            } else if (user != null) {
                users.add(user);
            }
        }
        List<AdminEntry> entries = AdminEntry.readAll(restart);
        boolean anonymous = restart.bool(METRICS_ANONYMOUS, false);
        HealthUrls healthUrls = restart.value(HEALTH_URLS, HealthUrls.ALL, "all, admin or off", text -> {
            return HealthUrls.valueOf(text.strip().toUpperCase(Locale.ROOT));
        });
        Duration expiry = restart.seconds(REGISTRY_EXPIRY, core.autoAbapTime().plus(core.autoAbapTime().dividedBy(10)),
                "a positive number of seconds, or a number with a unit (500ms, 30s, 10m, 1h)");
        return new AdminConfig(users, entries, anonymous, healthUrls, expiry);
    }

    /** {@code admin.user} and {@code admin.password_hash}: the administrator, role admin; {@code null} without. */
    private static AdminUser administrator(KeyReader keys) {
        String user = keys.raw(USER);
        String hashText = keys.raw(PASSWORD_HASH);
        if (user != null && (user.isEmpty() || user.indexOf(':') >= 0
                || user.chars().anyMatch(c -> c <= ' ' || c == 0x7f))) {
            keys.problem(USER, "a user name without ':', spaces or control characters");
        }
        PasswordHash hash = hash(keys, PASSWORD_HASH, hashText);
        if (user != null && hashText == null) {
            keys.problem(PASSWORD_HASH, PasswordHash.EXPECTED + ", since " + USER + " is set");
        }
        if (user == null && hashText != null) {
            keys.problem(USER, "the administrator's user name, since " + PASSWORD_HASH + " is set");
        }
        return user == null || hash == null ? null : new AdminUser(user, hash, AdminRole.ADMIN);
    }

    /** {@code admin.users.<name>.password_hash} (required) and {@code .role} ({@code monitor} by default). */
    private static AdminUser user(KeyReader keys, String name) {
        String key = USERS.prefix() + name + ".";
        String hashText = keys.raw(key + "password_hash");
        PasswordHash hash = hash(keys, key + "password_hash", hashText);
        if (hashText == null) {
            keys.missing(key + "password_hash", PasswordHash.EXPECTED);
        }
        AdminRole role = keys.value(key + "role", AdminRole.MONITOR, "monitor or admin", AdminRole::parse);
        return hash == null ? null : new AdminUser(name, hash, role);
    }

    private static PasswordHash hash(KeyReader keys, String key, String text) {
        if (text == null) {
            return null;
        }
        try {
            return PasswordHash.parse(text);
        } catch (IllegalArgumentException e) {
            keys.problem(key, PasswordHash.EXPECTED + " (" + e.getMessage() + ")");
            return null;
        }
    }

    @Override
    public String toString() {
        return (enabled() ? "administration for " + users : "administration off") + " at " + entries
                + (anonymousMetrics ? ", metrics without credentials" : "") + ", health URLs " + healthUrls.key()
                + ", registry expiry " + Durations.format(registryExpiry);
    }
}
