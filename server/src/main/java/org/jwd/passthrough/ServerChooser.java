package org.jwd.passthrough;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.jwd.balancing.Balancer;
import org.jwd.config.DispatcherConfig;
import org.jwd.tls.PassthroughConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.Topology;

/**
 * Chooses the server for an end-to-end TLS connection, knowing only the client's address and the SNI name of
 * its ClientHello: the SNI name picks the group ({@code wdisp/HTTPS/dest_logon_group}; without one, every
 * HTTPS-enabled server), the client network (the address under {@code wdisp/HTTPS/sticky_mask}) keeps the
 * server it had within {@code wdisp/HTTPS/context_timeout}, and a network seen for the first time goes to the
 * group's balancer: weighted by capacity, with the connections each server holds counting as requests in flight.
 *
 * <pre>
 * for instance: servers a (capacity 1), b (capacity 2); mask 255.255.255.0; no connection held open
 * 10.0.1.7 -> b (balanced)   10.0.2.7 -> a (balanced)   10.0.1.99 -> b (same network)   10.0.3.1 -> b (balanced)
 * b goes down: 10.0.1.7 -> a (balanced anew, bound to a from now on)
 * </pre>
 */
final class ServerChooser {
    private final PassthroughConfig config;
    private final ServerGroup all;
    private final Map<String, ServerGroup> logonGroups = new LinkedHashMap<>();
    private final Map<ServerGroup, Balancer> balancers = new IdentityHashMap<>();
    private final ClientAddressTable table;
    private final byte[] mask;

    /** What was chosen, and why (for the debug log). */
    record Choice(Server server, ServerGroup group, boolean bound) {
        String reason() {
            return bound ? "client address bound to it" : "balanced in " + group.name();
        }
    }

    /** @param balancer builds the balancer of a group, as for HTTP requests ({@code Balancers.create}) */
    ServerChooser(DispatcherConfig dispatcherConfig, Topology topology, PassthroughConfig config,
                  ClientAddressTable table, Function<ServerGroup, Balancer> balancer) {
        this.config = config;
        this.table = table;
        this.all = topology.secureAll();
        balancers.put(all, balancer.apply(all));
        for (var lg : dispatcherConfig.logonGroups()) {
            List<Server> members = all.members().stream().filter(s -> lg.includes(s.config())).toList();
            // The logon group's configuration goes with it, so that its HTTP balancing (the strategy, or the
            // qualities when a group opts in) chooses for TLS connections too: both ways agree.
            ServerGroup group = new ServerGroup(lg.name(), null, members, lg, true);
            logonGroups.put(lg.name(), group);
            balancers.put(group, balancer.apply(group));
        }
        int m = config.stickyMask();
        this.mask = new byte[] {(byte) (m >>> 24), (byte) (m >>> 16), (byte) (m >>> 8), (byte) m};
    }

    /**
     * @param client     the client's address
     * @param serverName the SNI name of its ClientHello, or {@code null}
     * @param failed     servers that could not be reached for this connection already
     * @return {@code null} when no server of the group can take it
     */
    Choice choose(InetAddress client, String serverName, Collection<Server> failed) {
        String logonGroup = config.logonGroupFor(serverName);
        ServerGroup group = logonGroup == null ? all : logonGroups.get(logonGroup);
        Object key = key(group, client);
        String boundId = table.lookup(key);
        if (boundId != null) {
            Server bound = group.member(boundId);
            if (bound != null && bound.servesItsSessions(true) && !failed.contains(bound)) {
                return new Choice(bound, group, true);
            }
        }
        Balancer balancer = balancers.get(group);
        // A server that failed for this connection but is not marked down yet (a timeout counts towards
        // health.fall) may come up again: skip it, a bounded number of times.
        for (int i = 0; i <= group.members().size(); i++) {
            Server s = balancer.pick();
            if (s == null) {
                return null;
            }
            if (!failed.contains(s)) {
                table.bind(key, s.id());
                return new Choice(s, group, false);
            }
        }
        return null;
    }

    /** The client network: its address under the mask (IPv6: the /64 it belongs to), within the group. */
    Object key(ServerGroup group, InetAddress client) {
        byte[] a = client.getAddress();
        long network = 0;
        if (client instanceof Inet4Address) {
            for (int i = 0; i < 4; i++) {
                network = network << 8 | (a[i] & mask[i] & 0xFF);
            }
            return new Network(group.name(), 4, network);
        }
        for (int i = 0; i < 8; i++) {
            network = network << 8 | (a[i] & 0xFF);
        }
        return new Network(group.name(), 6, network);
    }

    private record Network(String group, int family, long bits) {
    }

    @Override
    public String toString() {
        return "ServerChooser[" + all + ", logon groups " + logonGroups.values() + ", " + table + "]";
    }
}
