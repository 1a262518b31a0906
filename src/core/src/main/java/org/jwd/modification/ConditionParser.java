package org.jwd.modification;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads an {@code if} line: {@code if <string> <compop> <pattern> [AND|OR]}, optionally followed, on the same line,
 * by the rule it guards (as SAP's release 7.40 writes {@code if <string> <compop> <pattern> [op] <rule>}).
 */
final class ConditionParser {
    private static final String SYNTAX = "if <string> <compop> <pattern> [AND|OR], <compop> one of regmatch,"
            + " regimatch, strcmp, stricmp, =, !=, <, >, <=, >=, each but != negated by a leading !";

    /**
     * An {@code if} line read.
     *
     * @param rest the words after the condition: the rule it guards, when written on the same line; else empty
     */
    record Read(Condition condition, List<Tokens.Token> rest) {
    }

    private ConditionParser() {
    }

    /** @throws IllegalArgumentException naming what is wrong with the line */
    static Read parse(Where where, List<Tokens.Token> words) {
        if (words.size() < 4) {
            throw new IllegalArgumentException("expected " + SYNTAX);
        }
        Template subject = Template.parse(words.get(1).text(), false);
        String op = words.get(2).text();
        boolean negated = op.startsWith("!") && !op.equals("!=");
        Condition.Compare compare = Condition.Compare.of(negated ? op.substring(1) : op);
        if (compare == null || words.get(2).quoted()) {
            throw new IllegalArgumentException("unknown operator '" + op + "': expected " + SYNTAX);
        }
        String operand = words.get(3).text();
        Regex regex = compare.isRegex() ? compile(operand, compare == Condition.Compare.REGIMATCH) : null;
        Template text = compare.isRegex() ? null : Template.parse(operand, false);
        Condition.Join join = null;
        int next = 4;
        if (words.size() > 4 && !words.get(4).quoted()) {
            join = join(words.get(4).text());
            next = join == null ? 4 : 5;
        }
        return new Read(new Condition(where, subject, compare, negated, regex, text, join),
                words.subList(next, words.size()));
    }

    private static Condition.Join join(String word) {
        if (word.equalsIgnoreCase("[and]")) {
            return Condition.Join.AND;
        }
        if (word.equalsIgnoreCase("[or]")) {
            return Condition.Join.OR;
        }
        if (word.startsWith("[") && word.endsWith("]")) {
            throw new IllegalArgumentException("unknown link " + word + ": expected [AND] or [OR] (a condition"
                    + " takes no modifier; its rule does)");
        }
        return null;
    }

    /**
     * A pattern of a condition or a URL rule, compiled once. A pattern that starts with {@code *}, which no regular
     * expression can, is read as SAP's own examples mean it ({@code *.wdf.sap.com}, {@code *;o=SYS*}): the
     * {@code *} stands for any text.
     *
     * @throws IllegalArgumentException with the regular expression's error
     */
    static Regex compile(String pattern, boolean ignoreCase) {
        String regex = pattern.startsWith("*") ? "." + pattern : pattern;
        try {
            return new Regex(Pattern.compile(regex, ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0));
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("'" + pattern + "' is no regular expression: "
                    + e.getDescription() + " near index " + e.getIndex());
        }
    }
}
