package org.jwd.limits;

import java.util.HashMap;
import java.util.Map;

/**
 * Every server's connection slots ({@code server.<id>.max_connections}, {@code max_queue}), by server id, held by the
 * limits stage rather than by the servers: a server without a limit has {@link ServerSlots#UNLIMITED}. Immutable, a
 * part of the state a reload swaps: {@link #next} keeps the slots of a server whose limit is unchanged (with the
 * requests they hold and queue); a changed limit gets new slots, while the requests holding or waiting for the old
 * ones finish under the old limit (each keeps the slots object it was admitted to).
 *
 * <pre>
 * a: max_connections 2        -> of("a") = [0/2], of("b") = UNLIMITED
 * reload, a unchanged, b: 1   -> of("a") the same object, of("b") = [0/1]
 * </pre>
 */
public final class ConnectionSlots {
    /** No server limited: before the first configuration. */
    public static final ConnectionSlots NONE = new ConnectionSlots(Map.of());

    private final Map<String, ServerSlots> byServer;

    private ConnectionSlots(Map<String, ServerSlots> byServer) {
        this.byServer = Map.copyOf(byServer);
    }

    /** Slots for the limits of {@code limits}, keeping these ones where the limit is unchanged. */
    public ConnectionSlots next(LimitsConfig limits) {
        Map<String, ServerSlots> next = new HashMap<>();
        limits.servers().forEach((id, limit) -> {
            ServerSlots s = byServer.get(id);
            next.put(id, s != null && s.maxConnections() == limit.maxConnections()
                    && s.maxQueue() == limit.maxQueue() ? s : new ServerSlots(limit.maxConnections(), limit.maxQueue()));
        });
        return new ConnectionSlots(next);
    }

    /** The slots of the server with this id. */
    public ServerSlots of(String serverId) {
        return byServer.getOrDefault(serverId, ServerSlots.UNLIMITED);
    }

    @Override
    public String toString() {
        return "ConnectionSlots" + byServer;
    }
}
