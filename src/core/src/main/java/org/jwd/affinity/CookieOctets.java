package org.jwd.affinity;

/** RFC 6265's cookie-octets, the characters a cookie value may hold, and the percent-encoding inside them. */
final class CookieOctets {
    private CookieOctets() {
    }

    /** RFC 6265 cookie-octet: %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E. */
    static boolean isOctet(char c) {
        return c >= 0x21 && c <= 0x7E && c != '"' && c != ',' && c != ';' && c != '\\';
    }

    /** Whether {@code s[from, to)} holds cookie-octets only. */
    static boolean all(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!isOctet(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Decodes %XX (hex of either case); the result must be visible ASCII. {@code null} when malformed. */
    static String percentDecoded(String s, int from, int to) {
        if (from >= to) {
            return null;
        }
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%') {
                return decodedFrom(s, from, i, to);
            }
            if (!isOctet(c)) {
                return null;
            }
        }
        return s.substring(from, to);
    }

    /** Decodes {@code s[from, to)}, whose first '%' is at {@code firstPercent}. */
    private static String decodedFrom(String s, int from, int firstPercent, int to) {
        StringBuilder out = new StringBuilder(to - from);
        out.append(s, from, firstPercent);
        for (int i = firstPercent; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= to) {
                    return null;
                }
                int hi = hex(s.charAt(i + 1));
                int lo = hex(s.charAt(i + 2));
                if (hi < 0 || lo < 0) {
                    return null;
                }
                char decoded = (char) (hi << 4 | lo);
                if (decoded < 0x21 || decoded > 0x7E) {
                    return null;
                }
                out.append(decoded);
                i += 2;
            } else if (isOctet(c)) {
                out.append(c);
            } else {
                return null;
            }
        }
        return out.toString();
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
