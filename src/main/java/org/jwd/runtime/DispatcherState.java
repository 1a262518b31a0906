package org.jwd.runtime;

import org.jwd.config.DispatcherConfig;
import org.jwd.filter.PermissionTable;
import org.jwd.limits.LimitsConfig;
import org.jwd.limits.ConnectionSlots;
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
 * @param slots       every server's connection slots, as the limits say
 */
public record DispatcherState(DispatcherConfig config, Topology topology, Router router, UrlPrefixLoader urlPrefixes,
                              LimitsConfig limits, ConnectionSlots slots) {

    /** The URL filter the router applies. */
    public PermissionTable permissionTable() {
        return router.permissionTable();
    }
}
