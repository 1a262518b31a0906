package org.jwd.modification;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jwd.config.ConfigException;
import org.jwd.config.KeyReader;

/**
 * The value of one {@code icm/HTTP/mod_<xx>}: {@code PREFIX=<URL prefix>[, FILE=<action file>]}, SAP's syntax
 * (sub-parameter names in any case). A relative {@code FILE} is read from the configuration file's directory,
 * where SAP reads it from the process's working directory: a jwd configuration and the files it names move
 * together, as with {@code wdisp/permission_table}, whatever directory jwd is started from.
 */
final class HandlerValue {
    private static final String EXPECTED = "PREFIX=<URL prefix>[, FILE=<action file>]";

    private HandlerValue() {
    }

    /** The handler, its file read; {@code null} when there were problems (each reported to {@code keys}). */
    static ModificationHandlers.Handler read(int number, String key, String value, KeyReader keys) {
        Map<String, String> sub = subParameters(value);
        if (sub == null) {
            keys.problem(key, EXPECTED);
            return null;
        }
        String unknown = sub.keySet().stream().filter(k -> !k.equals("PREFIX") && !k.equals("FILE")).findFirst()
                .orElse(null);
        String prefix = sub.get("PREFIX");
        if (unknown != null || prefix == null || !prefix.startsWith("/")) {
            keys.problem(key, EXPECTED + (unknown != null ? " (" + unknown + " is not one of them)"
                    : prefix == null ? " (PREFIX is missing)" : " (a prefix starts with '/')"));
            return null;
        }
        String file = sub.get("FILE");
        if (file == null) {
            return new ModificationHandlers.Handler(number, prefix, null, null, ActionFile.EMPTY);
        }
        if (file.isEmpty()) {
            keys.problem(key, EXPECTED + " (FILE is empty)");
            return null;
        }
        if (file.contains("$(")) {
            keys.problemWithValue(key, "FILE names a profile variable ($(...)), which jwd does not expand: write"
                    + " the file's path, absolute or relative to the configuration file");
            return null;
        }
        Path path = keys.directory().resolve(file);
        try {
            return new ModificationHandlers.Handler(number, prefix, file, path, ActionFileParser.load(path, file));
        } catch (ConfigException e) {
            for (String problem : e.problems()) {
                // a bad line names the action file and its line; a missing file is named after the key
                if (problem.startsWith(file + ":")) {
                    keys.problemInNamedFile(problem);
                } else {
                    keys.problemWithValue(key, problem);
                }
            }
            return null;
        }
    }

    /** {@code NAME=value} pairs separated by commas, names in upper case; {@code null} when malformed. */
    private static Map<String, String> subParameters(String value) {
        Map<String, String> sub = new LinkedHashMap<>();
        for (String part : value.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                return null;
            }
            String name = part.substring(0, eq).strip().toUpperCase(Locale.ROOT);
            if (name.isEmpty() || sub.put(name, part.substring(eq + 1).strip()) != null) {
                return null;
            }
        }
        return sub;
    }
}
