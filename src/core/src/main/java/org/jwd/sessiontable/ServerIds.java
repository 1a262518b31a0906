package org.jwd.sessiontable;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One shared instance per server id, so that a million entries share a few value objects, and values read back
 * from off heap (deserialized, a new string each time) are the same instance as the ones on heap. At most
 * {@link #MAX_SHARED} ids are kept: server ids come from the configuration and registrations, never from clients,
 * but the bound keeps a mistake from growing without end.
 */
final class ServerIds {
    static final int MAX_SHARED = 10_000;

    private final ConcurrentHashMap<String, String> shared = new ConcurrentHashMap<>();

    String shared(String serverId) {
        String known = shared.get(serverId);
        if (known != null) {
            return known;
        }
        if (shared.size() >= MAX_SHARED) {
            return serverId;
        }
        known = shared.putIfAbsent(serverId, serverId);
        return known != null ? known : serverId;
    }
}
