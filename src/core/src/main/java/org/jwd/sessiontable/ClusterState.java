package org.jwd.sessiontable;

/**
 * Where the session table's bindings live at this moment (cluster mode, {@code SessionTable.cluster_uri}).
 * The admin page shows it; {@link SessionTable#clusterState()} reads it.
 */
public enum ClusterState {
    /** Not clustered: this node's own table, as without {@code SessionTable.cluster_uri}. */
    NONE,
    /** Clustered, but the Terracotta server has not been reached yet: this node serves from its own table. */
    CONNECTING,
    /** Clustered and connected: every binding is read from and written to the Terracotta server. */
    CONNECTED,
    /** Clustered, and the server was lost: this node serves from its own table until the server is back. */
    DISCONNECTED
}
