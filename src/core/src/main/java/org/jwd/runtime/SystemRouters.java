package org.jwd.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

import org.jwd.affinity.LearnedRoutes;
import org.jwd.sessiontable.SessionTable;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.ServerConfig;
import org.jwd.discovery.SystemView;
import org.jwd.limits.ConnectionSlots;
import org.jwd.registry.ServerRegistry;
import org.jwd.routing.Router;
import org.jwd.routing.UrlPrefixLoader;
import org.jwd.systems.SystemEntry;
import org.jwd.systems.SystemSelector;
import org.jwd.systems.Systems;
import org.jwd.topology.Server;
import org.jwd.topology.Topology;
import org.jwd.systems.SystemSessionTable;

/**
 * Each {@code wdisp/system_<xx>} system's way for a request, in a {@link DispatcherState}: the selector that picks
 * the system, and per system its topology (its servers, the very {@link Server} objects of the whole topology, and
 * its logon groups) and the router built for it, over its view of the shared session table. Without entries there
 * is none of this: the state's own router serves the implicit system as before.
 *
 * @param loaders       each system's URL mapping table, by SID: kept while its configuration stays, as the state's own
 * @param serverSystems the SID of each server's system, by server id: the configured servers', the discovered and
 *                      the registered ones'
 */
public record SystemRouters(SystemConfigs configs, SystemSelector selector, Map<String, Router> routers,
                     Map<String, UrlPrefixLoader> loaders, Map<String, String> serverSystems) {
    static final SystemRouters NONE = new SystemRouters(null, new SystemSelector(Systems.implicit()), Map.of(),
            Map.of(), Map.of());

    public SystemRouters {
        routers = Collections.unmodifiableMap(new LinkedHashMap<>(routers));
        loaders = Collections.unmodifiableMap(new LinkedHashMap<>(loaders));
        serverSystems = Map.copyOf(serverSystems);
    }

    /**
     * The URL mapping tables of {@code next}'s systems: this state's loader of each system whose configuration is
     * unchanged, a new one, loaded once, for every other.
     */
    Map<String, UrlPrefixLoader> loadersFor(SystemConfigs next, ScheduledExecutorService scheduler)
            throws ConfigException {
        Map<String, UrlPrefixLoader> result = new LinkedHashMap<>();
        if (next == null) {
            return result;
        }
        for (SystemEntry system : next.systems().systems()) {
            DispatcherConfig config = next.config(system);
            UrlPrefixLoader kept = loaders.get(system.sid());
            if (kept != null && configs != null && config.equals(configs.configs().get(system.sid()))) {
                result.put(system.sid(), kept);
            } else {
                UrlPrefixLoader loader = urlPrefixLoader(config);
                if (scheduler != null) {
                    loader.start(scheduler);
                }
                result.put(system.sid(), loader);
            }
        }
        return result;
    }

    /** @throws ConfigException naming {@code icf.url_prefixes} when an entry is refused ({@code /}, a bad path) */
    static UrlPrefixLoader urlPrefixLoader(DispatcherConfig config) throws ConfigException {
        try {
            return new UrlPrefixLoader(config);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("icf.url_prefixes = '" + String.join(",", config.urlMapping().urlPrefixes()) + "': "
                    + e.getMessage());
        }
    }

    /** Stops the loaders this state has and {@code next} does not. */
    void closeLoadersLeft(SystemRouters next) {
        loaders.forEach((sid, loader) -> {
            if (next.loaders.get(sid) != loader) {
                loader.close();
            }
        });
    }

    /** Starts the loaders' refreshes, at the dispatcher's start. */
    void start(ScheduledExecutorService scheduler) {
        loaders.values().forEach(loader -> loader.start(scheduler));
    }

    /** The SID of the system {@code serverId} belongs to, configured or registered; {@code null} for none. */
    String systemOf(String serverId) {
        return serverSystems.get(serverId);
    }

    /**
     * Builds each system's topology and router: its configured servers, then the servers registered into it, in
     * the order of their ids (as the registry keeps them).
     *
     * @param servers    every server of the whole topology by id: each system's servers are these very objects
     * @param registered the registry's servers, each with the SID of its system; one of a system that
     *                   {@code configs} lacks joins none (the dispatcher removes such registrations on reload)
     */
    static SystemRouters build(SystemConfigs configs, Map<String, UrlPrefixLoader> loaders,
                               Map<String, Server> servers, List<ServerRegistry.Registration> registered,
                               SessionTable table, LearnedRoutes learned, ConnectionSlots slots,
                               Map<String, SystemView> discovered) {
        if (configs == null) {
            return NONE;
        }
        Map<String, Router> routers = new LinkedHashMap<>();
        Map<String, String> serverSystems = new LinkedHashMap<>();
        for (SystemEntry system : configs.systems().systems()) {
            SystemView view = discovered.get(system.sid());
            DispatcherConfig config = Discovered.config(configs.config(system), view);
            List<Server> own = new ArrayList<>();
            for (ServerConfig s : config.servers()) {
                Server server = servers.get(s.id());
                // a discovered server whose id another system's server of the file took has no place
                if (server != null && serverSystems.putIfAbsent(s.id(), system.sid()) == null) {
                    own.add(server);
                }
            }
            for (ServerRegistry.Registration r : registered) {
                // a configured server of its id has taken its place (the dispatcher refuses such a registration)
                String id = r.config().id();
                if (system.sid().equals(r.system()) && serverSystems.putIfAbsent(id, system.sid()) == null) {
                    own.add(servers.get(id));
                }
            }
            Topology topology = Topology.of(own, config.logonGroups());
            routers.put(system.sid(), new Router(config, topology,
                    Discovered.table(loaders.get(system.sid()).current(), view),
                    new SystemSessionTable(table, system), learned, slots));
        }
        return new SystemRouters(configs, new SystemSelector(configs.systems()), routers, loaders, serverSystems);
    }
}
