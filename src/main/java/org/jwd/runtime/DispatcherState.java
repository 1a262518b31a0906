package org.jwd.runtime;

import java.util.HashMap;
import java.util.Map;

import org.jwd.config.DispatcherConfig;
import org.jwd.filter.PermissionTable;
import org.jwd.limits.LimitsConfig;
import org.jwd.limits.ServerSlots;
import org.jwd.routing.Router;
import org.jwd.routing.UrlPrefixLoader;
import org.jwd.topology.Topology;

/**
 * Everything a reload changes, as one immutable value swapped atomically ({@link Dispatcher#state()}): the
 * configuration in force, the topology, the router built for both, the URL mapping table's loader, the permission
 * table (the router's), the limits and each limited server's connection slots. A request reads the state once and
 * keeps it: its routing, its limits and its slot all come from one configuration, even while a reload swaps in the
 * next.
 *
 * @param urlPrefixes the URL mapping table in force (its entries loaded from {@code icf.url_prefixes_url} refresh
 *                    in place; a reload that changes its keys brings a new loader)
 * @param slots       server id -> its connection slots, for the servers with a limit; the topology's servers use
 *                    them
 */
public record DispatcherState(DispatcherConfig config, Topology topology, Router router, UrlPrefixLoader urlPrefixes,
                              LimitsConfig limits, Map<String, ServerSlots> slots) {
    public DispatcherState {
        slots = Map.copyOf(slots);
    }

    /** The URL filter the router applies. */
    public PermissionTable permissionTable() {
        return router.permissionTable();
    }

    /**
     * The slots for {@code next}: a server whose limit is unchanged keeps its slots object (with the requests it
     * holds and queues); a changed limit gets a new one, while the requests holding or waiting for the old slots
     * finish under the old limit.
     */
    static Map<String, ServerSlots> slotsFor(LimitsConfig next, Map<String, ServerSlots> before) {
        Map<String, ServerSlots> slots = new HashMap<>();
        next.servers().forEach((id, limit) -> {
            ServerSlots s = before.get(id);
            boolean same = s != null && s.maxConnections() == limit.maxConnections()
                    && s.maxQueue() == limit.maxQueue();
            slots.put(id, same ? s : new ServerSlots(limit.maxConnections(), limit.maxQueue()));
        });
        return slots;
    }

    /** Hands each server of the topology its slots ({@link ServerSlots#UNLIMITED} without a limit). */
    void useSlots() {
        topology.servers().values().forEach(s -> s.useSlots(slots.getOrDefault(s.id(), ServerSlots.UNLIMITED)));
    }
}
