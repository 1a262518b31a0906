package org.jwd.modification;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.MatchResult;

/**
 * A text of an action file with its variables ({@code %{HTTP_HOST}}) and, in a rule's substitution, the groups of
 * its pattern ({@code $1}), taken apart once when the file is read: a request only concatenates.
 */
final class Template {
    /** One piece: a literal, a variable, or a group of the rule's match. */
    private interface Part {
        void appendTo(StringBuilder sb, Context context, MatchResult match);
    }

    private final String text;
    private final Part[] parts;
    /** the whole text when it has no variable and no group */
    private final String literal;
    /** the highest {@code $n} it names; 0 for none */
    private final int maxGroup;
    /** the variable when the text is nothing else ({@code %{SERVER_PROTOCOL}}): its value is the text, as it is */
    private final Variables.Value single;

    private Template(String text, List<Part> parts, int maxGroup, Variables.Value single) {
        this.text = text;
        this.parts = parts.toArray(new Part[0]);
        this.literal = null;
        this.maxGroup = maxGroup;
        this.single = single;
    }

    private Template(String text) {
        this.text = text;
        this.parts = new Part[0];
        this.literal = text;
        this.maxGroup = 0;
        this.single = null;
    }

    /**
     * @param groups whether {@code $n} names a group of the rule's pattern (a substitution); elsewhere a {@code $}
     *               followed by a digit is refused rather than read as text
     * @throws IllegalArgumentException naming what is wrong: an unknown variable, an unclosed {@code %{}
     */
    static Template parse(String text, boolean groups) {
        if (text.indexOf('%') < 0 && text.indexOf('$') < 0) {
            return new Template(text);
        }
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int maxGroup = 0;
        Variables.Value last = null;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '%' && text.startsWith("%{", i)) {
                flush(literal, parts);
                int end = text.indexOf('}', i);
                last = variable(text, i, end);
                Variables.Value value = last;
                parts.add((sb, context, match) -> append(sb, value.of(context)));
                i = end + 1;
            } else if (c == '$' && i + 1 < text.length() && Character.isDigit(text.charAt(i + 1))) {
                flush(literal, parts);
                int group = group(text, i, groups);
                maxGroup = Math.max(maxGroup, group);
                parts.add((sb, context, match) -> append(sb, group(match, group)));
                i += 2;
            } else {
                literal.append(c);
                i++;
            }
        }
        if (parts.isEmpty()) {
            return new Template(literal.toString());
        }
        flush(literal, parts);
        // one part and a variable read: the text is that variable and nothing else
        return new Template(text, parts, maxGroup, parts.size() == 1 ? last : null);
    }

    /** The variable {@code %{...}} at {@code from}, closed at {@code end} ({@code -1}: not closed). */
    private static Variables.Value variable(String text, int from, int end) {
        if (end < 0) {
            throw new IllegalArgumentException("'%{' without its '}' in '" + text + "'");
        }
        return Variables.compile(text.substring(from + 2, end));
    }

    /** The group {@code $n} at {@code at}; refused where no pattern's groups are in reach. */
    private static int group(String text, int at, boolean groups) {
        if (!groups) {
            throw new IllegalArgumentException("'" + text.substring(at, at + 2) + "' in '" + text + "': only a"
                    + " rule's substitution can name a group of its pattern");
        }
        return text.charAt(at + 1) - '0';
    }

    private static void flush(StringBuilder literal, List<Part> parts) {
        if (!literal.isEmpty()) {
            String piece = literal.toString();
            parts.add((sb, context, match) -> sb.append(piece));
            literal.setLength(0);
        }
    }

    private static void append(StringBuilder sb, String value) {
        if (value != null) {
            sb.append(value);
        }
    }

    private static String group(MatchResult match, int group) {
        return match == null || group > match.groupCount() ? null : match.group(group);
    }

    /** The highest group {@code $n} names; 0 when it names none. */
    int maxGroup() {
        return maxGroup;
    }

    /**
     * The text for this request.
     *
     * @param match the rule's match, for its groups; {@code null} where there is none (a group then reads empty)
     */
    String expand(Context context, MatchResult match) {
        if (literal != null) {
            return literal;
        }
        if (single != null) {
            String value = single.of(context);
            return value == null ? "" : value;
        }
        StringBuilder sb = new StringBuilder(64);
        for (Part part : parts) {
            part.appendTo(sb, context, match);
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return text;
    }
}
