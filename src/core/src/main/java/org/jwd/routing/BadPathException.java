package org.jwd.routing;

/**
 * A request path that jwd refuses to route: the caller answers 400 and forwards nothing. Checked on
 * purpose, so that no caller can forget that a path may be hostile.
 *
 * <p>The message says what is wrong and quotes the path with control and non-ASCII characters escaped,
 * so that logging it cannot forge log lines.
 */
public final class BadPathException extends Exception {
    private static final int MAX_QUOTED = 200;

    private final String rawPath;
    private final String problem;

    public BadPathException(String rawPath, String problem) {
        super(problem + ": " + quote(rawPath));
        this.rawPath = rawPath;
        this.problem = problem;
    }

    /** What is wrong, without the path. */
    public String problem() {
        return problem;
    }

    /** The path exactly as received; may contain anything, so escape it before showing it. */
    public String rawPath() {
        return rawPath;
    }

    /** The path between quotes, printable ASCII only, at most {@value #MAX_QUOTED} characters of it. */
    static String quote(String raw) {
        if (raw == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(Math.min(raw.length(), MAX_QUOTED) + 8).append('\'');
        int end = Math.min(raw.length(), MAX_QUOTED);
        for (int i = 0; i < end; i++) {
            char c = raw.charAt(i);
            if (c >= 0x20 && c < 0x7F && c != '\\' && c != '\'') {
                sb.append(c);
            } else {
                sb.append(String.format("\\u%04x", (int) c));
            }
        }
        sb.append('\'');
        if (raw.length() > end) {
            sb.append("... (").append(raw.length()).append(" chars)");
        }
        return sb.toString();
    }
}
