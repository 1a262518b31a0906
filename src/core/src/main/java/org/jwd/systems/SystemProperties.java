package org.jwd.systems;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One system's configuration in today's unscoped form ({@link SystemScope#of}), for today's parser.
 *
 * @param system     the system
 * @param properties its keys, unscoped: shared keys, then its {@code system.<SID>.*} keys over them, then what its
 *                   {@code wdisp/system_<xx>} entry sets
 * @param origins    for each key that came from elsewhere, where: {@code server.a.url} from
 *                   {@code system.ERP.server.a.url}, {@code wdisp/ssl_encrypt} from {@code wdisp/system_0}
 */
public record SystemProperties(SystemEntry system, Map<String, String> properties, Map<String, String> origins) {
    public SystemProperties {
        // sorted, as a reader of the admin page or a test expects a configuration to be listed
        properties = Collections.unmodifiableMap(new TreeMap<>(properties));
        origins = Collections.unmodifiableMap(new TreeMap<>(origins));
    }

    /**
     * The key the operator wrote for {@code key}, so that a problem today's parser finds in this system's
     * configuration names the line to fix.
     */
    public String origin(String key) {
        return origins.getOrDefault(key, key);
    }

    @Override
    public String toString() {
        return (system.isImplicit() ? "the implicit system" : "system " + system.sid()) + ": " + properties.size()
                + " keys, " + origins.size() + " of them scoped or from " + system.key();
    }
}
