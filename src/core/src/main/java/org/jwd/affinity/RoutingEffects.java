package org.jwd.affinity;

import java.util.function.Function;

import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.sessiontable.SessionTable;

/**
 * What a routing pass asks of the balancers and the session table: {@code route} changes them, explain does not.
 * Both ask the same questions of the same table; they differ only in whether an answer may change it, so one
 * class answers for both.
 */
public final class RoutingEffects {
    private final SessionTable table;
    private final Function<ServerGroup, Server> pick;
    /** false when explaining: the table is peeked at, a bind reports the binding that would be made */
    private final boolean changesTable;

    private RoutingEffects(SessionTable table, Function<ServerGroup, Server> pick, boolean changesTable) {
        this.table = table;
        this.pick = pick;
        this.changesTable = changesTable;
    }

    /** Routing's effects: {@code pick} counts a dispatch, the table binds and refreshes. */
    public static RoutingEffects live(SessionTable table, Function<ServerGroup, Server> pick) {
        return new RoutingEffects(table, pick, true);
    }

    /**
     * Explaining's effects: the same questions answered without changing anything. {@code favorite} names the
     * server a pick would choose without counting it; the table is peeked at; a bind reports the binding that
     * would be made.
     */
    public static RoutingEffects dry(SessionTable table, Function<ServerGroup, Server> favorite) {
        return new RoutingEffects(table, favorite, false);
    }

    /** The member of {@code group} a new request goes to, or {@code null}. */
    public Server pick(ServerGroup group) {
        return pick.apply(group);
    }

    public String lookup(String key) {
        return changesTable ? table.lookup(key) : table.peek(key);
    }

    public String bind(String key, String serverId) {
        return changesTable ? table.bind(key, serverId) : serverId;
    }

    public String rebind(String key, String expectedServerId, String newServerId) {
        return changesTable ? table.rebind(key, expectedServerId, newServerId) : newServerId;
    }

    /** Renews the entry's idle time, if the table holds one (nothing when explaining). */
    public void touch(String key) {
        if (changesTable) {
            table.touch(key);
        }
    }

    /** Whether the table is full, so that requests it does not hold go to the default server. */
    public boolean tableFull() {
        return table.isFull();
    }

    @Override
    public String toString() {
        return (changesTable ? "live" : "dry") + " effects on " + table;
    }
}
