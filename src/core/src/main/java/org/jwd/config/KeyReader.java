package org.jwd.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

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

    private final Path directory;
    private final Map<String, String> values;
    private final List<String> lineProblems;
    private final KeyProblems problems;
    private final Set<String> read;
    private final Set<String> restartKeys;
    private final Set<Family> families;
    /** This view marks what it reads as restart-only. */
    private final boolean restart;

    private KeyReader(Path directory, PropertiesText text, KeyProblems problems) {
        this.directory = directory;
        this.values = text.values();
        this.lineProblems = text.problems();
        this.problems = problems;
        this.read = new LinkedHashSet<>();
        this.restartKeys = new TreeSet<>();
        this.families = new LinkedHashSet<>();
        this.restart = false;
    }

    private KeyReader(KeyReader of) {
        this.directory = of.directory;
        this.values = of.values;
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
        PropertiesText lines = PropertiesText.read(text, source);
        return new KeyReader(directory, lines, new KeyProblems(source, lines.lineOf(), false));
    }

    /** Properties without a file: messages name the key alone; relative paths are resolved against {@code directory}. */
    public static KeyReader of(Map<String, String> properties, Path directory) {
        return new KeyReader(directory, given(properties), new KeyProblems(null, Map.of(), false));
    }

    /** The fields of a request body: messages name the field; an unread one is "a known field". */
    public static KeyReader ofFields(Map<String, String> fields) {
        return new KeyReader(Path.of(""), given(fields), new KeyProblems(null, Map.of(), true));
    }

    private static PropertiesText given(Map<String, String> values) {
        return new PropertiesText(new LinkedHashMap<>(values), Map.of(), List.of());
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

    /**
     * The value of {@code key} as written, or {@code null}; the key counts as read. An SAP profile's references
     * {@code $(NAME)} to its other lines are replaced by their values ({@code LOGFILE=$(DIR_LOGGING)/access_log}).
     */
    public String raw(String key) {
        String value = unresolved(key);
        return value == null || !value.contains("$(") ? value : resolve(key, value);
    }

    /** The value of {@code key} as written, its references {@code $(NAME)} left as they are; the key counts as read. */
    public String unresolved(String key) {
        read.add(key);
        if (restart) {
            restartKeys.add(key);
        }
        return values.get(key);
    }

    /** {@code part} of the value of {@code key} (a sub-parameter's) with its references replaced. */
    public String resolve(String key, String part) {
        return ProfileReferences.resolve(key, part, values, read::add, text -> problems.add(key, text));
    }

    /** Counts {@code key} as read without reading its value: a line jwd has no use for. */
    public void readNotUsed(String key) {
        read.add(key);
    }

    /** Every key of the file in its order, with the line it is on (from 1; 0 without a file). */
    public Map<String, Integer> keyLines() {
        Map<String, Integer> lines = new LinkedHashMap<>();
        values.keySet().forEach(key -> lines.put(key, problems.line(key)));
        return lines;
    }

    /** The keys no section has read so far, in the file's order. */
    public List<String> unread() {
        return values.keySet().stream().filter(k -> !read.contains(k)).toList();
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
        return value(key, fallback, "true or false", ValueSyntax::bool);
    }

    /**
     * A duration of one of jwd's own keys ({@link Durations#parse}: with a unit); zero only when {@code zeroAllowed}.
     * A bare number is told to add a unit.
     */
    public Duration duration(String key, Duration fallback, boolean zeroAllowed, String expected) {
        String text = raw(key);
        if (text != null && Durations.isBareNumber(text) && !Durations.parseMillis(text).isZero()) {
            problem(key, Durations.ADD_A_UNIT);
            return fallback;
        }
        return value(key, fallback, expected, t -> {
            Duration d = Durations.parse(t);
            return d.isZero() && !zeroAllowed ? null : d;
        });
    }

    /** SAP's millisecond-valued duration ({@link Durations#parseMillis}: a bare number is milliseconds). */
    public Duration millis(String key, Duration fallback, boolean zeroAllowed, String expected) {
        return value(key, fallback, expected, text -> {
            Duration d = Durations.parseMillis(text);
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
            Long n = ValueSyntax.size(text);
            return n == null || n < min || n > max ? null : n;
        });
    }

    /**
     * A URL of one of {@code schemes} with a host, without user or fragment; without {@code pathAllowed} also without
     * path and query, and then normalized to {@code scheme://authority}.
     */
    public URI url(String key, Set<String> schemes, boolean pathAllowed, String expected) {
        return value(key, null, expected, text -> ValueSyntax.url(text, schemes, pathAllowed));
    }

    /** A file named by the key, resolved against the configuration file's directory; {@code null} when not set. */
    public Path path(String key, String expected) {
        String value = raw(key);
        return value == null || value.isBlank() ? null
                : value(key, null, expected, text -> directory.resolve(text.strip()));
    }

    /** The comma-separated entries of the key, stripped, empty ones left out. */
    public List<String> list(String key) {
        String value = raw(key);
        return value == null || value.isBlank() ? List.of()
                : Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * The ids of the keys {@code <prefix><id>.<field>}, sorted; a key whose id is malformed is a problem. Declares
     * the family, so that an unread field of a valid id is named as this family's unknown key.
     */
    public SortedSet<String> ids(Family family) {
        families.add(family);
        SortedSet<String> ids = new TreeSet<>();
        for (String key : values.keySet()) {
            int dot = key.indexOf('.', family.prefix().length());
            // without a field after the id it is an unknown key, named so at the end
            if (!key.startsWith(family.prefix()) || dot < 0) {
                continue;
            }
            String id = key.substring(family.prefix().length(), dot);
            if (ID.matcher(id).matches()) {
                ids.add(id);
            } else if (read.add(key)) {
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
        problems.add(key, key + " = '" + value + "': expected " + expected);
    }

    /** {@code file:line: key = 'value': detail}, for what another reader (a named file) found. */
    public void problemWithValue(String key, String detail) {
        problems.add(key, key + " = '" + values.getOrDefault(key, "") + "': " + detail);
    }

    /** {@code file:line: text}, for a message that must not quote the value (a password) or words its own. */
    public void problemText(String key, String text) {
        problems.add(key, text);
    }

    /** A problem that another file's reader found and named with its own file and line. */
    public void problemInNamedFile(String text) {
        problems.addAsIs(text);
    }

    /** A required key is absent. */
    public void missing(String key, String expected) {
        problems.missing(key, expected);
    }

    /** Neither of two keys is given, one of which is required; {@code who} is what needs them. */
    public void missingBoth(String key, String other, String who, String expected, String otherExpected) {
        problems.missingBoth(key, other, who, expected, otherExpected);
    }

    /**
     * Hands every problem found so far to {@code file}, the reader of the file these properties were derived from
     * (one system's keys in unscoped form), so that they are reported together with the file's other problems, each
     * located at the line there of the key it concerns.
     *
     * @param origin  for a key of these properties, the key as written in the file ({@code server.a.url} from
     *                {@code system.ERP.server.a.url})
     * @param wording the problem as the file's reader words it (the system named, the keys as written)
     */
    public void reportTo(KeyReader file, UnaryOperator<String> origin, UnaryOperator<String> wording) {
        lineProblems.forEach(text -> file.problems.addAsIs(wording.apply(text)));
        for (KeyProblems.Unlocated p : problems.unlocated()) {
            if (p.key() == null) {
                file.problems.addAsIs(wording.apply(p.text()));
                continue;
            }
            String key = origin.apply(p.key());
            // a shared key's problem that the file's own reading found already, word for word, is not repeated
            if (!(key.equals(p.key()) && file.problems.has(key, p.text()))) {
                file.problems.add(key, wording.apply(p.text()));
            }
        }
    }

    /** How many problems the sections have reported: a section compares it before and after a block. */
    public int problemCount() {
        return problems.count();
    }

    /** @throws ConfigException with every problem found so far, unknown keys aside */
    public void check() throws ConfigException {
        report(List.of());
    }

    /**
     * Called once every section has read its keys: a key no section read is unknown, because a misspelled key
     * silently ignored is a production outage waiting for a restart.
     *
     * @throws ConfigException with every problem, unknown keys first
     */
    public void checkEveryKeyRead() throws ConfigException {
        report(values.keySet().stream().filter(key -> !read.contains(key))
                .map(key -> problems.unknown(key, values.get(key), read, families)).toList());
    }

    private void report(List<String> unknown) throws ConfigException {
        List<String> all = new ArrayList<>(lineProblems);
        all.addAll(unknown);
        all.addAll(problems.all());
        if (!all.isEmpty()) {
            throw new ConfigException(all);
        }
    }

    @Override
    public String toString() {
        return "KeyReader[" + values.size() + " keys, " + read.size() + " read, " + problems.count() + " problems]";
    }
}
