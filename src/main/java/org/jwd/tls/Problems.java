package org.jwd.tls;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jwd.config.ConfigException;

/**
 * Collects what is wrong with the TLS keys, in the parser's words ({@code <key> = '<value>': expected <what>}),
 * so that one round fixes everything. A password is never repeated in a message.
 */
final class Problems {
    private final Map<String, String> properties;
    private final List<String> problems = new ArrayList<>();

    Problems(Map<String, String> properties) {
        this.properties = properties;
    }

    String value(String key) {
        return properties.get(key);
    }

    void add(String key, String expected) {
        problems.add(key + " = '" + properties.get(key) + "': expected " + expected);
    }

    /** For problems that must not quote the value (passwords) or that concern a key that is absent. */
    void addText(String text) {
        problems.add(text);
    }

    boolean isEmpty() {
        return problems.isEmpty();
    }

    void throwIfAny() throws ConfigException {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }
}
