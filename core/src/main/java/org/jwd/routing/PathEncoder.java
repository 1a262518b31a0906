package org.jwd.routing;

/**
 * Writes a decoded segment name or path parameter back in the one encoding jwd forwards: every character
 * that is not allowed raw, and '%' itself, percent-encoded as UTF-8. What is allowed raw is RFC 3986's pchar
 * without ';' (jwd's parameter separator), and for a parameter's name without '=' (which ends the name), so
 * that the forwarded path reads back as the same segments and parameters.
 */
final class PathEncoder {
    /** Characters a segment name or a parameter's value may carry unencoded. */
    private static final boolean[] NAME_RAW = new boolean[128];
    /** A parameter's name: as a segment name, without '='. */
    private static final boolean[] PARAMETER_NAME_RAW = new boolean[128];
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    static {
        String unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
        String subDelimsButSemicolon = "!$&'()*+,=";
        for (char c : (unreserved + subDelimsButSemicolon + ":@").toCharArray()) {
            NAME_RAW[c] = true;
            PARAMETER_NAME_RAW[c] = true;
        }
        PARAMETER_NAME_RAW['='] = false;
    }

    private PathEncoder() {
    }

    /** True when c stands for itself in a segment name, so that a name of such characters is forwarded as is. */
    static boolean isRawInName(char c) {
        return c < 128 && NAME_RAW[c];
    }

    /** Appends s[from, to) as a segment name (or a parameter's value). */
    static void appendName(StringBuilder sb, CharSequence s, int from, int to) {
        append(sb, s, from, to, NAME_RAW);
    }

    /** Appends a parameter's name: '=' encoded too, so that the name ends where jwd read it to end. */
    static void appendParameterName(StringBuilder sb, String name) {
        append(sb, name, 0, name.length(), PARAMETER_NAME_RAW);
    }

    private static void append(StringBuilder sb, CharSequence s, int from, int to, boolean[] allowedRaw) {
        int i = from;
        while (i < to) {
            // most characters need no encoding: find the run and append it at once
            int run = i;
            while (i < to && s.charAt(i) < 128 && allowedRaw[s.charAt(i)]) {
                i++;
            }
            if (i > run) {
                sb.append(s, run, i);
            }
            if (i == to) {
                break;
            }
            int cp = Character.codePointAt(s, i);
            i += Character.charCount(cp);
            appendUtf8(sb, cp);
        }
    }

    private static void appendUtf8(StringBuilder sb, int cp) {
        if (cp < 0x80) {
            appendByte(sb, cp);
        } else if (cp < 0x800) {
            appendByte(sb, 0xC0 | cp >> 6);
            appendByte(sb, 0x80 | cp & 0x3F);
        } else if (cp < 0x10000) {
            appendByte(sb, 0xE0 | cp >> 12);
            appendByte(sb, 0x80 | cp >> 6 & 0x3F);
            appendByte(sb, 0x80 | cp & 0x3F);
        } else {
            appendByte(sb, 0xF0 | cp >> 18);
            appendByte(sb, 0x80 | cp >> 12 & 0x3F);
            appendByte(sb, 0x80 | cp >> 6 & 0x3F);
            appendByte(sb, 0x80 | cp & 0x3F);
        }
    }

    private static void appendByte(StringBuilder sb, int b) {
        sb.append('%').append(HEX[b >> 4 & 0xF]).append(HEX[b & 0xF]);
    }
}
