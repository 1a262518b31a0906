package org.jwd.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.jwd.metrics.ServerSystems;
import org.jwd.topology.Topology;

/**
 * The metrics' view of the systems ({@link ServerSystems}) over the state in force: whether entries are configured,
 * and each server's SID ({@link DispatcherState#systemOf}: one map read, as it is asked for every answer a server
 * gives).
 */
final class StateSystems implements ServerSystems {
    private final Supplier<DispatcherState> states;

    StateSystems(Supplier<DispatcherState> states) {
        this.states = states;
    }

    @Override
    public boolean configured() {
        return states.get().hasSystems();
    }

    @Override
    public String systemOf(String serverId) {
        return states.get().systemOf(serverId);
    }

    @Override
    public Map<String, Topology> topologies() {
        Map<String, Topology> topologies = new LinkedHashMap<>();
        states.get().systems().routers().forEach((sid, router) -> topologies.put(sid, router.topology()));
        return topologies;
    }

    @Override
    public String toString() {
        DispatcherState state = states.get();
        return state.hasSystems() ? "systems " + state.systems().configs().configs().keySet() : "no systems";
    }
}
