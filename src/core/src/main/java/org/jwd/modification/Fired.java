package org.jwd.modification;

/**
 * A rule of an action file that took effect on a request, and what it did: what the explain endpoint lists and what
 * the access log's reason names. Its text is put together only when asked for: a request pays for the record alone.
 *
 * @param where  the rule's line
 * @param verb   what it did: {@code header }, {@code rewritten to }, {@code forbidden (403)}, ...
 * @param detail what it did it with (a header's change, the new URL), or {@code null}
 */
public record Fired(Where where, String verb, Object detail) {
    static final String HEADER = "header ";
    static final String RESPONSE_HEADER = "response header ";
    static final String REWRITTEN = "rewritten to ";
    static final String REDIRECTED = "redirected to ";
    static final String FORBIDDEN = "forbidden (403)";
    static final String GONE = "gone (410)";

    /** {@code header set clientProtocol: http}, {@code rewritten to /index.html}, ... */
    public String effect() {
        return detail == null ? verb : verb + detail;
    }

    @Override
    public String toString() {
        return where.place() + " " + where.text() + ": " + effect();
    }
}
