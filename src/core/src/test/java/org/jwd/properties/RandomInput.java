package org.jwd.properties;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Draws the input of one try of a property from a seeded {@link SplittableRandom}: a piece of a list, a number,
 * a string over an alphabet or over all of UTF-16, a list of pieces. The same seed gives the same input.
 *
 * <p>Sizes favour their bounds ({@link #size}): the empty string, the single piece and the longest list are where
 * parsers break, and a uniform draw would rarely reach them. {@link #anyChars} favours the characters text
 * handling gets wrong: controls, NUL, lone surrogates, supplementary characters, non-characters.
 */
public final class RandomInput {

    /** ASCII letters and digits. */
    public static final String ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    /** Visible ASCII, '!' to '~'. */
    public static final String VISIBLE_ASCII = range('!', '~');

    private static final String[] ODD_CHARS = {
            "\u0000", "\u0001", "\t", "\n", "\r", "\u001f", " ", "\u007f", "\u0080", "\u0085", "\u00a0", "\u00ff",
            "\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\uD83D\uDE00", "\uDBFF\uDFFF", "\uFEFF", "\uFFFD", "\uFFFE",
            "\uFFFF", "%", ";", "/", "\\", "\"", "=", "."};

    private final SplittableRandom random;

    public RandomInput(SplittableRandom random) {
        this.random = random;
    }

    /** A number from {@code min} to {@code max}, both included, uniformly. */
    public int between(int min, int max) {
        return random.nextInt(min, max + 1);
    }

    /** A size from {@code min} to {@code max}: each bound one time in ten, else uniformly. */
    public int size(int min, int max) {
        int edge = random.nextInt(10);
        return edge == 0 ? min : edge == 1 ? max : between(min, max);
    }

    /** True with the given probability. */
    public boolean chance(double probability) {
        return random.nextDouble() < probability;
    }

    /** The index of a choice, each one as likely as its weight: {@code weighted(6, 2, 1)} is 0 two times in three. */
    public int weighted(int... weights) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int r = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            r -= weights[i];
            if (r < 0) {
                return i;
            }
        }
        throw new AssertionError("unreachable");
    }

    @SafeVarargs
    public final <T> T pick(T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    public <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    /** {@code min} to {@code max} characters of {@code alphabet}. */
    public String chars(String alphabet, int min, int max) {
        int n = size(min, max);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    /**
     * Up to {@code max} UTF-16 units of any kind (a supplementary character counts two): half of them anywhere in
     * '\u0000'..'\uFFFF' (so lone surrogates too), a quarter visible ASCII, a quarter from a list of odd ones.
     */
    public String anyChars(int max) {
        int n = size(0, max);
        StringBuilder sb = new StringBuilder(n + 1);
        while (sb.length() < n) {
            switch (random.nextInt(4)) {
                case 0, 1 -> sb.append((char) random.nextInt(0x10000));
                case 2 -> sb.append(VISIBLE_ASCII.charAt(random.nextInt(VISIBLE_ASCII.length())));
                default -> sb.append(pick(ODD_CHARS));
            }
        }
        return sb.toString();
    }

    /** {@code min} to {@code max} pieces, joined with {@code separator}. */
    public String joined(int min, int max, String separator, Supplier<String> piece) {
        int n = size(min, max);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(separator);
            }
            sb.append(piece.get());
        }
        return sb.toString();
    }

    /** {@code min} to {@code max} elements. */
    public <T> List<T> listOf(int min, int max, Supplier<T> element) {
        int n = size(min, max);
        List<T> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(element.get());
        }
        return list;
    }

    private static String range(char from, char to) {
        StringBuilder sb = new StringBuilder();
        for (char c = from; c <= to; c++) {
            sb.append(c);
        }
        return sb.toString();
    }
}
