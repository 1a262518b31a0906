package org.jwd.balancing;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.config.ServerType;
import org.jwd.runtime.ConfigReader;

/** Servers, groups, configurations and a hand-moved clock for the balancer tests. */
final class Fixtures {
    private Fixtures() {
    }

    static Server server(String id, int capacity) {
        return new Server(new ServerConfig(id, URI.create("http://127.0.0.1:1"), null, ServerType.J2EE, capacity,
                Set.of(), id, id, null, "/"));
    }

    /** Servers a, b, c, ... (s0, s1, ... beyond 26) with these capacities. */
    static List<Server> servers(int... capacities) {
        List<Server> list = new ArrayList<>();
        for (int i = 0; i < capacities.length; i++) {
            String id = capacities.length <= 26 ? String.valueOf((char) ('a' + i)) : "s" + i;
            list.add(server(id, capacities[i]));
        }
        return list;
    }

    static ServerGroup internal(List<Server> members) {
        return new ServerGroup(ServerGroup.J2EE, ServerType.J2EE, members, null, false);
    }

    /** Logon group PUBLIC that opted in to balancing its HTTP requests by its type's qualities. */
    static ServerGroup logon(char type, boolean extRfc, Duration refresh, int refreshDispatches,
                             List<Server> members) {
        return new ServerGroup("PUBLIC", ServerType.J2EE, members, new LogonGroupConfig("PUBLIC", List.of("/sap/bc/"),
                type, false, extRfc, refresh, refreshDispatches, LogonGroupConfig.HttpBalancing.QUALITY, false), false);
    }

    /** Logon group PUBLIC as configured by default: HTTP requests by the strategy, the type for reporting. */
    static ServerGroup logonByStrategy(char type, boolean extRfc, Duration refresh, int refreshDispatches,
                                       List<Server> members) {
        return new ServerGroup("PUBLIC", ServerType.J2EE, members, new LogonGroupConfig("PUBLIC", List.of("/sap/bc/"),
                type, false, extRfc, refresh, refreshDispatches, LogonGroupConfig.HttpBalancing.STRATEGY, false), false);
    }

    /** The defaults (one server a) plus these property lines. */
    static DispatcherConfig config(String properties) {
        try {
            return ConfigReader.parse("server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n" + properties, "test");
        } catch (ConfigException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    static DispatcherConfig strategy(String strategy) {
        return config("wdisp/load_balancing_strategy=" + strategy + "\n");
    }

    /** Picks n times sequentially, each request finishing before the next pick; the chosen ids in order. */
    static List<String> sequence(Balancer balancer, int n) {
        List<String> ids = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            Server s = balancer.pick();
            if (s == null) {
                ids.add(null);
                continue;
            }
            s.requestStarted(false);
            s.requestFinished(false);
            ids.add(s.id());
        }
        return ids;
    }

    static List<String> split(String ids) {
        return List.of(ids.split(" "));
    }

    /** A generator that always answers 0: scans start at the first member, shuffles keep the group's order. */
    static RandomGenerator noRandom() {
        return () -> 0L;
    }

    /** A clock the test moves by hand. */
    static final class Clock implements LongSupplier {
        private long now = 1_000_000_000L;

        @Override
        public long getAsLong() {
            return now;
        }

        void advance(Duration d) {
            now += d.toNanos();
        }
    }
}
