package org.jwd.balancing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jwd.balancing.Fixtures.noRandom;
import static org.jwd.balancing.Fixtures.sequence;
import static org.jwd.balancing.Fixtures.split;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.config.ServerType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every balancer skips the members that cannot take the group's requests through the port they must use: in a
 * secure group a member whose HTTPS port is down, in a plain group one whose plain port is down.
 */
class SecureGroupBalancingTest {
    /** A server of capacity 1 with a plain and an HTTPS port. */
    private static Server server(String id) {
        return new Server(new ServerConfig(id, URI.create("http://127.0.0.1:1"), URI.create("https://127.0.0.1:2"),
                ServerType.J2EE, 1, Set.of("PUBLIC"), id, id, null, "/"));
    }

    private static Balancer balancer(String strategy, List<Server> servers, boolean secure) {
        if (strategy.length() == 1) {
            LogonGroupConfig lg = new LogonGroupConfig("PUBLIC", List.of("/sap/bc/"), strategy.charAt(0), false,
                    true, Duration.ofMinutes(2), 200, LogonGroupConfig.HttpBalancing.QUALITY, false);
            return Balancers.create(new ServerGroup("PUBLIC", ServerType.J2EE, servers, lg, secure),
                    Fixtures.config(""), () -> 0L, noRandom());
        }
        return Balancers.create(new ServerGroup(secure ? ServerGroup.J2EES : ServerGroup.J2EE, ServerType.J2EE,
                servers, null, secure), Fixtures.strategy(strategy), () -> 0L, noRandom());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DispatcherConfig.WEIGHTED_ROUND_ROBIN, DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN,
            "B", "R", "W"})
    void aMemberWhoseHttpsPortIsDownGetsNoRequestOfASecureGroupButStillThoseOfAPlainOne(String strategy) {
        List<Server> servers = List.of(server("a"), server("b"), server("c"));
        servers.get(1).recordFailure(true, 1, "GET https://127.0.0.1:2/: refused");

        assertThat(sequence(balancer(strategy, servers, true), 12)).doesNotContain("b").contains("a", "c");
        assertThat(sequence(balancer(strategy, servers, false), 30)).contains("b");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DispatcherConfig.WEIGHTED_ROUND_ROBIN, DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN,
            "B", "R", "W"})
    void aMemberWhosePlainPortIsDownStillGetsTheRequestsOfASecureGroup(String strategy) {
        List<Server> servers = List.of(server("a"), server("b"), server("c"));
        servers.get(1).recordFailure(false, 1, "GET http://127.0.0.1:1/: refused");

        assertThat(sequence(balancer(strategy, servers, false), 12)).doesNotContain("b");
        assertThat(sequence(balancer(strategy, servers, true), 30)).contains("b");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {DispatcherConfig.WEIGHTED_ROUND_ROBIN, DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN})
    void aSecureGroupWhoseHttpsPortsAreAllDownPicksNobody(String strategy) {
        List<Server> servers = List.of(server("a"), server("b"));
        servers.forEach(s -> s.recordFailure(true, 1, "down"));

        assertThat(balancer(strategy, servers, true).pick()).isNull();
        assertThat(sequence(balancer(strategy, servers, false), 4)).isEqualTo(split("a b a b"));
    }
}
