package org.jwd.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The answers a health check takes as good ({@code health.status}, {@code server.<id>.health_status}): status codes,
 * ranges and classes, comma-separated: {@code 200-399} (the default: 2xx and 3xx; a 404 of a misdeployed server
 * is down), {@code 2xx}, {@code 200,204}.
 *
 * @param text   as written, for messages and the page
 * @param ranges inclusive {@code [from, to]} pairs
 */
public record ExpectedStatus(String text, List<int[]> ranges) {
    public static final ExpectedStatus DEFAULT = parse("200-399");
    public static final String EXPECTED = "status codes, ranges or classes, comma-separated (200-399, 2xx, 200,204)";

    public ExpectedStatus {
        ranges = List.copyOf(ranges);
    }

    /** @throws IllegalArgumentException naming the item that is none of these */
    public static ExpectedStatus parse(String text) {
        List<int[]> ranges = new ArrayList<>();
        for (String item : text.split(",")) {
            String s = item.strip().toLowerCase(java.util.Locale.ROOT);
            int dash = s.indexOf('-');
            int[] range;
            if (s.length() == 3 && s.endsWith("xx") && s.charAt(0) >= '1' && s.charAt(0) <= '5') {
                int base = (s.charAt(0) - '0') * 100;
                range = new int[] {base, base + 99};
            } else if (dash > 0) {
                range = new int[] {code(s.substring(0, dash)), code(s.substring(dash + 1))};
            } else {
                range = new int[] {code(s), code(s)};
            }
            if (range[0] > range[1]) {
                throw new IllegalArgumentException("'" + item.strip() + "' ends before it begins");
            }
            ranges.add(range);
        }
        return new ExpectedStatus(text.strip(), ranges);
    }

    private static int code(String s) {
        int code = Integer.parseInt(s.strip());
        if (code < 100 || code > 599) {
            throw new IllegalArgumentException("'" + s + "' is no status code (100 to 599)");
        }
        return code;
    }

    public boolean matches(int status) {
        for (int[] r : ranges) {
            if (status >= r[0] && status <= r[1]) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExpectedStatus other && other.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
