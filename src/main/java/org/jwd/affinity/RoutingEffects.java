package org.jwd.affinity;

import java.util.function.Function;

import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;

/**
 * What a routing pass asks of the balancers and the session table: {@code route} changes them, explain does not.
 */
public interface RoutingEffects {
    /** The member of {@code group} a new request goes to, or {@code null}. */
    Server pick(ServerGroup group);

    String lookup(String key);

    String bind(String key, String serverId);

    String rebind(String key, String expectedServerId, String newServerId);

    /** Renews the entry's idle time, if the table holds one (nothing when explaining). */
    void touch(String key);

    /** Whether the table is full, so that requests it does not hold go to the default server. */
    boolean tableFull();

    /** Routing's effects: {@code pick} counts a dispatch, the table binds and refreshes. */
    static RoutingEffects live(SessionTable table, Function<ServerGroup, Server> pick) {
        return new RoutingEffects() {
            @Override
            public Server pick(ServerGroup group) {
                return pick.apply(group);
            }

            @Override
            public String lookup(String key) {
                return table.lookup(key);
            }

            @Override
            public String bind(String key, String serverId) {
                return table.bind(key, serverId);
            }

            @Override
            public String rebind(String key, String expectedServerId, String newServerId) {
                return table.rebind(key, expectedServerId, newServerId);
            }

            @Override
            public void touch(String key) {
                table.touch(key);
            }

            @Override
            public boolean tableFull() {
                return table.isFull();
            }
        };
    }

    /**
     * Explaining's effects: the same questions answered without changing anything. {@code favorite} names the
     * server a pick would choose without counting it; the table is peeked at; a bind reports the binding that
     * would be made.
     */
    static RoutingEffects dry(SessionTable table, Function<ServerGroup, Server> favorite) {
        return new RoutingEffects() {
            @Override
            public Server pick(ServerGroup group) {
                return favorite.apply(group);
            }

            @Override
            public String lookup(String key) {
                return table.peek(key);
            }

            @Override
            public String bind(String key, String serverId) {
                return serverId;
            }

            @Override
            public String rebind(String key, String expectedServerId, String newServerId) {
                return newServerId;
            }

            @Override
            public void touch(String key) {
                // explaining refreshes nothing
            }

            @Override
            public boolean tableFull() {
                return table.isFull();
            }
        };
    }
}
