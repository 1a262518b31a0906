package org.jwd.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.ServerType;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;

class TopologyTest {
    /** j1 (J2EE with HTTPS, logon group PORTAL), j2 (J2EE), a1 (ABAP with HTTPS). */
    private static final String SERVERS = """
            server.j1.url=http://127.0.0.1:8001
            server.j1.https_url=https://127.0.0.1:8441
            server.j1.type=j2ee
            server.j1.logon_groups=PORTAL
            server.j2.url=http://127.0.0.1:8002
            server.j2.type=j2ee
            server.a1.url=http://127.0.0.1:8003
            server.a1.https_url=https://127.0.0.1:8443
            server.a1.type=abap
            logon_group.PORTAL.url_prefixes=/irj
            """;

    private static Topology topology(String extra) throws Exception {
        DispatcherConfig config = ConfigReader.parse(SERVERS + extra, "test.properties");
        return Topology.of(config);
    }

    private static List<String> members(Topology topology, String group, ServerType type, boolean secure) {
        return topology.logonGroup(group, type, secure).members().stream().map(Server::id).toList();
    }

    @Test
    void spaceHoldsEveryServerOfEachTypeLikeAnyLogonGroup() throws Exception {
        Topology topology = topology("");

        assertThat(members(topology, "SPACE", ServerType.J2EE, false)).containsExactly("j1", "j2");
        assertThat(members(topology, "SPACE", ServerType.J2EE, true)).containsExactly("j1");
        assertThat(members(topology, "SPACE", ServerType.ABAP, false)).containsExactly("a1");
        assertThat(topology.logonGroup("SPACE", ServerType.J2EE, false).isLogonGroup()).isTrue();
        assertThat(topology.allGroups()).filteredOn(g -> g.name().equals("SPACE")).hasSize(4);
        assertThat(members(topology, "PORTAL", ServerType.J2EE, false)).containsExactly("j1");
    }

    @Test
    void aConfiguredSpaceHoldsOnlyTheServersThatNameIt() throws Exception {
        Topology topology = topology("server.j2.logon_groups=SPACE\nlogon_group.SPACE.type=W\n");

        assertThat(members(topology, "SPACE", ServerType.J2EE, false)).containsExactly("j2");
        assertThat(members(topology, "SPACE", ServerType.ABAP, false)).isEmpty();
        assertThat(topology.logonGroup("SPACE", ServerType.J2EE, false).logonGroup().type()).isEqualTo('W');
    }

    @Test
    void aServerSwappedInLaterIsInSpaceToo() throws Exception {
        DispatcherConfig config = ConfigReader.parse(SERVERS, "test.properties");
        Topology first = Topology.of(config);
        List<Server> servers = List.of(first.server("j2"), first.server("a1"));

        Topology swapped = Topology.of(servers, config.logonGroups());

        assertThat(members(swapped, "SPACE", ServerType.J2EE, false)).containsExactly("j2");
        assertThat(members(swapped, "SPACE", ServerType.ABAP, false)).containsExactly("a1");
    }
}
