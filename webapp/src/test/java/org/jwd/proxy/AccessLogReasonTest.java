package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Set;

import org.jwd.affinity.SessionAffinity;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerHealthCheck;
import org.jwd.config.ServerState;
import org.jwd.config.ServerType;
import org.jwd.routing.RoutingDecision;
import org.jwd.topology.Server;
import org.junit.jupiter.api.Test;

/** The access log's reason names a server by its SAP name where its id is not that name (a discovered server). */
class AccessLogReasonTest {
    private static Server server(String id, String name) {
        return new Server(new ServerConfig(id, URI.create("http://127.0.0.1:1"), null, ServerType.ABAP, 1, Set.of(),
                id, name, null, "/", id, ServerHealthCheck.DEFAULTS, ServerState.ACTIVE));
    }

    @Test
    void aServerWhoseIdIsItsNameIsNamedOnce() {
        RoutingDecision d = RoutingDecision.forward("/x", null,
                new SessionAffinity.Choice(server("ls1_ERP_00", "ls1_ERP_00"), "balanced", false, null, null, null), null);

        assertThat(RequestEnds.reason(d, null)).isEqualTo("balanced");
    }

    @Test
    void aDiscoveredServerOfAHostNameWithDotsIsNamedByItsSapName() {
        RoutingDecision d = RoutingDecision.forward("/x", null, new SessionAffinity.Choice(
                server("ls1-example-com_ERP_00", "ls1.example.com_ERP_00"), "sap-contextid", true, null, null, null),
                null);

        assertThat(RequestEnds.reason(d, "rewritten by actions.txt:9"))
                .isEqualTo("sap-contextid (SAP name ls1.example.com_ERP_00); rewritten by actions.txt:9");
    }
}
