package org.jwd.sessiontable;

/**
 * The session table when {@code SessionTableTimeout} is {@code 0}: it stores nothing, so every lookup misses and
 * every bind "wins" with the server asked for; requests of a session then follow their cookies only.
 * Its figures stay zero.
 */
public final class DisabledSessionTable implements SessionTable {

    public static final DisabledSessionTable INSTANCE = new DisabledSessionTable();

    private static final SessionTableStats ZERO = new SessionTableStats(0, 0, 0, 0, 0, 0, 0);

    private DisabledSessionTable() {
    }

    @Override
    public String lookup(String sessionId) {
        return null;
    }

    @Override
    public String bind(String sessionId, String serverId) {
        return serverId;
    }

    @Override
    public String rebind(String sessionId, String expectedServerId, String newServerId) {
        return newServerId;
    }

    @Override
    public SessionTableStats stats() {
        return ZERO;
    }

    @Override
    public void close() {
        // nothing to release
    }

    @Override
    public String toString() {
        return "DisabledSessionTable";
    }
}
