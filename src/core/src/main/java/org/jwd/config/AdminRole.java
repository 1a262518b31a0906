package org.jwd.config;

import java.util.Locale;

/** What an administration user may do: {@link #MONITOR} reads, {@link #ADMIN} reads and acts. */
public enum AdminRole {
    /** the page, every {@code api/*} read, the metrics, a session lookup */
    MONITOR,
    /** also the actions: drain, disable, enable, reload, registering servers */
    ADMIN;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code monitor} or {@code admin}, in any case; {@code null} for anything else. */
    static AdminRole parse(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "monitor" -> MONITOR;
            case "admin" -> ADMIN;
            default -> null;
        };
    }
}
