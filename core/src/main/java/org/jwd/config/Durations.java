package org.jwd.config;

import java.time.Duration;
import java.util.Locale;

/**
 * Reads durations in the forms SAP's {@code SessionTableTimeout} accepts: a plain number of milliseconds,
 * or a number with a unit: {@code 500ms}, {@code 30s}, {@code 10m}, {@code 1h}.
 */
public final class Durations {
    public static final String EXPECTED = "milliseconds, or a number with a unit (500ms, 30s, 10m, 1h)";

    private Durations() {
    }

    /** @throws IllegalArgumentException when {@code text} is not one of the accepted forms or is negative */
    public static Duration parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        int unitAt = 0;
        while (unitAt < s.length() && Character.isDigit(s.charAt(unitAt))) {
            unitAt++;
        }
        if (unitAt == 0 || unitAt > 15) {
            throw new IllegalArgumentException("not a duration: '" + text + "'");
        }
        long amount = Long.parseLong(s.substring(0, unitAt));
        return switch (s.substring(unitAt)) {
            case "", "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> throw new IllegalArgumentException("unknown unit in '" + text + "'");
        };
    }

    /**
     * SAP's second-valued parameters ({@code wdisp/HTTP/context_timeout}, {@code rdisp/autoabaptime}...): a plain
     * number is seconds; a unit may be given as in {@link #parse}.
     *
     * @throws IllegalArgumentException when {@code text} is not one of the accepted forms
     */
    public static Duration parseSeconds(String text) {
        String s = text.strip();
        if (!s.isEmpty() && s.length() < 16 && s.chars().allMatch(Character::isDigit)) {
            return Duration.ofSeconds(Long.parseLong(s));
        }
        return parse(s);
    }

    /** The shortest exact form, as an operator would write it. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms != 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms != 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms != 0 && ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
