package org.jwd.operator;

import java.util.Map;
import java.util.function.UnaryOperator;

import org.jwd.sessiontable.ClusterMap;

/**
 * The operator's decisions on the Terracotta server of cluster mode, one value for all servers ({@link Decision}'s
 * lines) under one key, changed by compare-and-set: two nodes acting at once both land, one after the other.
 */
final class ClusterStates implements StateStore {
    static final String ALIAS = "jwd-operator-state";
    private static final String KEY = "servers";
    private static final int MAX_ATTEMPTS = 10;

    private final ClusterMap map;

    ClusterStates(ClusterMap map) {
        this.map = map;
    }

    @Override
    public Map<String, Decision> load() {
        try {
            return Decision.decode(map.get(KEY));
        } catch (RuntimeException e) {
            throw new StoreException(map + " unreachable: " + e.getMessage(), e);
        }
    }

    @Override
    public Map<String, Decision> update(UnaryOperator<Map<String, Decision>> change) {
        try {
            for (int i = 0; i < MAX_ATTEMPTS; i++) {
                String before = map.get(KEY);
                Map<String, Decision> next = change.apply(Decision.decode(before));
                if (map.replace(KEY, before, Decision.encode(next))) {
                    return next;
                }
            }
        } catch (RuntimeException e) {
            throw new StoreException(map + " unreachable: " + e.getMessage(), e);
        }
        throw new StoreException(map + ": " + MAX_ATTEMPTS + " nodes changed it at once", null);
    }

    @Override
    public boolean shared() {
        return true;
    }

    @Override
    public void close() {
        map.close();
    }

    @Override
    public String toString() {
        return "cluster " + map;
    }
}
