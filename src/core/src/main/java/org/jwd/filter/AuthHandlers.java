package org.jwd.filter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.jwd.config.ConfigException;
import org.jwd.config.KeyReader;
import org.jwd.config.ServerType;

/**
 * SAP's authentication handler, {@code icm/HTTP/auth_<xx> = PREFIX=<prefix>, PERMFILE=<file>[, CASE=TRUE|FALSE]}:
 * URL filters by prefix, each a {@link PermissionTable} (its no-bypass rules included: letter case, mangled
 * segments, encodings), applied after {@code wdisp/permission_table} in the order of their numbers; a request under
 * several prefixes passes each. SAP's permission file lines are {@code P|D|S <URL> [<user> <client IP> <server IP>]}:
 * jwd matches URLs only, so the further columns must be {@code *}. {@code CASE=FALSE} (SAP's default) matches every
 * line regardless of case; {@code TRUE} matches as {@code wdisp/permission_table} does (ABAP paths regardless of
 * case, Java paths as written). {@code AUTHFILE} and {@code FILTER=SAP} are refused: SAP does not document its user
 * file's password hash nor its pattern search's patterns, so jwd cannot do what they do.
 *
 * @param handlers in the order of their numbers
 */
public record AuthHandlers(List<Handler> handlers) {
    public static final String KEY_PREFIX = "icm/HTTP/auth_";
    public static final AuthHandlers NONE = new AuthHandlers(List.of());
    private static final List<String> KNOWN = List.of("PREFIX", "PERMFILE", "CASE", "AUTHFILE", "FILTER");
    private static final String AUTHFILE = "AUTHFILE is refused (a security setting jwd cannot honour: SAP does not"
            + " document the password hash of its authentication file): let the servers authenticate that prefix, or"
            + " deny it with D lines of the PERMFILE";
    private static final String FILTER = "FILTER=SAP is refused (SAP's pattern search uses patterns SAP does not"
            + " publish): jwd refuses paths servers would read two ways (400) and matches the PERMFILE on the"
            + " decoded and the encoded reading; for patterns of your own write RegForbiddenUrl lines of an action"
            + " file (icm/HTTP/mod_<xx>); remove FILTER or write FILTER=0";

    /**
     * One {@code icm/HTTP/auth_<xx>}: its table applies to the paths below {@code prefix}.
     *
     * @param file the {@code PERMFILE} as resolved: a change to it reloads the configuration, as one to
     *             {@code wdisp/permission_table}'s does
     */
    public record Handler(String key, String prefix, boolean caseSensitive, PermissionTable table, Path file) {
        /** Whether {@code path} is below the prefix, regardless of case unless {@code CASE=TRUE}. */
        public boolean covers(String path) {
            return caseSensitive ? path.startsWith(prefix)
                    : PermissionTable.fold(path).startsWith(PermissionTable.fold(prefix));
        }
    }

    public AuthHandlers {
        handlers = List.copyOf(handlers);
    }

    /** Every {@code icm/HTTP/auth_<xx>} of the file; a line with a problem is left out (the problem is reported). */
    public static AuthHandlers read(KeyReader keys) {
        Map<Integer, Handler> handlers = new TreeMap<>();
        for (String key : keys.keyLines().keySet()) {
            String number = key.startsWith(KEY_PREFIX) ? key.substring(KEY_PREFIX.length()) : null;
            if (number == null) {
                continue;
            }
            if (!number.matches("0|[1-9][0-9]{0,2}")) {
                keys.problemText(key, key + ": expected " + KEY_PREFIX + "<xx>, <xx> a number without a leading 0");
                keys.readNotUsed(key);
                continue;
            }
            Handler handler = handler(key, keys);
            if (handler != null) {
                handlers.put(Integer.parseInt(number), handler);
            }
        }
        return new AuthHandlers(new ArrayList<>(handlers.values()));
    }

    private static Handler handler(String key, KeyReader keys) {
        int before = keys.problemCount();
        Map<String, String> sub = subParameters(key, keys.raw(key), keys);
        String prefix = sub.getOrDefault("PREFIX", "");
        if (!prefix.startsWith("/")) {
            keys.problemText(key, key + ": PREFIX = '" + prefix + "': expected a URL prefix starting with '/'");
        }
        if (!sub.containsKey("PERMFILE")) {
            keys.problemText(key, key + ": PERMFILE is missing: expected PERMFILE=<permission file> (without it the"
                    + " handler would do nothing in jwd)");
        }
        String caseGiven = sub.getOrDefault("CASE", "FALSE");
        String caseText = caseGiven.toUpperCase(Locale.ROOT);
        if (!List.of("TRUE", "FALSE", "1", "0").contains(caseText)) {
            keys.problemText(key, key + ": CASE = '" + caseGiven + "': expected TRUE or FALSE");
        }
        boolean caseSensitive = caseText.equals("TRUE") || caseText.equals("1");
        if (keys.problemCount() > before) {
            return null;
        }
        PermissionTable table = table(key, sub.get("PERMFILE"), !caseSensitive, keys);
        return table == null ? null : new Handler(key, prefix, caseSensitive, table,
                keys.directory().resolve(sub.get("PERMFILE")));
    }

    /** The sub-parameters jwd honours by name (upper case); the others are problems, each with why. */
    private static Map<String, String> subParameters(String key, String value, KeyReader keys) {
        Map<String, String> sub = new TreeMap<>();
        for (String part : value.split(",")) {
            int eq = part.indexOf('=');
            String name = (eq < 0 ? part : part.substring(0, eq)).strip().toUpperCase(Locale.ROOT);
            String text = eq < 0 ? "" : part.substring(eq + 1).strip();
            if (!KNOWN.contains(name) || eq < 0) {
                keys.problem(key, value, "PREFIX=<URL prefix>, PERMFILE=<permission file>[, CASE=TRUE|FALSE]; '"
                        + part.strip() + "' is " + (eq < 0 ? "not NAME=value" : "no sub-parameter jwd knows"));
            } else if (name.equals("AUTHFILE")) {
                keys.problemText(key, key + ": " + AUTHFILE);
            } else if (name.equals("FILTER") && !text.isEmpty() && !text.equals("0")) {
                keys.problemText(key, key + ": " + FILTER);
            } else {
                sub.put(name, text);
            }
        }
        return sub;
    }

    /** The PERMFILE, relative to the configuration's directory, as a table; {@code null} with its problems told. */
    private static PermissionTable table(String key, String name, boolean ignoreCase, KeyReader keys) {
        Path file = keys.directory().resolve(name);
        List<String> problems = new ArrayList<>();
        try {
            String text = permissionText(Files.readString(file, StandardCharsets.UTF_8), name, problems);
            if (problems.isEmpty()) {
                return PermissionTable.parse(text, name, ignoreCase);
            }
        } catch (IOException e) {
            keys.problemText(key, key + ": PERMFILE " + file.toAbsolutePath() + " cannot be read (" + e
                    + "): expected a permission file of P/D/S lines");
            return null;
        } catch (ConfigException e) {
            problems.addAll(e.problems());
        }
        problems.forEach(keys::problemInNamedFile);
        return null;
    }

    /**
     * SAP's permission file as jwd's table: each line's user, client and server columns dropped when they are
     * {@code *}; a line restricted by them is a problem, since jwd matches URLs only.
     */
    static String permissionText(String text, String file, List<String> problems) {
        String[] lines = text.split("\r\n|\r|\n", -1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            String[] words = lines[i].strip().split("\\s+");
            boolean comment = false;
            for (int w = 0; w < words.length; w++) {
                comment |= words[w].startsWith("#");
                if (w >= 2 && !comment && !words[w].equals("*")) {
                    problems.add(file + ":" + (i + 1) + ": '" + lines[i].strip() + "': jwd matches URLs only:"
                            + " expected '*' for the user, client and server columns (restrict clients with"
                            + " CLIENTHOST of icm/HTTP/admin_<xx>, or in front of jwd)");
                } else if (w < 2 || comment) {
                    out.append(w == 0 ? "" : " ").append(words[w]);
                }
            }
            out.append('\n');
        }
        return out.toString();
    }

    /**
     * The first line of a handler covering {@code path} that refuses it, else the last that matched; {@code null}
     * when none matched or no handler covers it.
     */
    public PermissionTable.Rule match(String path, String literalPath, ServerType type, boolean secure) {
        PermissionTable.Rule matched = null;
        for (Handler h : handlers) {
            if (h.covers(path)) {
                PermissionTable.Rule rule = h.table().match(path, literalPath, type);
                if (rule != null && !rule.permits(secure)) {
                    return rule;
                }
                matched = rule != null ? rule : matched;
            }
        }
        return matched;
    }

    /** The permission files, as the configuration watch and the reloader follow them. */
    public List<Path> files() {
        return handlers.stream().map(Handler::file).toList();
    }

    public boolean isConfigured() {
        return !handlers.isEmpty();
    }
}
