package org.jwd.systems;

/**
 * The system of a request, and why; or no system, with what the request was, for the 404.
 *
 * @param system      the system, {@code null} when none matched and no default system is configured
 * @param explanation why, as the admin page's explain and the debug headers show it:
 *                    {@code system ERP: SRCURL /sap/ matched}
 */
public record Selection(SystemEntry system, String explanation) {
    private static final int MAX_QUOTED = 200;

    /** Whether a system takes the request; if not, the answer is 404 with {@link #explanation()}. */
    public boolean found() {
        return system != null;
    }

    /**
     * {@code 'text'} with control and non-ASCII characters escaped and at most 200 characters kept: a client's
     * {@code Host} header goes into log lines and error pages through here, and must not forge either.
     */
    static String quote(String text) {
        if (text == null) {
            return "(none)";
        }
        StringBuilder sb = new StringBuilder("'");
        for (int i = 0; i < text.length() && i < MAX_QUOTED; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '\'' || c == '\\') {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append(text.length() > MAX_QUOTED ? "...'" : "'").toString();
    }

    @Override
    public String toString() {
        return explanation;
    }
}
