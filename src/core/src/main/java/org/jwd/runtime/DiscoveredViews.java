package org.jwd.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jwd.config.DispatcherConfig;
import org.jwd.discovery.SystemView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the discovery found, as the dispatcher holds it: each system's view as published, and the views placed for a
 * configuration ({@link DiscoveryLink#placed}: each server id in one system), a discovered server left out warned of
 * once, when it is first left out, not at every rebuild. Guarded by the dispatcher's lock.
 */
final class DiscoveredViews {
    private static final Logger LOG = LoggerFactory.getLogger(DiscoveredViews.class);

    /** by system key ({@code -} for the implicit system) */
    private Map<String, SystemView> views = Map.of();
    /** the servers left out at the last placing, in words */
    private Set<String> conflicts = Set.of();

    /** Takes the views a discovery published. */
    void set(Map<String, SystemView> published) {
        views = published;
    }

    /** Forgets every view: a new discovery begins. */
    void clear() {
        views = Map.of();
    }

    /** The implicit system's view, or {@code null}. */
    SystemView implicit() {
        return views.get(DiscoveryLink.IMPLICIT);
    }

    /** The views placed for {@code config}; a server newly left out is warned of. */
    Map<String, SystemView> placed(DispatcherConfig config) {
        List<String> now = new ArrayList<>();
        Map<String, SystemView> placed = DiscoveryLink.placed(config, views, now);
        now.stream().filter(c -> !conflicts.contains(c)).forEach(c -> LOG.warn("jwd: discovery: {}", c));
        conflicts = Set.copyOf(now);
        return placed;
    }
}
