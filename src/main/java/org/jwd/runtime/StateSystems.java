package org.jwd.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.jwd.metrics.ServerSystems;

/**
 * The metrics' view of the systems ({@link ServerSystems}) over the state in force: whether entries are configured,
 * and each server's SID. Asked for every answer a server gives, so the SID of each server id is worked out once per
 * state (a reload swaps in a new one) and then read from a map.
 */
final class StateSystems implements ServerSystems {
    /** A state and the SID of each server of its systems. */
    private record Lookup(DispatcherState state, Map<String, String> sids) {
    }

    private final Supplier<DispatcherState> states;
    /** the lookup of the state last asked about; a racing thread may build it twice, harmlessly */
    private volatile Lookup last;

    StateSystems(Supplier<DispatcherState> states) {
        this.states = states;
    }

    @Override
    public boolean configured() {
        return states.get().hasSystems();
    }

    @Override
    public String systemOf(String serverId) {
        DispatcherState state = states.get();
        Lookup lookup = last;
        if (lookup == null || lookup.state() != state) {
            lookup = new Lookup(state, sids(state));
            last = lookup;
        }
        return lookup.sids().get(serverId);
    }

    /** Each server id of the state's topology with its SID, as {@link DispatcherState#systemOf} says. */
    private static Map<String, String> sids(DispatcherState state) {
        Map<String, String> sids = new HashMap<>();
        if (state.hasSystems()) {
            for (String id : state.topology().servers().keySet()) {
                String sid = state.systemOf(id);
                if (sid != null) {
                    sids.put(id, sid);
                }
            }
        }
        return sids;
    }

    @Override
    public String toString() {
        DispatcherState state = states.get();
        return state.hasSystems() ? "systems " + state.systems().configs().configs().keySet() : "no systems";
    }
}
