package org.jwd.passthrough;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.jwd.balancing.Balancer;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.ServerType;
import org.jwd.tls.PassthroughConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.Topology;

/**
 * Chooses the server for an end-to-end TLS connection, knowing only the client's address and the SNI name of
 * its ClientHello: the SNI name picks the group ({@code wdisp/HTTPS/dest_logon_group}; without one, every
 * HTTPS-enabled server) and {@link #pool} its members of one kind, the client network (the address under {@code wdisp/HTTPS/sticky_mask}) keeps the
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
    /** By pool, the HTTPS-enabled servers {@link #pool} left out, in configuration order (for the start's warning). */
    private final Map<String, List<Server>> leftOut = new LinkedHashMap<>();

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
        ServerGroup secureAll = topology.secureAll();
        this.all = new ServerGroup(secureAll.name(), null, pool(secureAll.members(),
                leftOut.computeIfAbsent(secureAll.name(), n -> new ArrayList<>())), null, true);
        balancers.put(all, balancer.apply(all));
        for (var lg : dispatcherConfig.logonGroups()) {
            List<Server> members = pool(secureAll.members().stream().filter(s -> lg.includes(s.config())).toList(),
                    leftOut.computeIfAbsent(lg.name(), n -> new ArrayList<>()));
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
     * The members of an end-to-end TLS pool, as SAP's Web Dispatcher chooses them: an HTTPS connection to an SAP
     * instance reaches its ICM, which serves ABAP and Java URLs alike, and SAP balances {@code PROT=ROUTER}
     * connections over the HTTPS-enabled instances that have a Java (J2EE) part. A jwd server is one process, ABAP
     * or J2EE, and a connection whose URLs jwd cannot read would meet the wrong kind in a mixed pool: the pool is
     * its J2EE servers, or, where it has none (an ABAP-only landscape or logon group), its ABAP servers. The
     * others are added to {@code leftOut}.
     *
     * <pre>
     * a (j2ee), b (abap), c (j2ee)  ->  a, c   (b left out)
     * b (abap), d (abap)            ->  b, d
     * </pre>
     */
    static List<Server> pool(List<Server> httpsEnabled, List<Server> leftOut) {
        boolean j2ee = httpsEnabled.stream().anyMatch(s -> s.type() == ServerType.J2EE);
        ServerType kind = j2ee ? ServerType.J2EE : ServerType.ABAP;
        List<Server> pool = new ArrayList<>();
        for (Server s : httpsEnabled) {
            if (s.type() == kind) {
                pool.add(s);
            } else {
                leftOut.add(s);
            }
        }
        return pool;
    }

    /**
     * The servers {@link #pool} left out of the pools end-to-end TLS uses (every HTTPS-enabled server's unless
     * {@code wdisp/HTTPS/dest_logon_group} names a group for every connection, and the groups it names), by pool:
     * {@code !ALL -> [b]}.
     */
    Map<String, List<Server>> leftOut() {
        Map<String, List<Server>> used = new LinkedHashMap<>();
        if (config.defaultLogonGroup() == null) {
            used.put(all.name(), leftOut.get(all.name()));
        } else {
            used.put(config.defaultLogonGroup(), leftOut.get(config.defaultLogonGroup()));
        }
        config.logonGroupsBySni().values().forEach(g -> used.put(g, leftOut.get(g)));
        used.values().removeIf(servers -> servers == null || servers.isEmpty());
        return used;
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
