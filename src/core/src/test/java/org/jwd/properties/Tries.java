package org.jwd.properties;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs a property on many generated inputs: try {@code i} draws its input from a {@link SplittableRandom} seeded
 * with {@code seed + i}. The seed is {@value #DEFAULT_SEED} unless {@code -Djwd.seed=N} says otherwise, so a run
 * is reproducible, and another seed explores other inputs.
 *
 * <p>A failure names the failing try's own seed: run the test again with {@code -Djwd.seed=} that seed and its
 * first try is the failing one. Inputs given as strings are shrunk first (pieces removed while the property
 * still fails the same way), and the message shows them escaped, so that controls and surrogates are visible.
 *
 * <p>Written for jwd instead of using a property-testing library: jqwik, the one issue #10 suggested, asks not
 * to be used by AI agents, who develop this project.
 */
public final class Tries {

    public static final String SEED_PROPERTY = "jwd.seed";
    public static final long DEFAULT_SEED = 20_261_130L;

    /** How many more runs of the property shrinking may cost: it stops there, with the smallest input so far. */
    private static final int SHRINK_BUDGET = 3000;
    /** Up to this length, shrinking tries removing every piece of every size. */
    private static final int SMALL = 40;
    private static final int QUOTE_LIMIT = 2000;

    private Tries() {
    }

    /** Runs {@code property} on {@code tries} inputs from {@code generator}; fails on the first that fails. */
    public static <T> void forAll(int tries, Function<RandomInput, T> generator, Consumer<T> property) {
        run(tries, generator, property, null);
    }

    /** {@link #forAll} on strings, which are shrunk before the failure is reported. */
    public static void forAllStrings(int tries, Function<RandomInput, String> generator, Consumer<String> property) {
        run(tries, generator, property, Tries::shrink);
    }

    /** A property that throws a checked exception (when it calls code that declares one). */
    public interface CheckedConsumer<T> {
        void accept(T t) throws Exception;
    }

    /** Adapts a property that declares a checked exception; the exception fails the try like any other. */
    public static <T> Consumer<T> checked(CheckedConsumer<T> property) {
        return t -> {
            try {
                property.accept(t);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError("threw " + e, e);
            }
        };
    }

    /** The base seed: {@code -Djwd.seed} or {@link #DEFAULT_SEED}. */
    public static long seed() {
        String value = System.getProperty(SEED_PROPERTY);
        if (value == null || value.isBlank()) {
            return DEFAULT_SEED;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "-D" + SEED_PROPERTY + "=" + value + ": expected a whole number (a long)");
        }
    }

    private interface Shrinker<T> {
        Shrunk<T> shrink(T failing, Throwable failure, Consumer<T> property);
    }

    private record Shrunk<T>(T input, Throwable failure, int steps) {
    }

    private static <T> void run(int tries, Function<RandomInput, T> generator, Consumer<T> property,
                                Shrinker<T> shrinker) {
        String test = callingTest();
        long base = seed();
        for (int i = 0; i < tries; i++) {
            long seed = base + i;
            T input = generator.apply(new RandomInput(new SplittableRandom(seed)));
            Throwable failure = failure(property, input);
            if (failure != null) {
                StringBuilder message = new StringBuilder()
                        .append(test).append(": try ").append(i + 1).append(" of ").append(tries)
                        .append(" failed (run it again with -Dtest=").append(test)
                        .append(" -D").append(SEED_PROPERTY).append('=').append(seed).append(")\n")
                        .append("  input: ").append(quote(input)).append('\n');
                Throwable cause = failure;
                if (shrinker != null) {
                    Shrunk<T> shrunk = shrinker.shrink(input, failure, property);
                    if (shrunk.steps() > 0) {
                        message.append("  shrunk in ").append(shrunk.steps())
                                .append(shrunk.steps() == 1 ? " step to: " : " steps to: ")
                                .append(quote(shrunk.input())).append('\n');
                        cause = shrunk.failure();
                    }
                }
                message.append("  failure: ").append(cause);
                throw new AssertionError(message.toString(), cause);
            }
        }
    }

    private static <T> Throwable failure(Consumer<T> property, T input) {
        try {
            property.accept(input);
            return null;
        } catch (StackOverflowError | Exception | AssertionError e) {
            return e;
        }
    }

    /**
     * Removes pieces of the failing string while the property still fails with the same kind of failure, until
     * no single removal does or the budget is spent. A long string loses aligned chunks of halving sizes; a short
     * one (what is left) every piece of every size, so that a multi-byte escape in the middle can go at once.
     */
    private static Shrunk<String> shrink(String failing, Throwable failure, Consumer<String> property) {
        String current = failing;
        Throwable currentFailure = failure;
        int steps = 0;
        int budget = SHRINK_BUDGET;
        boolean removed = true;
        while (removed && budget > 0) {
            removed = false;
            boolean small = current.length() <= SMALL;
            int first = small ? current.length() : current.length() / 2;
            search:
            for (int size = first; size >= 1; size = small ? size - 1 : size / 2) {
                for (int from = 0; from + size <= current.length(); from += small ? 1 : size) {
                    if (budget-- <= 0) {
                        break search;
                    }
                    String candidate = current.substring(0, from) + current.substring(from + size);
                    Throwable f = failure(property, candidate);
                    if (f != null && f.getClass() == currentFailure.getClass()) {
                        current = candidate;
                        currentFailure = f;
                        steps++;
                        removed = true;
                        break search;
                    }
                }
            }
        }
        return new Shrunk<>(current, currentFailure, steps);
    }

    /**
     * The input as Java would write it: strings in quotes with controls, non-ASCII and surrogates as
     * {@code \\uXXXX}; lists and records through their {@code toString} of quoted strings; long ones cut.
     */
    public static String quote(Object input) {
        if (input == null) {
            return "null";
        }
        if (input instanceof String s) {
            return quoteString(s);
        }
        if (input instanceof Number || input instanceof Boolean) {
            return input.toString();
        }
        if (input instanceof List<?> list) {
            List<String> quoted = new ArrayList<>();
            for (Object o : list) {
                quoted.add(quote(o));
            }
            return quoted.toString();
        }
        if (input instanceof Record r) {
            StringBuilder sb = new StringBuilder(r.getClass().getSimpleName()).append('[');
            var components = r.getClass().getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                try {
                    components[i].getAccessor().setAccessible(true);
                    sb.append(i == 0 ? "" : ", ").append(components[i].getName()).append('=')
                            .append(quote(components[i].getAccessor().invoke(r)));
                } catch (ReflectiveOperationException e) {
                    sb.append("?");
                }
            }
            return sb.append(']').toString();
        }
        return quoteString(input.toString());
    }

    private static String quoteString(String s) {
        StringBuilder sb = new StringBuilder("\"");
        int end = Math.min(s.length(), QUOTE_LIMIT);
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7F) {
                sb.append(c);
            } else {
                sb.append(String.format("\\u%04X", (int) c));
            }
        }
        sb.append('"');
        if (s.length() > end) {
            sb.append("... (").append(s.length()).append(" characters, the first ").append(end).append(" shown)");
        }
        return sb.toString();
    }

    /** Class#method of the test that called, for the message's -Dtest=. */
    private static String callingTest() {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(f -> !f.getClassName().equals(Tries.class.getName()))
                .findFirst()
                .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "#" + f.getMethodName())
                .orElse("?"));
    }
}
