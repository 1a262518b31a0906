package org.jwd.sessiontable;

/**
 * The session table's cluster as the admin page and the metrics show it (cluster mode,
 * {@code SessionTable.cluster_uri}); {@link #NOT_CLUSTERED} for a table of this node alone.
 *
 * @param uri            {@code SessionTable.cluster_uri}, or {@code null} when not clustered
 * @param state          where bindings live now
 * @param sinceMillis    epoch milliseconds of the last change of state (0 when not clustered)
 * @param outages        times the server was lost
 * @param servedLocally  operations served from this node's own table because the server was unreachable
 * @param carriedOver    bindings made without the server that were carried over to it afterwards
 * @param freshStarts    times the client was dropped and built anew because it did not recover by itself
 * @param writes         writes of sessions' entries the server answered (bindings, rebindings, renewals, "no
 *                       binding" markers)
 * @param writeNanos     their time from the call to the answer: {@code writeNanos / writes} is the server's mean
 *                       write latency as this node sees it (of two readings, the deltas' quotient: over that time)
 */
public record ClusterStatus(String uri, ClusterState state, long sinceMillis, long outages, long servedLocally,
                            long carriedOver, long freshStarts, long writes, long writeNanos) {
    public static final ClusterStatus NOT_CLUSTERED = new ClusterStatus(null, ClusterState.NONE, 0, 0, 0, 0, 0, 0,
            0);

    public boolean clustered() {
        return state != ClusterState.NONE;
    }
}
