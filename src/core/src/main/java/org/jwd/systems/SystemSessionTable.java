package org.jwd.systems;

import org.jwd.sessiontable.ClusterState;
import org.jwd.sessiontable.ClusterStatus;
import org.jwd.sessiontable.PersistenceStatus;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTableStats;
import org.jwd.sessiontable.SessionTimeouts;

/**
 * One system's view of the one shared session table: every key is stored with the system's SID
 * ({@link SystemSessionKey#encoded()}), so that the same JSESSIONID value in two systems binds two servers. The
 * table itself (its size, cluster, persistence and timeouts) stays the composition root's, shared by the systems.
 */
public final class SystemSessionTable implements SessionTable {
    private final SessionTable shared;
    private final SystemEntry system;

    public SystemSessionTable(SessionTable shared, SystemEntry system) {
        this.shared = shared;
        this.system = system;
    }

    private String key(String sessionId) {
        return SystemSessionKey.of(system, sessionId).encoded();
    }

    @Override
    public String lookup(String sessionId) {
        return shared.lookup(key(sessionId));
    }

    @Override
    public void touch(String sessionId) {
        shared.touch(key(sessionId));
    }

    @Override
    public String peek(String sessionId) {
        return shared.peek(key(sessionId));
    }

    @Override
    public java.time.Duration idleLeft(String sessionId) {
        return shared.idleLeft(key(sessionId));
    }

    @Override
    public String bind(String sessionId, String serverId) {
        return shared.bind(key(sessionId), serverId);
    }

    @Override
    public String rebind(String sessionId, String expectedServerId, String newServerId) {
        return shared.rebind(key(sessionId), expectedServerId, newServerId);
    }

    @Override
    public SessionTableStats stats() {
        return shared.stats();
    }

    @Override
    public ClusterState clusterState() {
        return shared.clusterState();
    }

    @Override
    public ClusterStatus clusterStatus() {
        return shared.clusterStatus();
    }

    @Override
    public PersistenceStatus persistence() {
        return shared.persistence();
    }

    @Override
    public boolean isFull() {
        return shared.isFull();
    }

    @Override
    public boolean canChangeTimeout() {
        return shared.canChangeTimeout();
    }

    @Override
    public void changeTimeouts(SessionTimeouts timeouts) {
        shared.changeTimeouts(timeouts);
    }

    /** The shared table is the composition root's to close, not one system's. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "system " + system.sid() + " in " + shared;
    }
}
