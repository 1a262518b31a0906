package org.jwd.systems;

/**
 * {@code wdisp/system_conflict_resolution}: what happens when more than one system meets a request's criteria
 * equally well (the same longest {@code SRCURL} prefix). SAP's values are kept.
 */
public enum ConflictResolution {
    /** {@code 0} (the default): such an overlap is a configuration error, found at start and at every reload. */
    REJECT,
    /** {@code 1}: the first of them in entry order ({@code wdisp/system_<xx>} by number). */
    FIRST_MATCH;

    public static final String KEY = "wdisp/system_conflict_resolution";
    static final String EXPECTED = "0 (systems that meet the same request are an error) or 1 (the first of them in"
            + " entry order)";

    /** {@code 0} or {@code 1}; {@code null} for anything else. */
    static ConflictResolution parse(String text) {
        return switch (text.strip()) {
            case "0" -> REJECT;
            case "1" -> FIRST_MATCH;
            default -> null;
        };
    }

    /** The value as SAP writes it. */
    public String value() {
        return Integer.toString(ordinal());
    }

    @Override
    public String toString() {
        return KEY + "=" + value();
    }
}
