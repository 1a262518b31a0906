package org.jwd.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The words of every configuration problem: {@code file:line: key = 'value': expected …} for a file,
 * {@code key = 'value': expected …} for properties without one, the field's name for a request body; and of the
 * unknown-key rule, which names the key meant and where the known ones are listed.
 */
final class KeyProblems {
    /** Where every key of the file is listed with its meaning. */
    static final String EVERY_KEY = "every key: the README's \"Configuration\" table, config/template.properties";
    private final String source;
    private final Map<String, Integer> lineOf;
    private final boolean fields;
    private final List<String> problems = new ArrayList<>();
    /** For each problem, the key it concerns ({@code null}: another file's, as found there) and its text unlocated. */
    private final List<Unlocated> unlocated = new ArrayList<>();

    /** A problem before {@link #where} located it: what another file's problems need to be located there. */
    record Unlocated(String key, String text) {
    }

    /**
     * @param source how messages name the file, or {@code null}: no file
     * @param fields a request body's fields rather than a file's keys
     */
    KeyProblems(String source, Map<String, Integer> lineOf, boolean fields) {
        this.source = source;
        this.lineOf = lineOf;
        this.fields = fields;
    }

    int count() {
        return problems.size();
    }

    List<String> all() {
        return problems;
    }

    /** Every problem with its key and its text before it was located. */
    List<Unlocated> unlocated() {
        return unlocated;
    }

    /** {@code file:line: text} */
    void add(String key, String text) {
        problems.add(where(key) + text);
        unlocated.add(new Unlocated(key, text));
    }

    /** As found by another file's reader, which names its own file and line. */
    void addAsIs(String text) {
        problems.add(text);
        unlocated.add(new Unlocated(null, text));
    }

    /** Whether {@code text} about {@code key} is reported already, word for word. */
    boolean has(String key, String text) {
        return problems.contains(where(key) + text);
    }

    void missing(String key, String expected) {
        add(key, fields ? key + " = '': expected " + expected + " (required)"
                : key + " is missing: expected " + expected);
    }

    void missingBoth(String key, String other, String who, String expected, String otherExpected) {
        add(key, fields ? key + " = '': expected " + expected + ", or " + other + " = " + otherExpected
                + ", or both (one is required)"
                : key + " and " + other + " are both missing: " + who + " needs " + expected + ", "
                + otherExpected + " or both");
    }

    /**
     * A key no section read: the nearest known key, when one is near ({@link SapProfile#nearest}); the fields of its
     * family ({@code server.<id>.*}) or of a request body, which are few; and where every key is listed, rather than
     * the hundred keys themselves on each such line.
     */
    String unknown(String key, String value, Collection<String> read, List<KeyReader.Family> families) {
        String near = SapProfile.nearest(key, read);
        return where(key) + key + " = '" + value + "': expected " + known(key, read, families)
                + (near == null || near.equals(key) ? "" : "; did you mean " + near + "?");
    }

    private String known(String key, Collection<String> read, List<KeyReader.Family> families) {
        if (fields) {
            return "a known field: one of " + String.join(", ", new TreeSet<>(read));
        }
        for (KeyReader.Family family : families) {
            if (key.startsWith(family.prefix()) && key.indexOf('.', family.prefix().length()) > 0) {
                String block = family.prefix() + key.substring(family.prefix().length()).split("\\.", 2)[0] + ".";
                return "a known " + family.keyNoun() + ": one of " + String.join(", ", read.stream()
                        .filter(k -> k.startsWith(block)).map(k -> k.substring(block.length()))
                        .collect(Collectors.toCollection(TreeSet::new)));
            }
        }
        return "a known key (" + EVERY_KEY + ")";
    }

    private String where(String key) {
        if (source == null) {
            return "";
        }
        Integer line = lineOf.get(key);
        return source + (line == null ? "" : ":" + line) + ": ";
    }
}
