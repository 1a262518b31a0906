package org.jwd.modification;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The action file's two readings of a URL and back: SAP matches its patterns against the URL-decoded path
 * ({@code %xx} turned into the character it stands for), and a rewritten URL is URL-encoded again before it goes on,
 * unless the rule says {@code [noescape]}.
 *
 * <p>Only paths the {@link org.jwd.routing.PathNormalizer} accepted are decoded here, so every escape is well formed;
 * what is not (a rule's own output read back) is kept as written rather than guessed at.
 */
final class PathCodec {
    /**
     * Characters a path keeps raw when encoded: RFC 3986's pchar and '/', so that the segments, the path parameters
     * ({@code ;x=y}) and the mangled segments ({@code /sap(bD1lbiZjPTAwMQ==)/}) stay what they are.
     */
    private static final boolean[] PATH_RAW = allowed("/;:@!$&'()*+,=");
    /** A query keeps its separators raw: {@code ?} and {@code /} too (RFC 3986's query production). */
    private static final boolean[] QUERY_RAW = allowed("/;:@!$&'()*+,=?");
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PathCodec() {
    }

    private static boolean[] allowed(String extra) {
        boolean[] raw = new boolean[128];
        String unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
        for (char c : (unreserved + extra).toCharArray()) {
            raw[c] = true;
        }
        return raw;
    }

    /** {@code raw} with every {@code %xx} decoded as UTF-8; {@code raw} itself when it has none. */
    static String decode(String raw) {
        int percent = raw.indexOf('%');
        if (percent < 0) {
            return raw;
        }
        StringBuilder sb = new StringBuilder(raw.length());
        sb.append(raw, 0, percent);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int i = percent;
        while (i < raw.length()) {
            char c = raw.charAt(i);
            int hi = i + 2 < raw.length() && c == '%' ? Character.digit(raw.charAt(i + 1), 16) : -1;
            int lo = hi < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
            if (lo >= 0) {
                bytes.write(hi << 4 | lo);
                i += 3;
                continue;
            }
            flush(bytes, sb);
            sb.append(c);
            i++;
        }
        flush(bytes, sb);
        return sb.toString();
    }

    private static void flush(ByteArrayOutputStream bytes, StringBuilder sb) {
        if (bytes.size() > 0) {
            sb.append(bytes.toString(StandardCharsets.UTF_8));
            bytes.reset();
        }
    }

    /** A decoded path written back: '%', blanks, '?', '#' and what is not ASCII percent-encoded as UTF-8. */
    static String encodePath(String decoded) {
        return encode(decoded, PATH_RAW);
    }

    /** A query written back as {@link #encodePath} does, its {@code ?}, {@code &} and {@code =} kept. */
    static String encodeQuery(String decoded) {
        return encode(decoded, QUERY_RAW);
    }

    private static String encode(String s, boolean[] raw) {
        int i = 0;
        while (i < s.length() && s.charAt(i) < 128 && raw[s.charAt(i)]) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16).append(s, 0, i);
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c < 128 && raw[c]) {
                sb.append(c);
                i++;
                continue;
            }
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                sb.append('%').append(HEX[b >> 4 & 0xF]).append(HEX[b & 0xF]);
            }
        }
        return sb.toString();
    }
}
