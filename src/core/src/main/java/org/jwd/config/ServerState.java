package org.jwd.config;

import java.util.Locale;

/**
 * What the configuration says of a server ({@code server.<id>.state}), as HAProxy's {@code disabled} and nginx's
 * {@code down}: {@link #ACTIVE} takes requests, {@link #DRAINED} takes no new ones but keeps its sessions,
 * {@link #DISABLED} takes nothing. An operator's action (page, API, {@code bin/jwd drain}) overrides it until the
 * key's value changes in the file.
 */
public enum ServerState {
    ACTIVE, DRAINED, DISABLED;

    public static final String EXPECTED = "active, drained or disabled";

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code active}, {@code drained} or {@code disabled} in any case; {@code null} for anything else. */
    public static ServerState parse(String text) {
        for (ServerState s : values()) {
            if (s.key().equalsIgnoreCase(text.strip())) {
                return s;
            }
        }
        return null;
    }
}
