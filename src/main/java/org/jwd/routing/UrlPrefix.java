package org.jwd.routing;

/**
 * One URL prefix of the URL mapping table or of a logon group, as configured.
 *
 * <p>Syntax: a path starting with '/', e.g. {@code /sap/bc/}; written in URL form and normalized like a
 * request path (decoded once, dot segments resolved, parameters dropped), then given a trailing '/' if it
 * has none, because prefixes only ever match whole segments: {@code /irj} and {@code /irj/} are the same
 * prefix, matching {@code /irj} and {@code /irj/x} but not {@code /irjx}. Matching is case-sensitive; the
 * form {@code icase:/sap/bc/} makes one prefix case-insensitive (the letters {@code icase:} themselves may
 * be written in any case). Case-insensitive means equal after {@code Character.toUpperCase} then
 * {@code toLowerCase} per character, the rule of {@link String#equalsIgnoreCase}.
 *
 * @param prefix        normalized, starts and ends with '/'
 * @param caseSensitive false for an {@code icase:} prefix
 */
public record UrlPrefix(String prefix, boolean caseSensitive) {
    public static final String ICASE = "icase:";

    public UrlPrefix {
        if (prefix == null || !prefix.startsWith("/") || !prefix.endsWith("/")) {
            throw new IllegalArgumentException("a URL prefix must start and end with '/': " + prefix);
        }
    }

    /**
     * Reads {@code /sap/bc/}, {@code /sap/bc} or {@code icase:/sap/bc/}.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    public static UrlPrefix parse(String text) {
        String s = text == null ? "" : text.strip();
        boolean caseSensitive = true;
        if (s.regionMatches(true, 0, ICASE, 0, ICASE.length())) {
            caseSensitive = false;
            s = s.substring(ICASE.length()).strip();
        }
        if (!s.startsWith("/")) {
            throw new IllegalArgumentException("URL prefix " + BadPathException.quote(text)
                    + ": expected a path starting with '/'"
                    + " (optionally after " + ICASE + ")");
        }
        String path;
        try {
            path = PathNormalizer.normalize(s).path();
        } catch (BadPathException e) {
            throw new IllegalArgumentException("URL prefix " + BadPathException.quote(text) + " is not a valid path: "
                    + e.getMessage(), e);
        }
        return new UrlPrefix(path.endsWith("/") ? path : path + "/", caseSensitive);
    }

    /** The form {@link #parse} reads: {@code /sap/bc/} or {@code icase:/sap/bc/}. */
    @Override
    public String toString() {
        return caseSensitive ? prefix : ICASE + prefix;
    }

    /** Folds one character for case-insensitive matching; see the class comment. */
    static char fold(char c) {
        if (c < 128) {
            return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
        }
        return Character.toLowerCase(Character.toUpperCase(c));
    }

    /** The key a case-insensitive prefix is indexed under: every character folded. */
    String foldedPrefix() {
        StringBuilder sb = new StringBuilder(prefix.length());
        for (int i = 0; i < prefix.length(); i++) {
            sb.append(fold(prefix.charAt(i)));
        }
        return sb.toString();
    }
}
