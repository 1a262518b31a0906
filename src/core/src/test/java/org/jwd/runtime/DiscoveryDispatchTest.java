package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jwd.config.ServerType;
import org.jwd.routing.RoutingDecision;
import org.jwd.routing.RoutingRequest;
import org.jwd.topology.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime's swap of a discovered view, driven by hand: SAP's lists are files ({@code file://}, as SAP allows),
 * changed by the test, and a refresh runs when the test calls it. A discovered server is a server: the same router
 * over the same topology type routes to it, groups and prefixes from the ICF's lists select it.
 */
class DiscoveryDispatchTest {
    private static final String LIST = "version 1.2\r\n"
            + "ls0042_ERP_00\r\nDIAG\tls0042\t3200\tLB=8\r\nHTTP\tls0042\t8000\t\r\n\r\n"
            + "ls0043_ERP_01\r\nDIAG\tls0043\t3201\tLB=4\r\nHTTP\tls0043\t8001\t\r\n\r\n"
            + "J2EE6906720\r\nJ2EE\tls0044\t50000\tLB=3\r\n";
    private static final String PREFIXES = "version 1.0\r\nPREFIX=/sap/bc/&CASE=&VHOST=*.*;\r\n"
            + "PREFIX=/sap/crm/&GROUP=CRMGRP&CASE=&VHOST=*.*;&STACK=ABAP\r\n";
    private static final String GROUPS = "version 1.0\r\nls0042_ERP_00\r\nls0043_ERP_01\r\n\r\nCRMGRP:ls0043_ERP_01\r\n";
    @TempDir
    Path dir;
    private Bootstrap boot;

    private Dispatcher start(String more) throws Exception {
        Files.writeString(dir.resolve("logon.txt"), LIST);
        Files.writeString(dir.resolve("icr_urlprefix.txt"), PREFIXES);
        Files.writeString(dir.resolve("icr_groups.txt"), GROUPS);
        boot = Bootstrap.build(ConfigReader.parse("wdisp/server_info_location = file://" + dir.resolve("logon.txt")
                + "\nwdisp/url_map_location = file://" + dir.resolve("icr_urlprefix.txt")
                + "\nwdisp/group_info_location = file://" + dir.resolve("icr_groups.txt")
                + "\njwd.discovery_file = " + dir.resolve("kept.txt") + "\nhealth.interval = 1h\n" + more,
                "test.properties"), null);
        boot.dispatcher().discovery().refreshNow();
        return boot.dispatcher();
    }

    @AfterEach
    void close() {
        if (boot != null) {
            boot.close();
        }
    }

    private static RoutingDecision route(Dispatcher dispatcher, String path) {
        return dispatcher.state().router().route(RoutingRequest.of("GET", path, null, List.of(), false));
    }

    @Test
    void theDiscoveredServersGroupsAndPrefixesRouteAsConfiguredOnesDo() throws Exception {
        Dispatcher dispatcher = start("");

        assertThat(dispatcher.state().topology().servers().keySet())
                .containsExactly("ls0042_ERP_00", "ls0043_ERP_01", "J2EE6906720");
        assertThat(route(dispatcher, "/sap/crm/orders").server().id()).isEqualTo("ls0043_ERP_01");
        assertThat(route(dispatcher, "/sap/crm/orders").group().name()).isEqualTo("CRMGRP");
        assertThat(route(dispatcher, "/sap/bc/gui/").server().type()).isEqualTo(ServerType.ABAP);
        assertThat(route(dispatcher, "/irj/portal").server().id()).isEqualTo("J2EE6906720");
        assertThat(dispatcher.state().topology().server("ls0042_ERP_00").config().capacity()).isEqualTo(8);
    }

    @Test
    void aServerBlockOfTheFileWinsForItsSapName() throws Exception {
        Dispatcher dispatcher = start("server.erp1.url = http://127.0.0.1:9001\nserver.erp1.type = abap\n"
                + "server.erp1.name = ls0043_ERP_01\n");

        assertThat(dispatcher.state().topology().servers().keySet())
                .containsExactly("erp1", "ls0042_ERP_00", "J2EE6906720");
    }

    @Test
    void aNewInstanceJoinsAVanishedOneLeavesAndADrainedOneStaysDrainedAcrossRefreshes() throws Exception {
        Dispatcher dispatcher = start("");
        Server kept = dispatcher.state().topology().server("ls0042_ERP_00");
        dispatcher.operator().act(kept, Server.AdminState.DRAINED, "ops");

        Files.writeString(dir.resolve("logon.txt"), LIST.replace("ls0043_ERP_01", "ls0045_ERP_02")
                .replace("ls0043", "ls0045"));
        dispatcher.discovery().refreshNow();

        assertThat(dispatcher.state().topology().servers().keySet())
                .containsExactly("ls0042_ERP_00", "ls0045_ERP_02", "J2EE6906720");
        assertThat(dispatcher.state().topology().server("ls0042_ERP_00")).isSameAs(kept);
        assertThat(kept.adminState()).isEqualTo(Server.AdminState.DRAINED);
        assertThat(route(dispatcher, "/sap/bc/gui/").server().id()).isEqualTo("ls0045_ERP_02");
    }

    @Test
    void aListThatSuddenlyNamesNoInstanceKeepsTheServers() throws Exception {
        Dispatcher dispatcher = start("");
        DispatcherState before = dispatcher.state();

        Files.writeString(dir.resolve("logon.txt"), "version 1.2\r\n");
        dispatcher.discovery().refreshNow();

        assertThat(dispatcher.state()).isSameAs(before);
        assertThat(dispatcher.discovery().status().get(0).lastError()).contains("names no instance");
    }

    @Test
    void aReloadWithoutTheMessageServerLinesLeavesTheFilesServersAloneAndOneWithThemDiscoversAgain() throws Exception {
        Dispatcher dispatcher = start("");
        org.jwd.discovery.Discovery first = dispatcher.discovery();

        dispatcher.apply(ConfigReader.parse("server.a.url = http://127.0.0.1:9001\nserver.a.type = j2ee\n"
                + "health.interval = 1h\n", "test.properties"));

        assertThat(dispatcher.state().topology().servers().keySet()).containsExactly("a");
        assertThat(dispatcher.discovery()).isNotSameAs(first);
        assertThat(dispatcher.discovery().status()).isEmpty();
        first.refreshNow();
        assertThat(dispatcher.state().topology().servers().keySet()).as("the replaced one publishes nothing")
                .containsExactly("a");

        dispatcher.apply(ConfigReader.parse("wdisp/server_info_location = file://" + dir.resolve("logon.txt")
                + "\njwd.discovery_file = " + dir.resolve("kept.txt") + "\nhealth.interval = 1h\n",
                "test.properties"));

        assertThat(dispatcher.state().topology().servers().keySet())
                .containsExactly("ls0042_ERP_00", "ls0043_ERP_01", "J2EE6906720");
    }

    @Test
    void aRestartWithoutTheListServesFromTheKeptView() throws Exception {
        start("");
        boot.close();
        Files.delete(dir.resolve("logon.txt"));

        boot = Bootstrap.build(ConfigReader.parse("wdisp/server_info_location = file://" + dir.resolve("logon.txt")
                + "\njwd.discovery_file = " + dir.resolve("kept.txt") + "\nhealth.interval = 1h\n",
                "test.properties"), null);

        assertThat(boot.dispatcher().state().topology().servers().keySet())
                .containsExactly("ls0042_ERP_00", "ls0043_ERP_01", "J2EE6906720");
        assertThat(boot.dispatcher().discovery().status().get(0).keptSince()).isPositive();
    }

}
