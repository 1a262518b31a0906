package org.jwd.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * With {@code wdisp/system_<xx>} entries, each system's core configuration by SID, as a section of the whole
 * configuration: what the parts the systems share must know of each of them. The one session table exists when any
 * system keeps one ({@link DispatcherConfig#sessionTableEnabled()}), and times each system's entries by that
 * system's {@code SessionTableTimeout} and {@code wdisp/HTTP/context_timeout}. The systems themselves are read above
 * this layer ({@code org.jwd.runtime.SystemConfigs}, which puts this section); without entries there is none.
 *
 * @param bySid each system's configuration, in entry order
 */
public record PerSystemConfigs(Map<String, DispatcherConfig> bySid) {
    public PerSystemConfigs {
        bySid = Collections.unmodifiableMap(new LinkedHashMap<>(bySid));
    }

    /** The systems' configurations of {@code config}; empty without {@code wdisp/system_<xx>} entries. */
    public static Map<String, DispatcherConfig> of(DispatcherConfig config) {
        return config.sections().find(PerSystemConfigs.class).map(PerSystemConfigs::bySid).orElse(Map.of());
    }

    @Override
    public String toString() {
        return "PerSystemConfigs" + bySid.keySet();
    }
}
