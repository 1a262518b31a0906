package org.jwd.routing;

import java.util.HexFormat;

/**
 * One URL prefix of the URL mapping table or of a logon group, as configured.
 *
 * <p>Syntax: a path starting with '/', e.g. {@code /sap/bc/}; written in URL form and normalized like a
 * request path (decoded once, dot segments resolved, parameters dropped), then given a trailing '/' if it
 * has none, because prefixes only ever match whole segments: {@code /irj} and {@code /irj/} are the same
 * prefix, matching {@code /irj} and {@code /irj/x} but not {@code /irjx}.
 *
 * <p>Matching is case-insensitive, as the ABAP server's ICF reads a path: {@code /SAP/BC/x} is served by the
 * ICF's {@code /sap/bc/}, so it must be ABAP here too, or the URL filter, which reads ABAP paths regardless of
 * case, and the classification would disagree on what the path is. The form {@code case:/sap/bc/} makes one
 * prefix case-sensitive, as an ICF service flagged case-sensitive is; {@code icase:/sap/bc/}, the explicit
 * form of the default, is still read (the letters {@code case:} and {@code icase:} may be written in any
 * case). Case-insensitive means equal after {@code Character.toUpperCase} then {@code toLowerCase} per
 * character, the rule of {@link String#equalsIgnoreCase}.
 *
 * @param prefix        normalized, starts and ends with '/'
 * @param caseSensitive true for a {@code case:} prefix
 */
public record UrlPrefix(String prefix, boolean caseSensitive) {
    public static final String ICASE = "icase:";
    public static final String CASE = "case:";

    public UrlPrefix {
        if (prefix == null || !prefix.startsWith("/") || !prefix.endsWith("/")) {
            throw new IllegalArgumentException("a URL prefix must start and end with '/': " + prefix);
        }
    }

    /**
     * Reads {@code /sap/bc/}, {@code /sap/bc}, {@code case:/sap/bc/} or {@code icase:/sap/bc/}.
     *
     * @throws IllegalArgumentException naming the text and what is wrong with it
     */
    public static UrlPrefix parse(String text) {
        String s = text == null ? "" : text.strip();
        boolean caseSensitive = false;
        if (s.regionMatches(true, 0, ICASE, 0, ICASE.length())) {
            s = s.substring(ICASE.length()).strip();
        } else if (s.regionMatches(true, 0, CASE, 0, CASE.length())) {
            caseSensitive = true;
            s = s.substring(CASE.length()).strip();
        }
        if (!s.startsWith("/")) {
            throw new IllegalArgumentException("URL prefix " + BadPathException.quote(text)
                    + ": expected a path starting with '/'"
                    + " (optionally after " + CASE + ")");
        }
        String path;
        try {
            path = PathNormalizer.normalize(encodeLeniently(s)).path();
        } catch (BadPathException e) {
            throw new IllegalArgumentException("URL prefix " + BadPathException.quote(text) + " is not a valid path: "
                    + e.getMessage(), e);
        }
        return new UrlPrefix(path.endsWith("/") ? path : path + "/", caseSensitive);
    }

    /**
     * A configured prefix with every character a request would have to percent-encode (a space, non-ASCII, ...)
     * encoded as UTF-8: a prefix may be written as it reads ({@code /Portal/€/}), while a request path may not.
     */
    private static String encodeLeniently(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        text.codePoints().forEach(cp -> {
            if (cp < 128 && (cp == '/' || cp == '%' || PathDecoder.isPchar((char) cp))) {
                sb.append((char) cp);
            } else {
                for (byte b : new String(Character.toChars(cp)).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                    sb.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
                }
            }
        });
        return sb.toString();
    }

    /** The form {@link #parse} reads: {@code /sap/bc/} or {@code case:/sap/bc/}. */
    @Override
    public String toString() {
        return caseSensitive ? CASE + prefix : prefix;
    }

    /** Whether {@code text} starts with {@code case:} or {@code icase:}, in any case: a prefix in this syntax. */
    static boolean startsWithCaseForm(String text) {
        return text.regionMatches(true, 0, CASE, 0, CASE.length())
                || text.regionMatches(true, 0, ICASE, 0, ICASE.length());
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
