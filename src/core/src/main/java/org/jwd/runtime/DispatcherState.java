package org.jwd.runtime;

import org.jwd.config.DispatcherConfig;
import org.jwd.filter.PermissionTable;
import org.jwd.limits.LimitsConfig;
import org.jwd.limits.ConnectionSlots;
import org.jwd.modification.HeaderEdit;
import org.jwd.modification.Modification;
import org.jwd.modification.ModificationHandlers;
import org.jwd.routing.Router;
import org.jwd.routing.RoutingRequest;
import org.jwd.routing.UrlPrefixLoader;
import org.jwd.systems.Selection;
import org.jwd.systems.SelectionRequest;
import org.jwd.systems.SystemEntry;
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
 * @param systems     each {@code wdisp/system_<xx>} system's router and its selector; none without entries
 */
public record DispatcherState(DispatcherConfig config, Topology topology, Router router, UrlPrefixLoader urlPrefixes,
                              LimitsConfig limits, ConnectionSlots slots, SystemRouters systems) {
    /** The selection of every request without {@code wdisp/system_<xx>} entries: the one implicit system. */
    public static final Selection IMPLICIT = new Selection(SystemEntry.implicit(), "the only system: no "
            + SystemEntry.KEY_PREFIX + "<xx> is configured");

    /** The state of a configuration without {@code wdisp/system_<xx>}: its one router serves every request. */
    public DispatcherState(DispatcherConfig config, Topology topology, Router router, UrlPrefixLoader urlPrefixes,
                           LimitsConfig limits, ConnectionSlots slots) {
        this(config, topology, router, urlPrefixes, limits, slots, SystemRouters.NONE);
    }

    /** Whether {@code wdisp/system_<xx>} entries are configured: without them every request is {@link #IMPLICIT}'s. */
    public boolean hasSystems() {
        return systems.configs() != null;
    }

    /**
     * The system of a request, the first step of its way after the admin paths. A path that does not normalize
     * goes to the implicit system, whose router answers it 400 as it always did.
     *
     * @param host the {@code Host} (or {@code :authority}, or a trusted proxy's {@code X-Forwarded-Host}), or
     *             {@code null}
     */
    public Selection select(String localAddress, int localPort, String host, RoutingRequest request) {
        if (!hasSystems() || request.path() == null) {
            return IMPLICIT;
        }
        return systems.selector().select(new SelectionRequest(localAddress, localPort, host, request.secure(),
                request.path()));
    }

    /**
     * As {@link #select(String, int, String, RoutingRequest)}, for a request that may name its system itself
     * ({@link Modification#targetSid()}: a rule of the modification handler, or a trusted proxy): a named system
     * takes it whatever the entries' criteria say, and a SID no entry has gets none (404). Without entries the name
     * is not looked at: there is one system.
     */
    public Selection select(String localAddress, int localPort, String host, RoutingRequest request,
                            String targetSid) {
        if (targetSid == null || !hasSystems() || request.path() == null) {
            return select(localAddress, localPort, host, request);
        }
        return systems.selector().selectNamed(targetSid, Modification.TARGET_SID_HEADER);
    }

    /** The modification handler of the configuration in force ({@code icm/HTTP/mod_<xx>}). */
    public ModificationHandlers modifications() {
        return config.sections().find(ModificationHandlers.class).orElse(ModificationHandlers.NONE);
    }

    /**
     * The request as routing reads it once the modification handler is through: its URL rewritten, its cookies as
     * the rules left them; {@code original} itself when no rule changed either.
     */
    public static RoutingRequest modified(RoutingRequest original, Modification modification) {
        HeaderEdit cookie = modification.requestHeader("Cookie");
        if (!modification.rewritten() && cookie == null) {
            return original;
        }
        return RoutingRequest.of(original.method(),
                modification.rewritten() ? modification.rawPath() : original.rawPath(),
                modification.rewritten() ? modification.query() : original.query(),
                cookie == null ? original.cookieHeaders()
                        : cookie.value() == null ? java.util.List.of() : java.util.List.of(cookie.value()),
                original.secure());
    }

    /**
     * The SID of the system {@code serverId} belongs to, a server of the file or one registered into the system;
     * {@code null} without entries.
     */
    public String systemOf(String serverId) {
        return systems.systemOf(serverId);
    }

    /**
     * The router of {@code system}: the state's own for the implicit system, else the system's; {@code null} when
     * this state has no such system (a reload removed it).
     */
    public Router router(SystemEntry system) {
        return system.isImplicit() ? router : systems.routers().get(system.sid());
    }

    /** The URL filter the router applies. */
    public PermissionTable permissionTable() {
        return router.permissionTable();
    }
}
