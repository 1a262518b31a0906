package org.jwd.modification;

import java.util.ArrayList;
import java.util.List;

/**
 * The words of an action file's line: separated by blanks; a word in double quotes ({@code "GET"}, {@code "a b"})
 * keeps its blanks and loses its quotes.
 */
final class Tokens {
    /** A word; {@code quoted} when it was written in quotes (then it is never a modifier or a keyword). */
    record Token(String text, boolean quoted) {
        /** Whether it is the keyword {@code word}, in any case. */
        boolean is(String word) {
            return !quoted && text.equalsIgnoreCase(word);
        }

        @Override
        public String toString() {
            return quoted ? '"' + text + '"' : text;
        }
    }

    private Tokens() {
    }

    /** @throws IllegalArgumentException for a quote that is not closed */
    static List<Token> of(String line) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            if (Character.isWhitespace(line.charAt(i))) {
                i++;
            } else if (line.charAt(i) == '"') {
                int end = line.indexOf('"', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("the quote at column " + (i + 1) + " is not closed");
                }
                tokens.add(new Token(line.substring(i + 1, end), true));
                i = end + 1;
            } else {
                int start = i;
                while (i < n && !Character.isWhitespace(line.charAt(i))) {
                    i++;
                }
                tokens.add(new Token(line.substring(start, i), false));
            }
        }
        return tokens;
    }

    /**
     * Takes the modifiers off the end of a rule's words: every trailing bracket group ({@code [break]},
     * {@code [break, noescape]}, {@code [break] [noescape]}), each returned as its content.
     */
    static List<String> modifiers(List<Token> words) {
        List<String> groups = new ArrayList<>();
        while (!words.isEmpty()) {
            Token last = words.get(words.size() - 1);
            if (last.quoted() || !last.text().endsWith("]")) {
                break;
            }
            int start = words.size() - 1;
            while (start > 0 && !(words.get(start).text().startsWith("[") && !words.get(start).quoted())) {
                start--;
            }
            if (!words.get(start).text().startsWith("[") || start == 0) {
                break;
            }
            StringBuilder group = new StringBuilder();
            for (Token t : words.subList(start, words.size())) {
                group.append(group.isEmpty() ? "" : " ").append(t.text());
            }
            groups.add(0, group.substring(1, group.length() - 1));
            words.subList(start, words.size()).clear();
        }
        return groups;
    }
}
