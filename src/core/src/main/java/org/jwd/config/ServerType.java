package org.jwd.config;

import java.util.Locale;

/** The two kinds of server process behind jwd. */
public enum ServerType {
    J2EE, ABAP;

    /** Reads {@code j2ee} or {@code abap}, case-insensitively; {@code null} for anything else. */
    public static ServerType parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "j2ee" -> J2EE;
            case "abap" -> ABAP;
            default -> null;
        };
    }

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
