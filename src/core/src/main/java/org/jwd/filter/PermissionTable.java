package org.jwd.filter;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jwd.config.ConfigException;
import org.jwd.config.KeyReader;
import org.jwd.config.ServerType;

/**
 * The URL filter ({@code wdisp/permission_table}): SAP Web Dispatcher's permission table, the second stage of a
 * request's way, after administration requests and before the server group is determined.
 *
 * <p>One rule a line: {@code P <pattern>} permits, {@code D <pattern>} denies, {@code S <pattern>} permits over
 * HTTPS only (over plain HTTP it denies). Blank lines and {@code #} comments are ignored, also after a pattern.
 * A pattern is matched against the whole normalized path: {@code *} stands for any text and may only stand at
 * its start or its end ({@code /sap/bc/*}, {@code *.cgi}, {@code *}). The first rule that matches decides; a
 * path that no rule matches is permitted, as in SAP: the table restricts what it names, so a table that permits
 * only what it lists ends with {@code D *}.
 *
 * <p><b>Letter case</b> is read as the server that will serve the path reads it, or a path could reach a denied
 * service in another case ({@code /SAP/BC/ADMIN/x}):
 * <ul>
 * <li>an ABAP path (as {@code Classification.filterType()} says: one the URL mapping table
 *     covers, or any while no J2EE server is active and {@code !ALL} may send it to an ABAP server) is matched
 *     regardless of case, as the ICF resolves service names, unless the pattern is written {@code case:/...},
 *     for a service flagged case-sensitive in the ICF;</li>
 * <li>a J2EE path is matched case-sensitively, as Java servers read paths, unless
 *     {@code jwd.permission_table_ignore_case=true} (for servers that fold case, such as Windows hosts):
 *     then every line that is not written {@code case:} matches regardless of case, on every path.</li>
 * </ul>
 * Regardless of case means equal after {@code Character.toUpperCase} then {@code toLowerCase} per character,
 * the rule of {@link String#equalsIgnoreCase} and of {@link org.jwd.routing.UrlPrefix}, so the filter and the
 * URL mapping table agree on which paths are one path.
 *
 * <p>Immutable. Each rule's pattern is taken apart once, when the file is read, into the literal it compares
 * (and its folded form) and where the wildcards stand, so a request costs one
 * {@code startsWith}/{@code endsWith}/{@code equals} per rule until the first match, the folding of the path
 * at most once, and no regular expression.
 */
public final class PermissionTable {
    /** No table configured: every URL is permitted. */
    public static final PermissionTable NONE = new PermissionTable(null, List.of(), false);

    public static final String KEY = "wdisp/permission_table";
    public static final String IGNORE_CASE_KEY = "jwd.permission_table_ignore_case";

    /** Written before a pattern, it makes the line case-sensitive whatever the path's type. */
    public static final String CASE_SENSITIVE = "case:";

    private static final String EXPECTED = "P, D or S, a blank and a URL pattern that starts with '/' or '*'"
            + " (e.g. 'D /sap/bc/*', or 'D case:/sap/bc/X/*' to match case-sensitively), optionally followed by"
            + " a # comment";

    /** What a rule does with a request whose path it matches. */
    public enum Action {
        /** {@code P}: the request goes on. */
        PERMIT,
        /** {@code D}: the request is refused. */
        DENY,
        /** {@code S}: the request goes on if it came over HTTPS, else it is refused. */
        SECURE_ONLY
    }

    /**
     * One line of the table.
     *
     * @param file the table's file as configured, for messages and the explain endpoint
     * @param line its line number, from 1
     * @param text the line as written, without surrounding blanks
     * @param pattern the pattern without {@code case:}
     * @param caseSensitive written {@code case:}: matched case-sensitively on every path
     * @param foldedLiteral {@code literal} with every character folded, compared with a folded path
     * @param parenthesis   the pattern names a '(': it is compared with the literal path, where a mangled segment
     *                      ({@code sap(bD1l...)}) keeps its parenthesised part
     */
    public record Rule(Action action, String pattern, String file, int line, String text, boolean caseSensitive,
                       boolean anyStart, boolean anyEnd, String literal, String foldedLiteral, boolean parenthesis) {
        /** Whether this rule covers {@code path}, the normalized path, compared as it is. */
        public boolean matches(String path) {
            return covers(path, literal);
        }

        /** Whether this rule covers the path whose folded form ({@link #fold}) is {@code foldedPath}. */
        public boolean matchesFolded(String foldedPath) {
            return covers(foldedPath, foldedLiteral);
        }

        private boolean covers(String path, String literal) {
            if (anyStart) {
                return anyEnd ? path.contains(literal) : path.endsWith(literal);
            }
            return anyEnd ? path.startsWith(literal) : path.equals(literal);
        }

        /** Whether a request it matches goes on, {@code secure} saying whether the client came over TLS. */
        public boolean permits(boolean secure) {
            return action == Action.PERMIT || (action == Action.SECURE_ONLY && secure);
        }

        /** What a refused client is told: that the URL is not permitted and by which line, nothing else. */
        public String refusal(boolean secure) {
            return action == Action.SECURE_ONLY && !secure
                    ? "jwd: this URL is permitted over HTTPS only (permission table, line " + line + ")"
                    : "jwd: this URL is not permitted (permission table, line " + line + ")";
        }

        @Override
        public String toString() {
            return file + ":" + line + ": " + text;
        }
    }

    private final String file;
    private final Rule[] rules;
    private final boolean ignoreCase;

    private PermissionTable(String file, List<Rule> rules, boolean ignoreCase) {
        this.file = file;
        this.rules = rules.toArray(new Rule[0]);
        this.ignoreCase = ignoreCase;
    }

    /**
     * Reads {@code wdisp/permission_table}, the file relative to the configuration file's directory, with
     * {@code jwd.permission_table_ignore_case}, which says how it reads J2EE paths; {@link #NONE} without a table.
     */
    public static PermissionTable read(KeyReader keys) {
        boolean ignoreCase = keys.bool(IGNORE_CASE_KEY, false);
        Path file = keys.path(KEY, "the path of a permission table file");
        if (file == null) {
            return NONE;
        }
        try {
            return load(file, file.toString(), ignoreCase);
        } catch (ConfigException e) {
            for (String problem : e.problems()) {
                // A bad line names the table's file and line itself; a missing file is named after the key.
                if (problem.startsWith(file + ":")) {
                    keys.problemInNamedFile(problem);
                } else {
                    keys.problemWithValue(KEY, problem);
                }
            }
            return NONE;
        }
    }

    /**
     * Reads the table from {@code path}; {@code name} is how messages name it (the value as configured).
     *
     * @param ignoreCase {@code jwd.permission_table_ignore_case}: J2EE paths too are matched regardless of case
     * @throws ConfigException naming the file, and for a bad line its number and what is expected
     */
    public static PermissionTable load(Path path, String name, boolean ignoreCase) throws ConfigException {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException("permission table " + path.toAbsolutePath()
                    + " does not exist: expected a file of P/D/S lines");
        } catch (MalformedInputException e) {
            throw new ConfigException("permission table " + path.toAbsolutePath()
                    + " cannot be read: expected UTF-8 text");
        } catch (IOException e) {
            throw new ConfigException("permission table " + path.toAbsolutePath() + " cannot be read: " + e);
        }
        return parse(text, name, ignoreCase);
    }

    /**
     * Parses the text of a table; every malformed line is reported, each with {@code file:line}.
     *
     * @param file       how messages and the explain endpoint name the table
     * @param ignoreCase {@code jwd.permission_table_ignore_case}: J2EE paths too are matched regardless of case
     */
    public static PermissionTable parse(String text, String file, boolean ignoreCase) throws ConfigException {
        List<Rule> rules = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String[] lines = text.split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String problem = problem(line);
            if (problem != null) {
                problems.add(file + ":" + (i + 1) + ": '" + line + "': " + problem);
            } else {
                rules.add(rule(line, file, i + 1));
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new PermissionTable(file, rules, ignoreCase);
    }

    /** What is wrong with a line that is neither blank nor a comment, or {@code null}. */
    private static String problem(String line) {
        String[] words = words(line);
        if (words[0].length() != 1 || "PDS".indexOf(words[0].charAt(0)) < 0) {
            return "expected " + EXPECTED;
        }
        if (words.length < 2) {
            return "the URL pattern is missing: expected " + EXPECTED;
        }
        if (words.length > 2 && !words[2].startsWith("#")) {
            return "expected one URL pattern, then nothing but a # comment (a pattern has no blanks)";
        }
        String pattern = withoutCaseMark(words[1]);
        if (pattern.isEmpty()) {
            return "the URL pattern after '" + CASE_SENSITIVE + "' is missing: expected " + EXPECTED;
        }
        if (!pattern.startsWith("/") && !pattern.startsWith("*")) {
            return "the pattern '" + pattern + "' must start with '/' or '*': it is matched against the path";
        }
        int star = pattern.indexOf('*', 1);
        if (star >= 0 && star < pattern.length() - 1) {
            return "'*' stands in the middle of '" + pattern + "': expected it only at the start or the end";
        }
        return null;
    }

    /** The pattern without a leading {@code case:} (written in any case). */
    private static String withoutCaseMark(String pattern) {
        return isCaseSensitive(pattern) ? pattern.substring(CASE_SENSITIVE.length()) : pattern;
    }

    private static boolean isCaseSensitive(String pattern) {
        return pattern.regionMatches(true, 0, CASE_SENSITIVE, 0, CASE_SENSITIVE.length());
    }

    /** The line's words: the letter, the pattern, and whatever follows (a comment). */
    private static String[] words(String line) {
        return line.split("\\s+", 3);
    }

    private static Rule rule(String line, String file, int number) {
        String[] words = words(line);
        Action action = switch (words[0].charAt(0)) {
            case 'P' -> Action.PERMIT;
            case 'D' -> Action.DENY;
            default -> Action.SECURE_ONLY;
        };
        boolean caseSensitive = isCaseSensitive(words[1]);
        String pattern = withoutCaseMark(words[1]);
        boolean anyStart = pattern.startsWith("*");
        boolean anyEnd = pattern.length() > 1 && pattern.endsWith("*");
        String literal = pattern.substring(anyStart ? 1 : 0, pattern.length() - (anyEnd ? 1 : 0));
        return new Rule(action, pattern, file, number, line, caseSensitive, anyStart, anyEnd, literal, fold(literal),
                literal.indexOf('(') >= 0);
    }

    /**
     * The first rule that matches {@code path} (the normalized path), or {@code null}: then it is permitted.
     *
     * @param type whose reading of case applies ({@code Classification.filterType()}): ABAP paths are
     *             matched regardless of case
     */
    public Rule match(String path, ServerType type) {
        return match(path, path, type);
    }

    /**
     * The first rule that matches, or {@code null}: then the request is permitted. A pattern that names a '('
     * is compared with {@code literalPath}, every other one with {@code path}.
     *
     * @param path        the normalized path, a mangled segment ({@code sap(bD1l...)}) read as its plain name, as
     *                    the ICF reads it
     * @param literalPath the same with mangled segments as they are; {@code path} itself when it has none
     * @param type        whose reading of case applies ({@code Classification.filterType()})
     */
    public Rule match(String path, String literalPath, ServerType type) {
        boolean foldByDefault = ignoreCase || type == ServerType.ABAP;
        String folded = null;
        String foldedLiteral = null;
        for (Rule rule : rules) {
            String compared = rule.parenthesis() ? literalPath : path;
            if (foldByDefault && !rule.caseSensitive()) {
                if (compared == path) {
                    folded = folded == null ? fold(path) : folded;
                } else {
                    foldedLiteral = foldedLiteral == null ? fold(literalPath) : foldedLiteral;
                }
                if (rule.matchesFolded(compared == path ? folded : foldedLiteral)) {
                    return rule;
                }
            } else if (rule.matches(compared)) {
                return rule;
            }
        }
        return null;
    }

    /**
     * {@code s} with every character folded ({@code Character.toUpperCase} then {@code toLowerCase}), as
     * {@link String#equalsIgnoreCase} compares and {@link org.jwd.routing.UrlPrefix} matches; {@code s} itself
     * when nothing changes, as for most paths, so that matching them allocates nothing.
     */
    public static String fold(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (foldChar(c) != c) {
                char[] chars = s.toCharArray();
                for (int j = i; j < chars.length; j++) {
                    chars[j] = foldChar(chars[j]);
                }
                return new String(chars);
            }
        }
        return s;
    }

    private static char foldChar(char c) {
        if (c < 128) {
            return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
        }
        return Character.toLowerCase(Character.toUpperCase(c));
    }

    /** Whether a table is configured at all. */
    public boolean isConfigured() {
        return file != null;
    }

    /** The table's file as configured, or {@code null} without a table. */
    public String file() {
        return file;
    }

    public List<Rule> rules() {
        return List.of(rules);
    }

    @Override
    public String toString() {
        return file == null ? "PermissionTable[none]" : "PermissionTable[" + file + ", " + rules.length + " rules"
                + (ignoreCase ? ", ignoring case on every path]" : "]");
    }
}
