package org.jwd.loglevel;

import java.util.Map;
import java.util.function.UnaryOperator;

import org.jwd.sessiontable.ClusterMap;

/**
 * The levels set in a cluster, on its Terracotta server (beside the session table and the operator's decisions),
 * one value for all loggers under one key, changed by compare-and-set: two nodes setting levels at once both land.
 * Every method throws {@link RuntimeException} when the server cannot be reached; the levels then hold on this node.
 */
class SharedLevels implements AutoCloseable {
    static final String ALIAS = "jwd-log-levels";
    private static final String KEY = "loggers";
    private static final int MAX_ATTEMPTS = 10;

    private final ClusterMap map;

    SharedLevels(ClusterMap map) {
        this.map = map;
    }

    /** The levels set now, by logger. */
    Map<String, LevelOverride> load() {
        return LevelOverride.decode(map.get(KEY));
    }

    /** Changes the levels shared, atomically against every other node; returns them as written. */
    Map<String, LevelOverride> update(UnaryOperator<Map<String, LevelOverride>> change) {
        for (int i = 0; i < MAX_ATTEMPTS; i++) {
            String before = map.get(KEY);
            Map<String, LevelOverride> next = change.apply(LevelOverride.decode(before));
            if (map.replace(KEY, before, LevelOverride.encode(next.values()))) {
                return next;
            }
        }
        throw new IllegalStateException(map + ": " + MAX_ATTEMPTS + " nodes changed the log levels at once");
    }

    @Override
    public void close() {
        map.close();
    }

    @Override
    public String toString() {
        return "shared through " + map;
    }
}
