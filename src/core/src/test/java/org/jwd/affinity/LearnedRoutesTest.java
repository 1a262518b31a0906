package org.jwd.affinity;

import static org.assertj.core.api.Assertions.assertThat;

import org.jwd.config.ConfigException;
import org.jwd.topology.Topology;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;

/**
 * What the dispatcher keeps of the route suffixes servers taught across the topologies a reload or the registry
 * builds: a rebuilt topology keeps them, a server that leaves takes its own with it.
 */
class LearnedRoutesTest {
    private static final String TC1 = "server.tc1.url = http://tomcat1:8080\nserver.tc1.type = j2ee\n";
    private static final String TC2 = "server.tc2.url = http://tomcat2:8080\nserver.tc2.type = j2ee\n";
    private static final String TC3 = "server.tc3.url = http://tomcat3:8080\nserver.tc3.type = j2ee\n";

    private final LearnedRoutes routes = new LearnedRoutes();

    private static Topology topology(String config) throws ConfigException {
        return Topology.of(ConfigReader.parse(config, "test"));
    }

    @Test
    void keepsWhatWasLearnedWhenTheTopologyIsRebuiltWithTheSameServers() throws ConfigException {
        Topology before = topology(TC1 + TC2);
        routes.learn(before, before.server("tc1"), "4F2A.tc1");

        routes.retain(topology(TC1 + TC2 + "jwd.request_timeout = 30s\n"));

        assertThat(routes.serverFor("tc1")).isEqualTo("tc1");
        assertThat(routes.routeOf("tc1")).isEqualTo("tc1");
    }

    @Test
    void forgetsTheRouteOfAServerThatLeftTheTopology() throws ConfigException {
        Topology before = topology(TC1 + TC2);
        routes.learn(before, before.server("tc1"), "4F2A.tc1");
        routes.learn(before, before.server("tc2"), "9B31.tc2");

        routes.retain(topology(TC2));

        assertThat(routes.serverFor("tc1")).isNull();
        assertThat(routes.routeOf("tc1")).isNull();
        assertThat(routes.serverFor("tc2")).isEqualTo("tc2");
    }

    @Test
    void forgetsALearnedRouteOnceTheServerHasOneConfigured() throws ConfigException {
        Topology before = topology(TC1);
        routes.learn(before, before.server("tc1"), "4F2A.tc1");

        routes.retain(topology(TC1 + "server.tc1.route = node1\n"));

        assertThat(routes.serverFor("tc1")).isNull();
        assertThat(routes.routeOf("tc1")).isNull();
    }

    @Test
    void forgetsALearnedRouteThatAnotherServerNowHasConfigured() throws ConfigException {
        Topology before = topology(TC1 + TC2);
        routes.learn(before, before.server("tc1"), "4F2A.shared");

        routes.retain(topology(TC1 + TC2 + "server.tc2.route = shared\n"));

        assertThat(routes.serverFor("shared")).isNull();
    }

    @Test
    void aRouteTwoServersClaimedIsLearnedAgainOnceOneOfThemLeft() throws ConfigException {
        Topology both = topology(TC1 + TC2);
        routes.learn(both, both.server("tc1"), "4F2A.node0");
        routes.learn(both, both.server("tc2"), "9B31.node0");
        assertThat(routes.isRefused("node0")).isTrue();
        assertThat(routes.serverFor("node0")).isNull();
        assertThat(routes.routeOf("tc1")).isNull();

        Topology alone = topology(TC1);
        routes.retain(alone);
        assertThat(routes.isRefused("node0")).isFalse();
        routes.learn(alone, alone.server("tc1"), "77C0.node0");

        assertThat(routes.serverFor("node0")).isEqualTo("tc1");
    }

    @Test
    void aRouteAnotherServerHasConfiguredIsRefused() throws ConfigException {
        Topology t = topology(TC1 + TC2 + "server.tc2.route = tc1\n");

        routes.learn(t, t.server("tc1"), "4F2A.tc1");

        assertThat(routes.isRefused("tc1")).isTrue();
        assertThat(routes.routeOf("tc1")).isNull();
        routes.retain(t);
        assertThat(routes.isRefused("tc1")).as("both claimants are still in the topology").isTrue();
    }

    @Test
    void aRefusalLastsWhileTwoClaimantsRemainAndEndsWhenOneOfThemLearnsAnotherRoute() throws ConfigException {
        Topology t = topology(TC1 + TC2 + TC3);
        routes.learn(t, t.server("tc1"), "4F2A.node0");
        routes.learn(t, t.server("tc2"), "9B31.node0");

        routes.learn(t, t.server("tc3"), "1C5D.tc3");
        assertThat(routes.isRefused("node0")).as("another server learning a route").isTrue();
        routes.retain(topology(TC1 + TC2 + TC3));
        assertThat(routes.isRefused("node0")).as("a topology keeping both claimants").isTrue();

        routes.learn(t, t.server("tc1"), "77C0.other");
        assertThat(routes.isRefused("node0")).isFalse();
        assertThat(routes.serverFor("other")).isEqualTo("tc1");
    }

    @Test
    void logsARouteLearnedAndTheOneItReplaced() throws ConfigException {
        Topology t = topology(TC1);
        try (org.jwd.routing.LogCapture log = new org.jwd.routing.LogCapture(LearnedRoutes.class)) {
            routes.learn(t, t.server("tc1"), "4F2A.first");
            routes.learn(t, t.server("tc1"), "9B31.second");

            assertThat(log.text()).contains("jwd: server tc1 ends its session ids with .first: learned as its route\n",
                    "jwd: server tc1 ends its session ids with .second: learned as its route (was .first)\n");
        }
    }
}
