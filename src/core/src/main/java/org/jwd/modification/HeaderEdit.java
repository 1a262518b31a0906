package org.jwd.modification;

/**
 * A change to a header the modification handler makes: to the request on its way to the server (the final value
 * of each header a rule changed: {@link Kind#SET} or {@link Kind#REMOVE}), or to the server's answer (each response
 * rule in its order, applied when the answer's headers arrive).
 *
 * @param name  the header's name as the rule wrote it
 * @param value the value to set or append; {@code null} for {@link Kind#REMOVE}
 */
public record HeaderEdit(Kind kind, String name, String value) {
    /** What is done with the header. */
    public enum Kind {
        /** replaces every value the header had */
        SET,
        /** sets it only when it is absent or empty */
        SET_IF_EMPTY,
        /** appends {@code , value} to its value, or sets it when it is absent */
        APPEND,
        /** removes every value */
        REMOVE
    }

    /** The header's value after this edit, given its value before ({@code null}: absent); {@code null}: removed. */
    public String applyTo(String before) {
        return switch (kind) {
            case SET -> value;
            case SET_IF_EMPTY -> before == null || before.isEmpty() ? value : before;
            case APPEND -> before == null || before.isEmpty() ? value : before + ", " + value;
            case REMOVE -> null;
        };
    }

    @Override
    public String toString() {
        return kind == Kind.REMOVE ? "remove " + name : kind.name().toLowerCase(java.util.Locale.ROOT) + " " + name
                + ": " + value;
    }
}
