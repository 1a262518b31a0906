package org.jwd.config;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The one way every section of the configuration reads its keys: typed (strings, integers, durations, sizes,
 * booleans, URLs, paths), each problem worded {@code file:line: key = 'value': expected …}, all problems of a file
 * collected and reported together. It records which keys were read, so a key no section read is an unknown key
 * ({@link #checkEveryKeyRead}), and which were read through {@link #restartOnly()}, so the reloader knows which
 * changes wait for a restart without a list of its own.
 *
 * <p>Three kinds of input: a properties file (with line numbers), properties without a file (a section read on
 * its own: messages without location), and the fields of a request body (a server's registration: "field"
 * instead of "key").
 */
public final class KeyReader {
    /** Keys {@code <prefix><id>.<field>}: one block per id, such as {@code server.<id>.*}. */
    public record Family(String prefix, String placeholder, String idExpected, String keyNoun) {
    }

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern SIZE = Pattern.compile("(\\d{1,10})\\s*(|b|k|kb|m|mb)", Pattern.CASE_INSENSITIVE);

    private final String source;
    private final Path directory;
    private final boolean fields;
    private final Map<String, String> values;
    private final Map<String, Integer> lineOf;
    private final List<String> lineProblems;
    private final List<String> problems;
    private final Set<String> read;
    private final Set<String> restartKeys;
    private final List<Family> families;
    /** This view marks what it reads as restart-only. */
    private final boolean restart;

    private KeyReader(String source, Path directory, boolean fields) {
        this.source = source;
        this.directory = directory;
        this.fields = fields;
        this.values = new LinkedHashMap<>();
        this.lineOf = new HashMap<>();
        this.lineProblems = new ArrayList<>();
        this.problems = new ArrayList<>();
        this.read = new LinkedHashSet<>();
        this.restartKeys = new TreeSet<>();
        this.families = new ArrayList<>();
        this.restart = false;
    }

    private KeyReader(KeyReader of) {
        this.source = of.source;
        this.directory = of.directory;
        this.fields = of.fields;
        this.values = of.values;
        this.lineOf = of.lineOf;
        this.lineProblems = of.lineProblems;
        this.problems = of.problems;
        this.read = of.read;
        this.restartKeys = of.restartKeys;
        this.families = of.families;
        this.restart = true;
    }

    /**
     * Reads a properties file line by line, so that a key given twice is an error, not a silent override.
     *
     * @param source    how messages name the file, e.g. its path
     * @param directory the file's directory: where relative paths in it are resolved
     */
    public static KeyReader parse(String text, String source, Path directory) {
        KeyReader reader = new KeyReader(source, directory, false);
        reader.readLines(text);
        return reader;
    }

    /** Properties without a file: messages name the key alone; relative paths are resolved against {@code directory}. */
    public static KeyReader of(Map<String, String> properties, Path directory) {
        KeyReader reader = new KeyReader(null, directory, false);
        reader.values.putAll(properties);
        return reader;
    }

    /** The fields of a request body: messages name the field; an unread one is "a known field". */
    public static KeyReader ofFields(Map<String, String> fields) {
        KeyReader reader = new KeyReader(null, Path.of(""), true);
        reader.values.putAll(fields);
        return reader;
    }

    /** A view of this reader whose reads declare their keys restart-only: a reload keeps their running values. */
    public KeyReader restartOnly() {
        return new KeyReader(this);
    }

    /** Where relative paths are resolved: the configuration file's directory. */
    public Path directory() {
        return directory;
    }

    /** Every key as written, for the admin page's "configuration in force". */
    public Map<String, String> values() {
        return Map.copyOf(values);
    }

    /** The keys read through {@link #restartOnly()}. */
    public Set<String> restartKeys() {
        return Set.copyOf(restartKeys);
    }

    /** The value of {@code key} as written, or {@code null}; the key counts as read. */
    public String raw(String key) {
        read.add(key);
        if (restart) {
            restartKeys.add(key);
        }
        return values.get(key);
    }

    public String string(String key, String fallback) {
        String value = raw(key);
        return value == null ? fallback : value;
    }

    /**
     * The value read by {@code parser}, which returns {@code null} or throws {@link IllegalArgumentException} for a
     * value it refuses; {@code fallback} when the key is absent or refused (then a problem names it).
     */
    public <T> T value(String key, T fallback, String expected, Function<String, T> parser) {
        String value = raw(key);
        if (value == null) {
            return fallback;
        }
        try {
            T result = parser.apply(value);
            if (result != null) {
                return result;
            }
        } catch (IllegalArgumentException e) {
            // reported below with the key, the value and what is expected
        }
        problem(key, expected);
        return fallback;
    }

    public int integer(String key, int fallback, int min, int max, String expected) {
        return value(key, fallback, expected, text -> {
            long v = Long.parseLong(text.strip());
            return v < min || v > max ? null : (int) v;
        });
    }

    public long longInteger(String key, long fallback, long min, long max, String expected) {
        return value(key, fallback, expected, text -> {
            long v = Long.parseLong(text.strip());
            return v < min || v > max ? null : v;
        });
    }

    /** {@code true, 1, on, yes} or {@code false, 0, off, no}, in any case. */
    public boolean bool(String key, boolean fallback) {
        return value(key, fallback, "true or false", text -> switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "on", "yes" -> Boolean.TRUE;
            case "false", "0", "off", "no" -> Boolean.FALSE;
            default -> null;
        });
    }

    /** A duration ({@link Durations#parse}); zero only when {@code zeroAllowed}. */
    public Duration duration(String key, Duration fallback, boolean zeroAllowed, String expected) {
        return value(key, fallback, expected, text -> {
            Duration d = Durations.parse(text);
            return d.isZero() && !zeroAllowed ? null : d;
        });
    }

    /** A positive duration in SAP's second-valued form ({@link Durations#parseSeconds}). */
    public Duration seconds(String key, Duration fallback, String expected) {
        return value(key, fallback, expected, text -> {
            Duration d = Durations.parseSeconds(text);
            return d.isZero() ? null : d;
        });
    }

    /** Bytes: a number, or with a unit {@code KB} or {@code MB}; from {@code min} to {@code max}. */
    public long size(String key, long fallback, long min, long max, String expected) {
        return value(key, fallback, expected, text -> {
            Matcher m = SIZE.matcher(text.strip());
            if (!m.matches()) {
                return null;
            }
            long n = Long.parseLong(m.group(1)) * switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "k", "kb" -> 1024;
                case "m", "mb" -> 1024 * 1024;
                default -> 1;
            };
            return n < min || n > max ? null : n;
        });
    }

    /**
     * A URL of one of {@code schemes} with a host, without user or fragment; without {@code pathAllowed} also without
     * path and query, and then normalized to {@code scheme://authority}.
     */
    public URI url(String key, Set<String> schemes, boolean pathAllowed, String expected) {
        return value(key, null, expected, text -> url(text.strip(), schemes, pathAllowed));
    }

    private static URI url(String text, Set<String> schemes, boolean pathAllowed) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return null;
        }
        if (uri.getScheme() == null || !schemes.contains(uri.getScheme().toLowerCase(Locale.ROOT))
                || uri.getHost() == null || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            return null;
        }
        if (pathAllowed) {
            return uri;
        }
        boolean hasPath = uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/");
        return hasPath || uri.getRawQuery() != null ? null
                : URI.create(uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getRawAuthority());
    }

    /** A file named by the key, resolved against the configuration file's directory; {@code null} when not set. */
    public Path path(String key, String expected) {
        String value = raw(key);
        if (value == null || value.isBlank()) {
            return null;
        }
        return value(key, null, expected, text -> directory.resolve(text.strip()));
    }

    /** The comma-separated entries of the key, stripped, empty ones left out. */
    public List<String> list(String key) {
        String value = raw(key);
        if (value == null || value.isBlank()) {
            return List.of();
        }
        return Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * The ids of the keys {@code <prefix><id>.<field>}, sorted; a key whose id is malformed is a problem. Declares
     * the family, so that an unread field of a valid id is named as this family's unknown key.
     */
    public SortedSet<String> ids(Family family) {
        if (!families.contains(family)) {
            families.add(family);
        }
        SortedSet<String> ids = new TreeSet<>();
        for (String key : values.keySet()) {
            if (!key.startsWith(family.prefix())) {
                continue;
            }
            String rest = key.substring(family.prefix().length());
            int dot = rest.indexOf('.');
            String id = dot < 0 ? rest : rest.substring(0, dot);
            if (dot > 0 && ID.matcher(id).matches()) {
                ids.add(id);
            } else if (dot > 0 && read.add(key)) {
                // named once, whichever section asks first
                problem(key, family.idExpected());
            }
        }
        return ids;
    }

    /** {@code file:line: key = 'value': expected …} */
    public void problem(String key, String expected) {
        problem(key, values.getOrDefault(key, ""), expected);
    }

    /** A problem with one part of the key's value (an entry of a list, a sub-parameter). */
    public void problem(String key, String value, String expected) {
        problems.add(where(key) + key + " = '" + value + "': expected " + expected);
    }

    /** {@code file:line: key = 'value': detail}, for what another reader (a named file) found. */
    public void problemWithValue(String key, String detail) {
        problems.add(where(key) + key + " = '" + values.getOrDefault(key, "") + "': " + detail);
    }

    /** {@code file:line: text}, for a message that must not quote the value (a password) or words its own. */
    public void problemText(String key, String text) {
        problems.add(where(key) + text);
    }

    /** A problem that another file's reader found and named with its own file and line. */
    public void problemInNamedFile(String text) {
        problems.add(text);
    }

    /** A required key is absent. */
    public void missing(String key, String expected) {
        problems.add(fields ? key + " = '': expected " + expected + " (required)"
                : where(key) + key + " is missing: expected " + expected);
    }

    /** Neither of two keys is given, one of which is required; {@code who} is what needs them. */
    public void missingBoth(String key, String other, String who, String expected, String otherExpected) {
        problems.add(fields ? key + " = '': expected " + expected + ", or " + other + " = " + otherExpected
                + ", or both (one is required)"
                : where(key) + key + " and " + other + " are both missing: " + who + " needs " + expected + ", "
                + otherExpected + " or both");
    }

    private String where(String key) {
        if (source == null) {
            return "";
        }
        Integer line = lineOf.get(key);
        return source + (line == null ? "" : ":" + line) + ": ";
    }

    /** How many problems the sections have reported: a section compares it before and after a block. */
    public int problemCount() {
        return problems.size();
    }

    /** @throws ConfigException with every problem found so far, unknown keys aside */
    public void check() throws ConfigException {
        List<String> all = new ArrayList<>(lineProblems);
        all.addAll(problems);
        if (!all.isEmpty()) {
            throw new ConfigException(all);
        }
    }

    /**
     * Called once every section has read its keys: a key no section read is unknown, because a misspelled key
     * silently ignored is a production outage waiting for a restart.
     *
     * @throws ConfigException with every problem, unknown keys first
     */
    public void checkEveryKeyRead() throws ConfigException {
        List<String> all = new ArrayList<>(lineProblems);
        for (String key : values.keySet()) {
            if (!read.contains(key)) {
                all.add(where(key) + key + " = '" + values.get(key) + "': expected " + known(key));
            }
        }
        all.addAll(problems);
        if (!all.isEmpty()) {
            throw new ConfigException(all);
        }
    }

    private String known(String key) {
        if (fields) {
            return "a known field: one of " + String.join(", ", new TreeSet<>(read));
        }
        for (Family family : families) {
            if (key.startsWith(family.prefix()) && key.indexOf('.', family.prefix().length()) > 0) {
                String block = family.prefix() + key.substring(family.prefix().length()).split("\\.", 2)[0] + ".";
                return "a known " + family.keyNoun() + ": one of " + String.join(", ", read.stream()
                        .filter(k -> k.startsWith(block)).map(k -> k.substring(block.length()))
                        .collect(Collectors.toCollection(TreeSet::new)));
            }
        }
        String others = String.join(", ", read.stream()
                .filter(k -> families.stream().noneMatch(f -> k.startsWith(f.prefix())))
                .collect(Collectors.toCollection(TreeSet::new)));
        if (families.isEmpty()) {
            return "a known key: one of " + others;
        }
        StringBuilder text = new StringBuilder("a known key (");
        families.forEach(f -> text.append(f.prefix()).append(f.placeholder()).append(".*, "));
        return text.append("or one of ").append(others).append(")").toString();
    }

    private void readLines(String text) {
        String[] lines = text.split("\r\n|\r|\n", -1);
        StringBuilder logical = new StringBuilder();
        int startLine = 0;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (logical.length() == 0) {
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("!")) {
                    continue;
                }
                startLine = i + 1;
            }
            logical.append(line).append('\n');
            if (endsWithContinuation(line) && i + 1 < lines.length) {
                continue;
            }
            readEntry(logical.toString(), startLine);
            logical.setLength(0);
        }
    }

    /** One logical line (with its continuation lines), read as {@link Properties} reads it. */
    private void readEntry(String logical, int line) {
        Properties one = new Properties();
        try {
            one.load(new StringReader(logical));
        } catch (IOException | IllegalArgumentException e) {
            lineProblems.add(source + ":" + line + ": cannot read the line: " + e.getMessage());
        }
        for (String key : one.stringPropertyNames()) {
            if (lineOf.containsKey(key)) {
                lineProblems.add(source + ":" + line + ": " + key + " is given twice (first on line "
                        + lineOf.get(key) + "): expected each key once");
            } else {
                lineOf.put(key, line);
                values.put(key, one.getProperty(key).strip());
            }
        }
    }

    private static boolean endsWithContinuation(String line) {
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    @Override
    public String toString() {
        return "KeyReader[" + (source == null ? "no file" : source) + ", " + values.size() + " keys, " + read.size()
                + " read]";
    }
}
