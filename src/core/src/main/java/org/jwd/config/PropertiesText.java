package org.jwd.config;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The text of a properties file read line by line, as {@link Properties} reads it (continuation lines, escapes),
 * but keeping each key's line for messages, and refusing a key given twice instead of letting the last one win
 * silently.
 *
 * @param values   every key and its stripped value, in the file's order
 * @param lineOf   the line each key starts on, from 1
 * @param problems lines that cannot be read and keys given twice, each with {@code file:line}
 */
record PropertiesText(Map<String, String> values, Map<String, Integer> lineOf, List<String> problems) {

    static PropertiesText read(String text, String source) {
        PropertiesText read = new PropertiesText(new LinkedHashMap<>(), new HashMap<>(), new ArrayList<>());
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
            read.entry(logical.toString(), source, startLine);
            logical.setLength(0);
        }
        return read;
    }

    /** One logical line (with its continuation lines). */
    private void entry(String logical, String source, int line) {
        Properties one = new Properties();
        try {
            one.load(new StringReader(logical));
        } catch (IOException | IllegalArgumentException e) {
            problems.add(source + ":" + line + ": cannot read the line: " + e.getMessage());
        }
        for (String key : one.stringPropertyNames()) {
            if (lineOf.containsKey(key)) {
                problems.add(source + ":" + line + ": " + key + " is given twice (first on line " + lineOf.get(key)
                        + "): expected each key once");
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
}
