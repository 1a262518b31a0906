package org.jwd.config;

import java.time.Duration;
import java.util.Locale;

/**
 * Reads durations. jwd's own keys take a number with a unit ({@code 500ms}, {@code 30s}, {@code 10m},
 * {@code 1h}; {@code 0} alone where zero means off): a bare number would be read as milliseconds by some and as
 * seconds by others, so it is refused. SAP's keys keep SAP's units: seconds for the {@code wdisp/} and
 * {@code rdisp/} time values ({@link #parseSeconds}), milliseconds for the Java dispatcher's
 * {@code SessionTableTimeout} ({@link #parseMillis}); a unit is accepted there too.
 */
public final class Durations {
    public static final String EXPECTED = "a number with a unit (500ms, 30s, 10m, 1h)";
    /** What a bare number for one of jwd's keys is told. */
    public static final String ADD_A_UNIT = "a number with a unit: add a unit (500ms, 30s, 10m, 1h)";

    private Durations() {
    }

    /**
     * A number with a unit, or {@code 0}.
     *
     * @throws IllegalArgumentException when {@code text} is not one of the accepted forms, is negative, or is a
     *                                  number other than 0 without a unit
     */
    public static Duration parse(String text) {
        if (isBareNumber(text) && !text.strip().chars().allMatch(c -> c == '0')) {
            throw new IllegalArgumentException("a bare number: '" + text + "'");
        }
        return parseMillis(text);
    }

    /** Whether {@code text} is digits alone: a duration without its unit. */
    public static boolean isBareNumber(String text) {
        String s = text.strip();
        return !s.isEmpty() && s.chars().allMatch(Character::isDigit);
    }

    /**
     * SAP's millisecond-valued {@code SessionTableTimeout}: a plain number is milliseconds; a unit may be given as in
     * {@link #parse}.
     *
     * @throws IllegalArgumentException when {@code text} is not one of the accepted forms or is negative
     */
    public static Duration parseMillis(String text) {
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
        if (s.length() < 16 && isBareNumber(s)) {
            return Duration.ofSeconds(Long.parseLong(s));
        }
        return parseMillis(s);
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
