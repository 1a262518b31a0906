package org.jwd.modification;

/**
 * A rule of an action file that took effect on a request, and what it did: what the explain endpoint lists and what
 * the access log's reason names.
 *
 * @param where  the rule's line
 * @param effect what it did: {@code header clientProtocol set}, {@code rewritten to /index.html}, ...
 */
public record Fired(Where where, String effect) {
    @Override
    public String toString() {
        return where.place() + " " + where.text() + ": " + effect;
    }
}
