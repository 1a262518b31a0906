package org.jwd.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code --name value} pairs the bench scripts pass to a Java main ({@code src/bench/reload-storm},
 * {@code src/bench/rolling-restart}), and their whole numbers read with a message naming the option.
 */
final class MainOptions {
    private MainOptions() {
    }

    /** {@code --out /tmp/x --seconds 60} as {@code {out=/tmp/x, seconds=60}}. */
    static Map<String, String> parse(String[] args) {
        Map<String, String> options = new TreeMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }

    /** The option as a whole number, {@code defaultValue} when it is absent. */
    static int number(Map<String, String> options, String key, int defaultValue) {
        String v = options.get(key);
        try {
            return v == null ? defaultValue : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " '" + v + "': expected a whole number");
        }
    }
}
