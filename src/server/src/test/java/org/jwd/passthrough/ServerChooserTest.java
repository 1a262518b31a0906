package org.jwd.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.balancing.Balancers;
import org.jwd.config.DispatcherConfig;
import org.jwd.tls.TlsConfig;
import org.jwd.topology.Server;
import org.jwd.topology.Topology;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;

class ServerChooserTest {
    private final AtomicLong now = new AtomicLong();
    private Topology topology;

    /** a (capacity 1, logon group ERP), b (capacity 2), plain (no https_url); exact balancing sequences. */
    private ServerChooser chooser(String passthroughKeys) throws Exception {
        return chooserOf("""
                server.a.url=http://127.0.0.1:8001
                server.a.https_url=https://127.0.0.1:8441
                server.a.type=j2ee
                server.a.logon_groups=ERP
                server.b.url=http://127.0.0.1:8002
                server.b.https_url=https://127.0.0.1:8442
                server.b.type=j2ee
                server.b.capacity=2
                server.plain.url=http://127.0.0.1:8003
                server.plain.type=j2ee
                logon_group.ERP.url_prefixes=/erp
                wdisp/load_balancing_strategy=simple_weighted_round_robin
                wdisp/HTTPS/port=0
                """ + passthroughKeys);
    }

    private ServerChooser chooserOf(String properties) throws Exception {
        DispatcherConfig config = ConfigReader.parse(properties, "test.properties");
        topology = Topology.of(config);
        var passthrough = config.section(TlsConfig.class).passthrough();
        ClientAddressTable table = new ClientAddressTable(passthrough.contextTimeout().toNanos(),
                passthrough.maxClientIpEntries(), now::get);
        return new ServerChooser(config, topology, passthrough, table, g -> Balancers.create(g, config));
    }

    private static InetAddress ip(String text) throws Exception {
        return InetAddress.getByName(text);
    }

    private static String pick(ServerChooser chooser, String client) throws Exception {
        return chooser.choose(ip(client), null, List.of()).server().id();
    }

    @Test
    void newClientNetworksAreSpreadOverTheHttpsEnabledServersByCapacity() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/sticky_mask=255.255.255.255");
        List<String> picks = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            picks.add(pick(chooser, "10.0.0." + i));
        }

        assertThat(picks).containsExactly("a", "b", "b", "a", "b", "b");
    }

    @Test
    void addressesUnderTheStickyMaskAreOneClientAndStayOnTheirServer() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/sticky_mask=255.255.255.0");

        assertThat(pick(chooser, "10.0.1.7")).isEqualTo("a");
        assertThat(pick(chooser, "10.0.2.7")).isEqualTo("b");
        ServerChooser.Choice again = chooser.choose(ip("10.0.1.99"), null, List.of());
        assertThat(again.server().id()).isEqualTo("a");
        assertThat(again.bound()).isTrue();
        assertThat(pick(chooser, "10.0.3.1")).isEqualTo("b");
    }

    @Test
    void theDefaultMaskIsASlash20() throws Exception {
        ServerChooser chooser = chooser("");

        assertThat(pick(chooser, "192.168.16.1")).isEqualTo("a");
        assertThat(pick(chooser, "192.168.31.254")).isEqualTo("a");
        assertThat(pick(chooser, "192.168.32.1")).isEqualTo("b");
    }

    @Test
    void aBindingExpiresAfterTheContextTimeout() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/sticky_mask=255.255.255.255\nwdisp/HTTPS/context_timeout=60");
        assertThat(pick(chooser, "10.0.0.1")).isEqualTo("a");
        now.addAndGet(TimeUnit.SECONDS.toNanos(59));
        assertThat(chooser.choose(ip("10.0.0.1"), null, List.of()).bound()).isTrue();
        now.addAndGet(TimeUnit.SECONDS.toNanos(60));

        ServerChooser.Choice later = chooser.choose(ip("10.0.0.1"), null, List.of());
        assertThat(later.bound()).isFalse();
        assertThat(later.server().id()).isEqualTo("b");
    }

    @Test
    void aClientWhoseServerIsDownIsBalancedAnewAndStaysOnItsNewServer() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/sticky_mask=255.255.255.255");
        assertThat(pick(chooser, "10.0.0.1")).isEqualTo("a");
        topology.server("a").setState(Server.State.DOWN);

        assertThat(pick(chooser, "10.0.0.1")).isEqualTo("b");
        topology.server("a").setState(Server.State.UP);
        assertThat(pick(chooser, "10.0.0.1")).isEqualTo("b");
    }

    @Test
    void aServerThatFailedForThisConnectionIsNotTriedAgain() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/sticky_mask=255.255.255.255");
        Server a = topology.server("a");
        Server b = topology.server("b");

        assertThat(chooser.choose(ip("10.0.0.1"), null, Set.of(a)).server()).isSameAs(b);
        assertThat(chooser.choose(ip("10.0.0.2"), null, Set.of(a, b))).isNull();
    }

    @Test
    void theSniNamePicksTheLogonGroupAndOtherNamesGoToEveryServer() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/sticky_mask=255.255.255.255\n"
                + "wdisp/HTTPS/dest_logon_group=erp.example.com=ERP");

        for (int i = 1; i <= 3; i++) {
            assertThat(chooser.choose(ip("10.0.0." + i), "ERP.example.com", List.of()).server().id()).isEqualTo("a");
        }
        assertThat(chooser.choose(ip("10.0.1.1"), "portal.example.com", List.of()).group().name()).isEqualTo("!ALL");
        assertThat(chooser.choose(ip("10.0.1.2"), null, List.of()).group().name()).isEqualTo("!ALL");
    }

    @Test
    void aPlainLogonGroupTakesEveryConnection() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/dest_logon_group=ERP");

        assertThat(chooser.choose(ip("10.0.0.1"), null, List.of()).server().id()).isEqualTo("a");
        assertThat(chooser.choose(ip("10.9.0.1"), "x.example", List.of()).server().id()).isEqualTo("a");
    }

    @Test
    void theImplicitSpaceTakesEveryHttpsEnabledServerByCapacity() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/sticky_mask=255.255.255.255\n"
                + "wdisp/HTTPS/dest_logon_group=SPACE");

        assertThat(picks(chooser, 6)).containsExactly("a", "b", "b", "a", "b", "b");
        assertThat(chooser.choose(ip("10.0.1.1"), null, List.of()).group().name()).isEqualTo("SPACE");
    }

    @Test
    void aLogonGroupBalancesTlsConnectionsByTheStrategyLikeItsHttpRequests() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/sticky_mask=255.255.255.255\n"
                + "wdisp/HTTPS/dest_logon_group=ERP\nserver.b.logon_groups=ERP\nlogon_group.ERP.type=R\n");

        assertThat(picks(chooser, 6)).containsExactly("a", "b", "b", "a", "b", "b");
    }

    @Test
    void aLogonGroupThatOptsInBalancesTlsConnectionsByItsQualitiesLikeItsHttpRequests() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/sticky_mask=255.255.255.255\n"
                + "wdisp/HTTPS/dest_logon_group=ERP\nserver.b.logon_groups=ERP\nlogon_group.ERP.type=R\n"
                + "logon_group.ERP.http_balancing=quality\n");

        // type R ignores capacity: the members take turns (in the view's order, random at each refresh)
        List<String> picks = picks(chooser, 6);
        String first = picks.get(0);
        String second = picks.get(1);
        assertThat(List.of(first, second)).containsExactlyInAnyOrder("a", "b");
        assertThat(picks).containsExactly(first, second, first, second, first, second);
    }

    private static List<String> picks(ServerChooser chooser, int n) throws Exception {
        List<String> picks = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            picks.add(pick(chooser, "10.0.0." + i));
        }
        return picks;
    }

    @Test
    void ipv6ClientsAreOneClientPerSlash64() throws Exception {
        ServerChooser chooser = chooser("wdisp/HTTPS/sticky_mask=255.255.255.255");

        assertThat(pick(chooser, "2001:db8:0:1::1")).isEqualTo("a");
        assertThat(pick(chooser, "2001:db8:0:1:ffff::2")).isEqualTo("a");
        assertThat(pick(chooser, "2001:db8:0:2::1")).isEqualTo("b");
    }

    /**
     * SAP's Web Dispatcher balances PROT=ROUTER connections over the HTTPS-enabled instances with a J2EE part; a
     * jwd server is one process of one kind, so a pool is its J2EE servers, or its ABAP servers where it has no
     * J2EE server.
     */
    @Test
    void aPoolThatMixesAbapAndJ2eeServersTakesItsJ2eeServersAndAnAbapOnlyGroupItsAbapServers() throws Exception {
        ServerChooser chooser = chooserOf("""
                server.j.https_url=https://127.0.0.1:8441
                server.j.type=j2ee
                server.b.https_url=https://127.0.0.1:8442
                server.b.type=abap
                server.b.logon_groups=ABAP
                server.c.https_url=https://127.0.0.1:8443
                server.c.type=abap
                server.c.logon_groups=ABAP
                logon_group.ABAP.url_prefixes=/sap/
                wdisp/HTTPS/port=0
                wdisp/HTTPS/sticky_mask=255.255.255.255
                wdisp/HTTPS/dest_logon_group=erp.example.com=ABAP
                """);
        List<String> every = new ArrayList<>();
        List<String> abap = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            every.add(chooser.choose(ip("10.0.0." + i), "portal.example.com", List.of()).server().id());
            abap.add(chooser.choose(ip("10.0.1." + i), "erp.example.com", List.of()).server().id());
        }

        assertThat(every).containsOnly("j");
        assertThat(abap).containsOnly("b", "c").contains("b", "c");
        assertThat(chooser.leftOut()).containsOnlyKeys("!ALL");
        assertThat(chooser.leftOut().get("!ALL")).extracting(Server::id).containsExactly("b", "c");
    }

    @Test
    void aPoolOfOneKindLeavesNothingOut() {
        Server j1 = topologyServer("j1", "j2ee");
        Server j2 = topologyServer("j2", "j2ee");
        Server b = topologyServer("b", "abap");
        List<Server> leftOut = new ArrayList<>();

        assertThat(ServerChooser.pool(List.of(j1, j2), leftOut)).containsExactly(j1, j2);
        assertThat(ServerChooser.pool(List.of(b), leftOut)).containsExactly(b);
        assertThat(leftOut).isEmpty();
        assertThat(ServerChooser.pool(List.of(b, j1), leftOut)).containsExactly(j1);
        assertThat(leftOut).containsExactly(b);
    }

    private static Server topologyServer(String id, String type) {
        try {
            return Topology.of(ConfigReader.parse("server." + id + ".https_url=https://127.0.0.1:8441\nserver." + id
                    + ".type=" + type + "\n", "t.properties")).server(id);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
