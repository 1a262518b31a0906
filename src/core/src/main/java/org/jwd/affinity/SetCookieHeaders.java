package org.jwd.affinity;

/**
 * Reads what a server's {@code Set-Cookie} answers say about sessions, so that the session table learns the
 * sessions servers start. Malformed headers say nothing (never an exception).
 */
public final class SetCookieHeaders {
    private SetCookieHeaders() {
    }

    /** The JSESSIONID this header sets, or {@code null} (another cookie, malformed, or one being deleted). */
    public static String jsessionid(String setCookieHeader) {
        return valueOf(setCookieHeader, SessionCookies.JSESSIONID);
    }

    /** Whether this header sets a {@code saplb_*} or {@code saplb_<group>} cookie. */
    public static boolean isSaplb(String setCookieHeader) {
        return setCookieHeader != null && setCookieHeader.stripLeading().startsWith(SessionCookies.SAPLB_PREFIX);
    }

    static String valueOf(String header, String name) {
        if (header == null) {
            return null;
        }
        String h = header.stripLeading();
        if (!h.regionMatches(true, 0, name, 0, name.length()) || h.length() <= name.length()) {
            return null;
        }
        int i = name.length();
        while (i < h.length() && h.charAt(i) == ' ') {
            i++;
        }
        if (i >= h.length() || h.charAt(i) != '=') {
            return null;
        }
        int end = h.indexOf(';', i + 1);
        String value = (end < 0 ? h.substring(i + 1) : h.substring(i + 1, end)).strip();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        if (value.isEmpty() || value.length() > SessionCookies.MAX_SESSION_ID_LENGTH
                || !SessionCookies.isSessionId(value, 0, value.length()) || isDeletion(h)) {
            return null;
        }
        return value;
    }

    /** A cookie set with Max-Age=0 or an expiry in the past is being deleted, not started. */
    private static boolean isDeletion(String header) {
        // Case-insensitive search without a lower-cased copy: this runs for every Set-Cookie a server sends.
        return containsIgnoreCase(header, "max-age=0") || containsIgnoreCase(header, "expires=thu, 01 jan 1970")
                || containsIgnoreCase(header, "expires=thu, 01-jan-1970");
    }

    private static boolean containsIgnoreCase(String text, String lowerCaseNeedle) {
        for (int i = 0, last = text.length() - lowerCaseNeedle.length(); i <= last; i++) {
            if (text.regionMatches(true, i, lowerCaseNeedle, 0, lowerCaseNeedle.length())) {
                return true;
            }
        }
        return false;
    }
}
