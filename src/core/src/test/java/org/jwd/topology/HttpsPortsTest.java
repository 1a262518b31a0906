package org.jwd.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.ServerType;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;

/**
 * Servers with a plain port, an HTTPS port or both: which groups they are in, and how the two ports' health and
 * the operator's state decide whether a request that must go one way or the other may go to them.
 */
class HttpsPortsTest {
    private static final String LANDSCAPE = """
            server.plain.url=http://127.0.0.1:9001
            server.plain.type=j2ee
            server.plain.logon_groups=PORTAL
            server.both.url=http://127.0.0.1:9002
            server.both.https_url=https://127.0.0.1:9442
            server.both.type=j2ee
            server.both.logon_groups=PORTAL
            server.tls.https_url=https://127.0.0.1:9443
            server.tls.type=j2ee
            server.tls.logon_groups=PORTAL
            server.abap.https_url=https://127.0.0.1:9444
            server.abap.type=abap
            logon_group.PORTAL.url_prefixes=/irj
            """;

    private final Topology topology;

    HttpsPortsTest() throws Exception {
        DispatcherConfig config = ConfigReader.parse(LANDSCAPE, "test.properties");
        topology = Topology.of(config);
    }

    private static List<String> ids(ServerGroup group) {
        return group.members().stream().map(Server::id).toList();
    }

    @Test
    void aServerWithOnlyAnHttpsUrlIsAMemberOfTheSecureGroupsAlone() {
        assertThat(ids(topology.internalGroup(ServerGroup.J2EE))).containsExactlyInAnyOrder("plain", "both");
        assertThat(ids(topology.internalGroup(ServerGroup.J2EES))).containsExactlyInAnyOrder("both", "tls");
        assertThat(ids(topology.internalGroup(ServerGroup.DIAG))).isEmpty();
        assertThat(ids(topology.internalGroup(ServerGroup.DIAGS))).containsExactlyInAnyOrder("abap");
        assertThat(ids(topology.internalGroup(ServerGroup.ALL))).containsExactlyInAnyOrder("plain", "both");
        assertThat(ids(topology.secureAll())).containsExactlyInAnyOrder("both", "tls", "abap");
        assertThat(ids(topology.logonGroup("PORTAL", ServerType.J2EE, false))).containsExactlyInAnyOrder("plain", "both");
        assertThat(ids(topology.logonGroup("PORTAL", ServerType.J2EE, true))).containsExactlyInAnyOrder("both", "tls");
    }

    @Test
    void eachGroupKnowsWhetherItsRequestsGoOverHttps() {
        assertThat(topology.internalGroup(ServerGroup.J2EE).secure()).isFalse();
        assertThat(topology.internalGroup(ServerGroup.DIAG).secure()).isFalse();
        assertThat(topology.internalGroup(ServerGroup.ALL).secure()).isFalse();
        assertThat(topology.internalGroup(ServerGroup.J2EES).secure()).isTrue();
        assertThat(topology.internalGroup(ServerGroup.DIAGS).secure()).isTrue();
        assertThat(topology.secureAll().secure()).isTrue();
        assertThat(topology.logonGroup("PORTAL", ServerType.J2EE, false).secure()).isFalse();
        assertThat(topology.logonGroup("PORTAL", ServerType.J2EE, true).secure()).isTrue();
        assertThat(topology.allGroups()).contains(topology.secureAll());
    }

    @Test
    void aFailingHttpsPortTakesTheServerOutOfTheSecureGroupsOnly() {
        Server both = topology.server("both");

        assertThat(both.recordFailure(true, 1, "GET https://127.0.0.1:9442/: refused")).isTrue();

        assertThat(both.takesNewRequests(true)).isFalse();
        assertThat(both.servesItsSessions(true)).isFalse();
        assertThat(both.state(true)).isEqualTo(Server.State.DOWN);
        assertThat(both.lastCheck(true)).isEqualTo("GET https://127.0.0.1:9442/: refused");
        assertThat(both.takesNewRequests(false)).isTrue();
        assertThat(both.servesItsSessions(false)).isTrue();
        assertThat(both.takesNewRequests()).as("the no-argument form is the plain port").isTrue();
        assertThat(both.state()).isEqualTo(Server.State.UP);
        assertThat(both.healthy()).isTrue();
        assertThat(both.lastCheck()).isEqualTo("not checked yet");
    }

    @Test
    void aFailingPlainPortWithAGoodHttpsPortLeavesTheServerInTheSecureGroups() {
        Server both = topology.server("both");

        both.recordFailure(false, 1, "GET http://127.0.0.1:9002/: refused");

        assertThat(both.takesNewRequests(false)).isFalse();
        assertThat(both.takesNewRequests()).isFalse();
        assertThat(both.takesNewRequests(true)).isTrue();
        assertThat(both.servesItsSessions(true)).isTrue();
        assertThat(topology.internalGroup(ServerGroup.J2EES).hasActiveMember()).isTrue();
    }

    @Test
    void aPortComesBackAfterRiseGoodChecksOfItsOwn() {
        Server both = topology.server("both");
        both.recordFailure(true, 1, "down");

        assertThat(both.recordSuccess(false, 1, "plain ok")).as("the plain port was never down").isFalse();
        assertThat(both.recordSuccess(true, 2, "ok")).isFalse();
        assertThat(both.takesNewRequests(true)).isFalse();
        assertThat(both.recordSuccess(true, 2, "ok")).isTrue();
        assertThat(both.takesNewRequests(true)).isTrue();
    }

    @Test
    void theFailuresOfOnePortDoNotCountTowardsTheOther() {
        Server both = topology.server("both");

        both.recordFailure(false, 2, "plain 1");
        both.recordFailure(true, 2, "https 1");
        both.resetFailures(false);
        both.recordFailure(false, 2, "plain 2");

        assertThat(both.healthy(false)).as("reset in between: not two in a row").isTrue();
        assertThat(both.recordFailure(true, 2, "https 2")).isTrue();
        assertThat(both.healthy(true)).isFalse();
        assertThat(both.healthy(false)).isTrue();
    }

    @Test
    void aServerIsReachableOnlyThroughAPortItHas() {
        Server plain = topology.server("plain");
        Server tls = topology.server("tls");

        assertThat(plain.takesNewRequests(true)).isFalse();
        assertThat(plain.servesItsSessions(true)).isFalse();
        assertThat(plain.takesNewRequests(false)).isTrue();
        assertThat(tls.takesNewRequests(false)).isFalse();
        assertThat(tls.servesItsSessions(false)).isFalse();
        assertThat(tls.takesNewRequests(true)).isTrue();
        assertThat(tls.takesNewRequests()).as("the no-argument form is its only port, the HTTPS one").isTrue();
    }

    @Test
    void theNoArgumentFormsOfAnHttpsOnlyServerMeanItsHttpsPort() {
        Server tls = topology.server("tls");

        assertThat(tls.recordFailure(true, 1, "GET https://127.0.0.1:9443/: refused")).isTrue();

        assertThat(tls.healthy(true)).isFalse();
        assertThat(tls.healthy()).isFalse();
        assertThat(tls.state()).isEqualTo(Server.State.DOWN);
        assertThat(tls.lastCheck()).isEqualTo("GET https://127.0.0.1:9443/: refused");
        assertThat(topology.internalGroup(ServerGroup.J2EES).hasActiveMember()).as("both is still up").isTrue();
    }

    @Test
    void theOperatorsStateHoldsForBothPorts() {
        Server both = topology.server("both");

        both.setAdminState(Server.AdminState.DRAINED);
        assertThat(both.takesNewRequests(true)).isFalse();
        assertThat(both.takesNewRequests(false)).isFalse();
        assertThat(both.servesItsSessions(true)).isTrue();
        assertThat(both.servesItsSessions(false)).isTrue();
        assertThat(both.state(true)).isEqualTo(Server.State.DRAINED);

        both.setAdminState(Server.AdminState.DISABLED);
        assertThat(both.servesItsSessions(true)).isFalse();
        assertThat(both.servesItsSessions(false)).isFalse();
        assertThat(both.state(true)).isEqualTo(Server.State.DISABLED);
    }

    @Test
    void aGroupHasAnActiveMemberByThePortItsRequestsUse() {
        Server both = topology.server("both");
        Server tls = topology.server("tls");
        ServerGroup secure = topology.logonGroup("PORTAL", ServerType.J2EE, true);
        ServerGroup plain = topology.logonGroup("PORTAL", ServerType.J2EE, false);

        both.recordFailure(true, 1, "down");
        tls.recordFailure(true, 1, "down");

        assertThat(secure.hasActiveMember()).isFalse();
        assertThat(plain.hasActiveMember()).isTrue();
    }

    @Test
    void settingTheStateAsATestWouldMarksBothPorts() {
        Server both = topology.server("both");

        both.setState(Server.State.DOWN);
        assertThat(both.healthy(true)).isFalse();
        assertThat(both.healthy(false)).isFalse();

        both.setState(Server.State.UP);
        assertThat(both.healthy(true)).isTrue();
        assertThat(both.healthy(false)).isTrue();
    }
}
