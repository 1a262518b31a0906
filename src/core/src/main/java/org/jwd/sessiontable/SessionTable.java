package org.jwd.sessiontable;

/**
 * The session table: session id (JSESSIONID, or an ESID under {@link SessionTimeouts#esidKey}) -> id of the server
 * that holds it. It holds SAP's session ID table and the Java dispatcher's temporary table in one store.
 * The first binding wins, so concurrent first requests of one session agree on one server; a binding to
 * a server that is gone is replaced atomically, so concurrent requests agree on the new one too.
 */
public interface SessionTable extends AutoCloseable {
    /** The server bound to this session, refreshing the entry's idle time; {@code null} when unbound. */
    String lookup(String sessionId);

    /**
     * Renews the idle time of this session's entry, if the table holds one, without counting a hit or a miss: a
     * request routed by its cookie still keeps its table entry alive. The default asks {@link #lookup}.
     */
    default void touch(String sessionId) {
        lookup(sessionId);
    }

    /**
     * The server bound to this session, for a look that must change nothing (the admin interface's explain): it
     * counts no hit or miss. (A store that cannot read without touching may renew the entry's idle time.) The
     * default asks {@link #lookup}, for stores that have no quieter way.
     */
    default String peek(String sessionId) {
        return lookup(sessionId);
    }

    /**
     * How long the binding of this session stays without a use, for the admin's session lookup: changes nothing.
     * {@code null} when the table holds none, or cannot tell.
     */
    default java.time.Duration idleLeft(String sessionId) {
        return null;
    }

    /**
     * Binds the session to {@code serverId} unless it is bound already.
     *
     * @return the server the session is bound to now: {@code serverId}, or the earlier binding that won;
     *         {@code serverId} also when the table is full or off (the caller balances then, as without a table)
     */
    String bind(String sessionId, String serverId);

    /**
     * Replaces the binding to {@code expectedServerId} with {@code newServerId}, atomically.
     *
     * @return the server bound now: {@code newServerId}, or what a concurrent rebinding chose
     */
    String rebind(String sessionId, String expectedServerId, String newServerId);

    /** The figures the admin page shows. */
    SessionTableStats stats();

    /** Cluster mode: where the bindings live now, for the admin page; {@link ClusterState#NONE} when not clustered. */
    default ClusterState clusterState() {
        return ClusterState.NONE;
    }

    /** Cluster mode: the state with its figures, for the admin page and the metrics. */
    default ClusterStatus clusterStatus() {
        return ClusterStatus.NOT_CLUSTERED;
    }

    /** The persistent tier ({@code SessionTable.disk_path}): {@link PersistenceStatus#NONE} for a table in memory only. */
    default PersistenceStatus persistence() {
        return PersistenceStatus.NONE;
    }

    /**
     * Whether a new binding would be refused now because the table is full
     * ({@code wdisp/HTTP/max_session_tab_entries}): requests it does not hold then go to their group's default server (SAP's rule: sessions are kept, balancing
     * stops). A cheap estimate, read on every request.
     */
    default boolean isFull() {
        return false;
    }

    /** Whether {@link #changeTimeouts} works on this table (the node's own table: yes; cluster mode, off: no). */
    default boolean canChangeTimeout() {
        return false;
    }

    /**
     * Reloaded timeouts, applied to the running table, whose bindings all stay.
     *
     * @throws UnsupportedOperationException when {@link #canChangeTimeout} is false
     */
    default void changeTimeouts(SessionTimeouts timeouts) {
        throw new UnsupportedOperationException("this session table keeps its timeout until a restart: " + this);
    }

    @Override
    void close();
}
