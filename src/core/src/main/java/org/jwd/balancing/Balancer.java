package org.jwd.balancing;

import org.jwd.topology.Server;

/**
 * Chooses a server of one group for a request that no session binds yet. One balancer per group; it is
 * built for the group's members and replaced with the topology. {@link #pick()} takes no lock held across
 * I/O and is safe from many threads at once.
 */
public interface Balancer {
    /**
     * Chooses the member for the next request and counts the dispatch (load factor, quality); the caller
     * reports in-flight requests on the {@link Server} itself.
     *
     * @return a member that {@link Server#takesNewRequests(boolean) takes new requests} through the port the group's
     *         requests use ({@link org.jwd.topology.ServerGroup#secure()}), or {@code null} when none does
     */
    Server pick();

    /** An immutable view for the admin page: strategy, and each member's load factor or quality. */
    BalancerSnapshot snapshot();
}
