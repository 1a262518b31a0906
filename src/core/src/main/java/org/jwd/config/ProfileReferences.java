package org.jwd.config;

import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An SAP profile's references {@code $(NAME)} to its other lines ({@code LOGFILE=$(DIR_LOGGING)/access_log}),
 * replaced by their values, as SAP's profile reader does; a reference to no line of the file (but SAP's few predefined
 * names) is a problem of the key that uses it.
 */
final class ProfileReferences {
    /** SAP's predefined profile names that a pasted line may use; every other name must be a line of the file. */
    private static final Map<String, String> PREDEFINED = Map.of("DIR_SEP", "/", "FT_EXE", "", "FT_DLL", ".so",
            "FT_DLL_PREFIX", "lib", "OS_UNICODE", "uc");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([^()$]+)\\)");
    /** References deeper than this are a loop. */
    private static final int MAX_DEPTH = 8;

    private ProfileReferences() {
    }

    /**
     * {@code part} of the value of {@code key} (the whole value, or a sub-parameter's), its references replaced.
     *
     * @param used    told each line a reference used: it counts as read
     * @param problem told what is wrong with the value of {@code key}
     */
    static String resolve(String key, String part, Map<String, String> values, Consumer<String> used,
                          Consumer<String> problem) {
        return resolve(key, part, values, used, problem, 0);
    }

    private static String resolve(String key, String value, Map<String, String> values, Consumer<String> used,
                                  Consumer<String> problem, int depth) {
        Matcher m = REFERENCE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String replacement = values.containsKey(name) ? values.get(name) : PREDEFINED.get(name);
            if (replacement == null || depth > MAX_DEPTH) {
                problem.accept(key + " = '" + values.get(key) + "': $(" + name + ") is "
                        + (replacement == null ? "not defined: expected a line " + name + " = ... in the file"
                        : "defined in a loop of references: expected values without it"));
                replacement = m.group();
            } else {
                used.accept(name);
                if (replacement.contains("$(")) {
                    replacement = resolve(key, replacement, values, used, problem, depth + 1);
                }
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        return m.appendTail(out).toString();
    }
}
