package org.jwd.routing;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.Topology;

/** Interim: round robin over all servers (replaced by group determination, affinity and balancing). */
public final class Router {
    private final Topology topology;
    private final List<Server> servers;
    private final AtomicLong next = new AtomicLong();

    public Router(DispatcherConfig config, Topology topology) {
        this.topology = topology;
        this.servers = List.copyOf(topology.servers().values());
    }

    public RoutingDecision route(RoutingRequest request) {
        ServerGroup all = topology.internalGroup(ServerGroup.ALL);
        for (int i = 0; i < servers.size(); i++) {
            Server s = servers.get((int) (Math.floorMod(next.getAndIncrement(), servers.size())));
            if (s.takesNewRequests()) {
                s.requestStarted(false);
                String target = s.config().url() + request.rawPath()
                        + (request.query() == null ? "" : "?" + request.query());
                return RoutingDecision.forward(request.rawPath(), all, s, "balanced", target, false);
            }
        }
        return RoutingDecision.reject(503, "no server configured", request.rawPath(), all, "no server");
    }
}
