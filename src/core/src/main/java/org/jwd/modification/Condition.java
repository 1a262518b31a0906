package org.jwd.modification;

import java.util.Locale;

/**
 * One {@code if <string> <compop> <pattern> [op]} line of an action file ("Defining Conditions"): the string (with
 * variables) compared with the pattern; a leading {@code !} on the operator negates it; {@code [AND]} or
 * {@code [OR]} links it to the next condition, the links read from left to right with equal precedence.
 *
 * @param regex   for {@code regmatch} and {@code regimatch}, the pattern compiled once; else {@code null}
 * @param operand for the other operators, the text compared with (with variables); else {@code null}
 * @param join    how it is linked to the next condition; {@code null} for the last of a chain
 */
record Condition(Where where, Template subject, Compare compare, boolean negated, Regex regex, Template operand,
                 Join join) {
    /** SAP's comparison operators. */
    enum Compare {
        /** the regular expression is found in the string */
        REGMATCH("regmatch"),
        /** the same, regardless of case */
        REGIMATCH("regimatch"),
        /** equal texts */
        STRCMP("strcmp"),
        /** equal texts regardless of case */
        STRICMP("stricmp"),
        EQ("="), NE("!="), LT("<"), GT(">"), LE("<="), GE(">=");

        final String word;

        Compare(String word) {
            this.word = word;
        }

        /** The operator written {@code word} (any case), or {@code null}. */
        static Compare of(String word) {
            for (Compare c : values()) {
                if (c.word.equalsIgnoreCase(word)) {
                    return c;
                }
            }
            return null;
        }

        boolean isRegex() {
            return this == REGMATCH || this == REGIMATCH;
        }
    }

    /** {@code [AND]} or {@code [OR]}. */
    enum Join { AND, OR }

    /** Whether the condition holds for the request as the rules so far left it. */
    boolean holds(Context context) {
        String text = subject.expand(context, null);
        boolean result = switch (compare) {
            case REGMATCH, REGIMATCH -> regex.matcher(text).find();
            case STRCMP -> text.equals(operand.expand(context, null));
            case STRICMP -> text.equalsIgnoreCase(operand.expand(context, null));
            default -> ordered(compareValues(text, operand.expand(context, null)));
        };
        return result != negated;
    }

    /**
     * Numbers compare as numbers ({@code %{SERVER_PORT} = 80}); anything else as texts, character by character.
     */
    private static int compareValues(String a, String b) {
        Long x = number(a);
        Long y = number(b);
        return x != null && y != null ? Long.compare(x, y) : a.compareTo(b);
    }

    private static Long number(String s) {
        String t = s.strip();
        if (t.isEmpty() || t.length() > 18) {
            return null;
        }
        for (int i = t.charAt(0) == '-' ? 1 : 0; i < t.length(); i++) {
            if (!Character.isDigit(t.charAt(i))) {
                return null;
            }
        }
        return t.equals("-") ? null : Long.parseLong(t);
    }

    private boolean ordered(int comparison) {
        return switch (compare) {
            case EQ -> comparison == 0;
            case NE -> comparison != 0;
            case LT -> comparison < 0;
            case GT -> comparison > 0;
            case LE -> comparison <= 0;
            default -> comparison >= 0;
        };
    }

    /** Whether a chain of conditions holds: linked from left to right, each link as the condition before says. */
    static boolean chainHolds(Condition[] chain, Context context) {
        boolean result = chain[0].holds(context);
        for (int i = 1; i < chain.length; i++) {
            Join join = chain[i - 1].join();
            if (join == Join.AND && result) {
                result = chain[i].holds(context);
            } else if (join == Join.OR && !result) {
                result = chain[i].holds(context);
            }
        }
        return result;
    }

    @Override
    public String toString() {
        return "if " + subject + " " + (negated ? "!" : "") + compare.word + " "
                + (regex != null ? regex.pattern() : operand) + (join == null ? "" : " [" + join.name()
                .toLowerCase(Locale.ROOT) + "]");
    }
}
