package org.jwd.systems;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jwd.config.ConfigException;

/** Property maps for the tests, written as key, value, key, value... */
final class Props {
    private Props() {
    }

    static Map<String, String> of(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    static Systems systems(String... keysAndValues) throws ConfigException {
        return Systems.parse(of(keysAndValues));
    }

    /** The problems of a configuration that must be refused. */
    static List<String> problems(String... keysAndValues) {
        try {
            Systems.parse(of(keysAndValues));
        } catch (ConfigException e) {
            return e.problems();
        }
        throw new AssertionError("expected a configuration error for " + of(keysAndValues));
    }
}
