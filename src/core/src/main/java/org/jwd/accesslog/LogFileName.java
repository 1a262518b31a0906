package org.jwd.accesslog;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.regex.Pattern;

/**
 * {@code LOGFILE}'s name with SAP's placeholders: {@code %y} year (four digits), {@code %m} month, {@code %d} day,
 * {@code %h} hour, {@code %t} minute, {@code %s} second (two digits each, so that names sort by time), {@code %%}
 * a percent sign. {@code access_log-%y-%m-%d} is {@code access_log-2026-12-01} on that day.
 */
final class LogFileName {
    private final String pattern;
    private final ZoneId zone;

    private LogFileName(String pattern, ZoneId zone) {
        this.pattern = pattern;
        this.zone = zone;
    }

    /** @throws IllegalArgumentException for an unknown placeholder */
    static LogFileName of(String pattern) {
        return of(pattern, ZoneId.systemDefault());
    }

    static LogFileName of(String pattern, ZoneId zone) {
        for (int i = 0; i < pattern.length(); i++) {
            if (pattern.charAt(i) == '%') {
                if (i + 1 == pattern.length() || "ymdhts%".indexOf(pattern.charAt(i + 1)) < 0) {
                    throw new IllegalArgumentException("'%" + (i + 1 == pattern.length() ? "" : pattern.charAt(i + 1))
                            + "' is no placeholder: expected %y %m %d %h %t %s or %%");
                }
                i++;
            }
        }
        return new LogFileName(pattern, zone);
    }

    /** The name at {@code epochMillis}. */
    String expand(long epochMillis) {
        ZonedDateTime t = Instant.ofEpochMilli(epochMillis).atZone(zone);
        StringBuilder b = new StringBuilder(pattern.length() + 16);
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%') {
                b.append(c);
                continue;
            }
            switch (pattern.charAt(++i)) {
                case 'y' -> b.append(t.getYear());
                case 'm' -> two(b, t.getMonthValue());
                case 'd' -> two(b, t.getDayOfMonth());
                case 'h' -> two(b, t.getHour());
                case 't' -> two(b, t.getMinute());
                case 's' -> two(b, t.getSecond());
                default -> b.append('%');
            }
        }
        return b.toString();
    }

    /** Matches the file names of this log: any time in the placeholders, with or without a {@code _n} suffix. */
    Pattern files() {
        StringBuilder b = new StringBuilder();
        int literal = 0;
        for (int i = 0; i < pattern.length(); i++) {
            if (pattern.charAt(i) == '%') {
                b.append(Pattern.quote(pattern.substring(literal, i)));
                char p = pattern.charAt(++i);
                b.append(p == '%' ? "%" : "\\d{1,4}");
                literal = i + 1;
            }
        }
        b.append(Pattern.quote(pattern.substring(literal))).append("(?:_\\d+)?");
        return Pattern.compile(b.toString());
    }

    ZoneId zone() {
        return zone;
    }

    private static void two(StringBuilder b, int n) {
        if (n < 10) {
            b.append('0');
        }
        b.append(n);
    }

    @Override
    public String toString() {
        return pattern;
    }
}
