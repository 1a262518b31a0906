package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Set;

import org.jwd.runtime.Bootstrap;
import org.jwd.config.ConfigException;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerType;
import org.jwd.routing.RoutingDecision;
import org.jwd.routing.RoutingRequest;
import org.jwd.systems.Selection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Several systems through the real configuration reader, dispatcher state and routers: each criterion selects its
 * system, whose own router and servers take the request, and each system keys the shared session table by its SID.
 */
class SystemsDispatchTest {
    private static final String TWO_SYSTEMS = """
            wdisp/system_0=SID=ERP, SRCURL=/sap/
            wdisp/system_1=SID=PRT, SRCURL=/irj/
            wdisp/system_2=SID=PRT, SRCSRV=*:8081
            wdisp/system_3=SID=ERP, SRCSRV=*:8080, SRCVHOST=erp.example.com
            system.ERP.server.erp1.url=http://127.0.0.1:9001
            system.ERP.server.erp1.type=j2ee
            system.PRT.server.prt1.url=http://127.0.0.1:9002
            system.PRT.server.prt1.type=j2ee
            SessionTableTimeout=10m
            health.interval=1h
            """;

    private Bootstrap boot;

    @AfterEach
    void close() {
        if (boot != null) {
            boot.close();
        }
    }

    private DispatcherState start(String properties) throws ConfigException {
        boot = Bootstrap.build(ConfigReader.parse(properties, "test.properties"), null);
        return boot.dispatcher().state();
    }

    /** Selects as the servlet does, on 127.0.0.1, and routes with the selected system's router. */
    private static RoutingDecision route(DispatcherState state, int port, String host, String path, String... cookies) {
        Selection selection = state.select("127.0.0.1", port, host, get(path));
        assertThat(selection.found()).as(selection.explanation()).isTrue();
        return state.router(selection.system()).route(RoutingRequest.of("GET", path, null, List.of(cookies), false));
    }

    @Test
    void eachUrlPrefixGoesToItsSystemsServer() throws Exception {
        DispatcherState state = start(TWO_SYSTEMS);

        assertThat(route(state, 8080, "jwd.example.com", "/sap/bc/gui").server().id()).isEqualTo("erp1");
        assertThat(route(state, 8080, "jwd.example.com", "/irj/portal").server().id()).isEqualTo("prt1");
        assertThat(state.select("127.0.0.1", 8080, "jwd.example.com", get("/sap/x")).explanation())
                .isEqualTo("system ERP: SRCURL /sap/ matched");
    }

    /** A mangled segment is read as its plain name by SRCURL too (BSP In-Depth: URL Mangling). */
    @Test
    void eachSystemsGroupsCountTheirServersUpUnderTheSystemsSid() throws Exception {
        start(TWO_SYSTEMS);
        boot.dispatcher().state().topology().server("prt1").setState(org.jwd.topology.Server.State.DOWN);

        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        boot.dispatcher().metrics().write(out);

        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("jwd_group_servers_up{group=\"!J2EE\",system=\"ERP\"} 1.0")
                .contains("jwd_group_servers_up{group=\"!J2EE\",system=\"PRT\"} 0.0");
    }

    @Test
    void aMangledUrlSelectsTheSystemOfItsPlainPrefix() throws Exception {
        DispatcherState state = start(TWO_SYSTEMS);

        assertThat(route(state, 8080, "jwd.example.com", "/sap(bD1lbiZjPTAwMQ==)/bc/bsp/sap/it00/default.htm")
                .server().id()).isEqualTo("erp1");
        assertThat(state.select("127.0.0.1", 8080, "jwd.example.com", get("/sap(bD1lbiZjPTAwMQ==)/bc/x"))
                .explanation()).isEqualTo("system ERP: SRCURL /sap/ matched");
        assertThat(route(state, 8080, "jwd.example.com", "/irj(bD1l)/portal").server().id()).isEqualTo("prt1");
    }

    @Test
    void theAccessPointSelectsAsystemWhateverThePath() throws Exception {
        DispatcherState state = start(TWO_SYSTEMS);

        assertThat(route(state, 8081, "jwd.example.com", "/webdynpro/x").server().id()).isEqualTo("prt1");
        assertThat(state.select("127.0.0.1", 8081, "jwd.example.com", get("/webdynpro/x")).system().sid())
                .isEqualTo("PRT");
    }

    @Test
    void theVirtualHostSelectsAsystem() throws Exception {
        DispatcherState state = start(TWO_SYSTEMS);

        assertThat(route(state, 8080, "erp.example.com", "/webdynpro/x").server().id()).isEqualTo("erp1");
        assertThat(route(state, 8080, "ERP.example.com:80", "/webdynpro/x").server().id()).isEqualTo("erp1");
    }

    @Test
    void aRequestNoSystemTakesIsNamedByHostPortAndPath() throws Exception {
        DispatcherState state = start(TWO_SYSTEMS);

        Selection none = state.select("127.0.0.1", 8080, "other.example.com", get("/webdynpro/x"));

        assertThat(none.found()).isFalse();
        assertThat(none.explanation()).isEqualTo("no system for host 'other.example.com', port 8080, path"
                + " '/webdynpro/x': no wdisp/system_<xx> matched and no jwd.default_system is configured");
    }

    @Test
    void theSameJsessionidInTwoSystemsIsBoundToEachSystemsServer() throws Exception {
        DispatcherState state = start(TWO_SYSTEMS);
        String cookie = "JSESSIONID=SAME0123456789";

        RoutingDecision erp = route(state, 8080, "jwd.example.com", "/sap/bc/x", cookie);
        RoutingDecision prt = route(state, 8080, "jwd.example.com", "/irj/portal", cookie);

        assertThat(erp.server().id()).isEqualTo("erp1");
        assertThat(prt.server().id()).isEqualTo("prt1");
        // bound at request time, in the temporary table (SessionTableTimeout)
        assertThat(boot.dispatcher().sessionTable().peek("ERP/temporary:SAME0123456789")).isEqualTo("erp1");
        assertThat(boot.dispatcher().sessionTable().peek("PRT/temporary:SAME0123456789")).isEqualTo("prt1");
        assertThat(boot.dispatcher().sessionTable().peek("temporary:SAME0123456789")).isNull();
    }

    @Test
    void withoutEntriesTheOneRouterServesEveryRequestAndTheTableKeysStayBare() throws Exception {
        DispatcherState state = start("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                SessionTableTimeout=10m
                health.interval=1h
                """);

        Selection selection = state.select("127.0.0.1", 8080, null, get("/anything"));
        RoutingDecision decision = route(state, 8080, null, "/anything", "JSESSIONID=BARE0123456789");

        assertThat(state.router(selection.system())).isSameAs(state.router());
        assertThat(decision.server().id()).isEqualTo("a");
        assertThat(boot.dispatcher().sessionTable().peek("temporary:BARE0123456789")).isEqualTo("a");
    }

    @Test
    void aBadPathGoesToTheImplicitRouterWhichAnswers400() throws Exception {
        DispatcherState state = start(TWO_SYSTEMS);

        Selection selection = state.select("127.0.0.1", 8080, null, get("/sap/%zz"));
        RoutingDecision decision = state.router(selection.system())
                .route(RoutingRequest.of("GET", "/sap/%zz", null, List.of(), false));

        assertThat(decision.errorStatus()).isEqualTo(400);
    }

    @Test
    void aServerIdTwoSystemsDescribeDifferentlyIsRefused() {
        assertThatThrownBy(() -> ConfigReader.parse(TWO_SYSTEMS.replace("server.prt1.", "server.erp1."),
                "test.properties"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("server erp1: systems ERP and PRT describe it differently; a server id names"
                        + " one server across the systems");
    }

    @Test
    void aSystemsBadKeyIsNamedAsWrittenWithItsSystem() {
        assertThatThrownBy(() -> ConfigReader.parse(TWO_SYSTEMS.replace("system.PRT.server.prt1.type=j2ee",
                "system.PRT.server.prt1.type=nonsense"), "test.properties"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("system PRT: ")
                .hasMessageContaining("system.PRT.server.prt1.type");
    }

    @Test
    void anUnknownKeyOfTheFileIsStillRefusedWithSystems() {
        assertThatThrownBy(() -> ConfigReader.parse(TWO_SYSTEMS + "no.such.key=1\n", "test.properties"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("no.such.key");
    }

    @Test
    void aReloadThatRemovesAsystemLeavesNoRouterForIt() throws Exception {
        start(TWO_SYSTEMS);

        boot.dispatcher().apply(ConfigReader.parse(TWO_SYSTEMS.replace("wdisp/system_1=SID=PRT, SRCURL=/irj/\n", "")
                .replace("wdisp/system_2=SID=PRT, SRCSRV=*:8081\n", "").replaceAll("system\\.PRT\\..*\n", ""),
                "test.properties"));
        DispatcherState state = boot.dispatcher().state();

        assertThat(state.systems().routers()).containsOnlyKeys("ERP");
        assertThat(state.topology().servers()).containsOnlyKeys("erp1");
        assertThat(state.select("127.0.0.1", 8080, null, get("/irj/portal")).found()).isFalse();
    }

    @Test
    void eachSystemHasItsOwnSslEncryptAndItsServersLimits() throws Exception {
        DispatcherState state = start(TWO_SYSTEMS.replace("wdisp/system_0=SID=ERP, SRCURL=/sap/",
                "wdisp/system_0=SID=ERP, SRCURL=/sap/, SSL_ENCRYPT=1")
                + "system.ERP.server.erp1.https_url=https://127.0.0.1:9443\n"
                + "system.PRT.server.prt1.max_connections=2\n");

        assertThat(route(state, 8080, "jwd.example.com", "/sap/bc/x").target()).startsWith("https://127.0.0.1:9443/");
        assertThat(route(state, 8080, "jwd.example.com", "/irj/x").target()).startsWith("http://127.0.0.1:9002/");
        assertThat(state.limits().servers()).containsOnlyKeys("prt1");
        assertThat(state.limits().servers().get("prt1").maxConnections()).isEqualTo(2);
    }

    @Test
    void aSystemsBadLimitIsNamedAsWritten() {
        assertThatThrownBy(() -> ConfigReader.parse(TWO_SYSTEMS + "system.PRT.server.prt1.max_connections=many\n",
                "test.properties"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("system PRT: ")
                .hasMessageContaining("system.PRT.server.prt1.max_connections");
    }

    private static ServerConfig registered(String id, String... logonGroups) {
        return new ServerConfig(id, URI.create("http://127.0.0.1:9100"), null, ServerType.J2EE, 1,
                Set.of(logonGroups), id, id, null, "/");
    }

    /** The servers {@code n} requests without a session go to, in this state. */
    private static Set<String> servedBy(DispatcherState state, String path, int n) {
        Set<String> servers = new java.util.TreeSet<>();
        for (int i = 0; i < n; i++) {
            RoutingDecision d = route(state, 8080, "jwd.example.com", path);
            servers.add(d.server().id());
            d.finish(false);
        }
        return servers;
    }

    @Test
    void aRegisteredServerJoinsItsSystemsTopologyAndLogonGroupsAndNoOther() throws Exception {
        start(TWO_SYSTEMS + "system.PRT.logon_group.PORTAL.url_prefixes=/irj/portal\n");

        boot.dispatcher().register(registered("x1", "PORTAL"), "PRT");
        DispatcherState state = boot.dispatcher().state();

        assertThat(servedBy(state, "/irj/x", 4)).containsExactly("prt1", "x1");
        assertThat(servedBy(state, "/irj/portal/x", 4)).as("its logon group").containsExactly("x1");
        assertThat(servedBy(state, "/sap/bc/x", 4)).as("ERP's servers only").containsExactly("erp1");
        assertThat(state.systemOf("x1")).isEqualTo("PRT");
        assertThat(state.systemOf("erp1")).isEqualTo("ERP");
        assertThat(state.topology().server("x1")).as("the whole topology: health checks, admin").isNotNull();
    }

    @Test
    void aRegisteredServerKeepsItsSystemAcrossAreloadAndLeavesWithIt() throws Exception {
        start(TWO_SYSTEMS);
        boot.dispatcher().register(registered("x1"), "ERP");

        boot.dispatcher().apply(ConfigReader.parse(TWO_SYSTEMS + "jwd.debug_headers=true\n", "test.properties"));
        assertThat(boot.dispatcher().state().systemOf("x1")).isEqualTo("ERP");
        assertThat(servedBy(boot.dispatcher().state(), "/sap/bc/x", 4)).containsExactly("erp1", "x1");

        boot.dispatcher().apply(ConfigReader.parse(TWO_SYSTEMS.replace("wdisp/system_0=SID=ERP, SRCURL=/sap/\n", "")
                .replace("wdisp/system_3=SID=ERP, SRCSRV=*:8080, SRCVHOST=erp.example.com\n", "")
                .replaceAll("system\\.ERP\\..*\n", ""), "test.properties"));
        assertThat(boot.dispatcher().registry().servers()).as("its system is gone").isEmpty();
        assertThat(boot.dispatcher().state().topology().servers()).containsOnlyKeys("prt1");
    }

    @Test
    void aRegistrationNamesAconfiguredSystemAndNoOtherSystemsServerId() throws Exception {
        start(TWO_SYSTEMS);

        assertThatThrownBy(() -> boot.dispatcher().register(registered("x1"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server x1: no system: with wdisp/system_<xx> entries every server belongs to one of ERP,"
                        + " PRT");
        assertThatThrownBy(() -> boot.dispatcher().register(registered("x1"), "QAS"))
                .hasMessage("server x1: system QAS is not configured: expected one of ERP, PRT");
        assertThatThrownBy(() -> boot.dispatcher().register(registered("erp1"), "PRT"))
                .as("ERP's server: a server id names one server across the systems")
                .hasMessage("server erp1 is from the configuration file (system ERP)");
        assertThat(boot.dispatcher().registry().servers()).isEmpty();
    }

    @Test
    void withoutSystemsAregistrationNamesNone() throws Exception {
        start("server.a.url=http://127.0.0.1:9001\nserver.a.type=j2ee\nhealth.interval=1h\n");

        assertThatThrownBy(() -> boot.dispatcher().register(registered("x1"), "ERP"))
                .hasMessage("server x1: system ERP is not configured: no wdisp/system_<xx> entry");
        boot.dispatcher().register(registered("x1"));
        assertThat(boot.dispatcher().state().systemOf("x1")).isNull();
        assertThat(boot.dispatcher().state().topology().server("x1")).isNotNull();
    }

    @Test
    void aRegisteredServerGivesWayToAsystemsServerOfItsIdOnReload() throws Exception {
        start(TWO_SYSTEMS);
        boot.dispatcher().register(registered("x1"), "ERP");

        boot.dispatcher().apply(ConfigReader.parse(TWO_SYSTEMS + "system.PRT.server.x1.url=http://127.0.0.1:9003\n"
                + "system.PRT.server.x1.type=j2ee\n", "test.properties"));

        assertThat(boot.dispatcher().registry().servers()).isEmpty();
        assertThat(boot.dispatcher().isConfigured("x1")).isTrue();
        assertThat(boot.dispatcher().state().topology().server("x1").config().url())
                .isEqualTo(URI.create("http://127.0.0.1:9003"));
    }

    /** A GET of {@code path}, as the servlet would hand it to system selection. */
    private static RoutingRequest get(String path) {
        return RoutingRequest.of("GET", path, null, List.of(), false);
    }
}
