package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jwd.runtime.Bootstrap;
import org.jwd.metrics.DispatcherMetrics;
import org.jwd.runtime.ConfigReader;
import org.jwd.runtime.DispatcherState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The administration with several systems: explain names the request's system and why, and routes with that
 * system's router (no system: 404 naming why); each server names its system; {@code api/systems} describes the
 * systems, {@code api/groups} gives each system's own groups; the metrics label the series of servers and groups
 * with their system.
 */
class SystemsAdminTest {
    private Bootstrap boot;
    private AdminApi api;

    @BeforeEach
    void start() throws Exception {
        boot = Bootstrap.build(ConfigReader.parse("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_1=SID=PRT, SRCSRV=*:8081
                wdisp/system_2=SID=ERP, SRCURL=/erp/, SRCVHOST=erp.example.com
                jwd.default_system=PRT
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                system.ERP.server.erp1.logon_groups=ERPLG
                system.ERP.server.abap1.url=http://127.0.0.1:9003
                system.ERP.server.abap1.type=abap
                system.ERP.logon_group.ERPLG.url_prefixes=/sap/lg/
                system.PRT.server.prt1.url=http://127.0.0.1:9002
                system.PRT.server.prt1.type=j2ee
                system.ERP.SessionTableTimeout=10m
                health.interval=1h
                jwd.config_watch=0
                """, "test.properties"), null);
        api = new AdminApi(AdminContext.of(boot), new RequestHistory(10, 5000, () -> 0L), () -> 0L);
    }

    @AfterEach
    void close() {
        boot.close();
    }

    @Test
    void aPathIsExplainedInTheSystemItsPrefixSelects() {
        AdminApi.Answer answer = api.explain("/sap/bc/x", List.of(), "127.0.0.1", 8080);

        assertThat(answer.status()).isEqualTo(200);
        ExplainView view = (ExplainView) answer.body();
        assertThat(view.system()).isEqualTo("system ERP: SRCURL /sap/ matched");
        assertThat(view.server()).isEqualTo("erp1");
    }

    @Test
    void aFullUrlsPortSelectsItsAccessPoint() {
        ExplainView view = (ExplainView) api.explain("http://jwd.example:8081/irj/x", List.of(), "127.0.0.1", 8080)
                .body();

        assertThat(view.system()).isEqualTo("system PRT: SRCSRV *:8081 matched");
        assertThat(view.server()).isEqualTo("prt1");
    }

    @Test
    void eachServerNamesItsSystemAndTheGroupsOfItsSystem() {
        assertThat(api.servers()).extracting(ServerView::id, ServerView::system, ServerView::groups)
                .containsExactlyInAnyOrder(tuple("erp1", "ERP", List.of("!J2EE", "!ALL", "ERPLG", "SPACE")),
                        tuple("abap1", "ERP", List.of("!DIAG", "!ALL", "SPACE")),
                        tuple("prt1", "PRT", List.of("!J2EE", "!ALL", "SPACE")));
        assertThat(api.server("erp1").load().group()).isEqualTo("!J2EE");
    }

    @Test
    void aUrlNoSystemTakesIsAnswered404NamingHostPortAndPath() throws Exception {
        Bootstrap noDefault = Bootstrap.build(ConfigReader.parse("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                health.interval=1h
                jwd.config_watch=0
                """, "test.properties"), null);
        try {
            AdminApi.Answer answer = new AdminApi(AdminContext.of(noDefault), new RequestHistory(10, 5000, () -> 0L),
                    () -> 0L).explain("http://jwd.example:8080/irj/x", List.of(), "127.0.0.1", 8080);

            assertThat(answer.status()).isEqualTo(404);
            assertThat(String.valueOf(answer.body())).contains("no system for host 'jwd.example:8080', port 8080,"
                    + " path '/irj/x'");
        } finally {
            noDefault.close();
        }
    }

    @Test
    void describesEachSystemWithItsEntriesCriteriaServersAndGroups() {
        SystemsView view = api.systems();

        assertThat(view.conflictResolution()).isEqualTo("0");
        assertThat(view.defaultSystem()).isEqualTo("PRT");
        assertThat(view.overlaps()).isEmpty();
        assertThat(view.systems()).extracting(SystemsView.SystemView::sid, SystemsView.SystemView::byDefault,
                        SystemsView.SystemView::sslEncrypt, SystemsView.SystemView::servers,
                        SystemsView.SystemView::groups)
                .containsExactly(tuple("ERP", false, "0", List.of("abap1", "erp1"),
                                List.of("!DIAG", "!J2EE", "!ALL", "ERPLG", "SPACE")),
                        tuple("PRT", true, "0", List.of("prt1"), List.of("!DIAG", "!J2EE", "!ALL", "SPACE")));
        SystemsView.SystemView erp = view.systems().get(0);
        assertThat(erp.entries()).extracting(SystemsView.Entry::key, SystemsView.Entry::srcsrv,
                        SystemsView.Entry::srcurl, SystemsView.Entry::srcvhost)
                .containsExactly(tuple("wdisp/system_0", List.of(), List.of("/sap/"), List.of()),
                        tuple("wdisp/system_2", List.of(), List.of("/erp/"), List.of("erp.example.com")));
        assertThat(erp.entries().get(0).definition()).isEqualTo("wdisp/system_0 = SID=ERP, SRCURL=/sap/");
        assertThat(erp.externalServers()).isEmpty();
        assertThat(erp.sticky()).isNull();
        assertThat(AdminJson.write(view.systems().get(1))).startsWith("""
                {"sid":"PRT","by_default":true,"ssl_encrypt":"0","external_servers":[],"sticky":null,"entries":\
                [{"key":"wdisp/system_1","srcsrv":["*:8081"],"srcurl":[],"srcvhost":[],\
                "definition":"wdisp/system_1 = SID=PRT, SRCSRV=*:8081"}],"servers":["prt1"],""");
    }

    @Test
    void theSessionTableSaysWhatEachSystemKeepsAndForHowLong() {
        assertThat(api.sessionTable().systems()).containsExactly(
                new SessionTableView.SystemSessions("ERP", true, true, "1h", true, "10m", "1h"),
                new SessionTableView.SystemSessions("PRT", true, true, "1h", false, "0ms", "1h"));
    }

    @Test
    void eachSystemHasItsOwnGroupsEachNamingItsSystem() {
        assertThat(api.groups("!J2EE")).extracting(GroupView::system, GroupView::favorite)
                .containsExactly(tuple("ERP", "erp1"), tuple("PRT", "prt1"));
        assertThat(api.groups(null)).filteredOn(g -> g.name().equals("ERPLG")).extracting(GroupView::system)
                .containsExactly("ERP");
        assertThat(AdminJson.write(api.groups("!DIAG").get(0))).endsWith(",\"system\":\"ERP\"}");
    }

    @Test
    void oneSystemsGroupsAreAskedForByItsSid() {
        AdminApi.Answer prt = api.groups(null, "PRT");

        assertThat(prt.status()).isEqualTo(200);
        @SuppressWarnings("unchecked")
        List<GroupView> groups = (List<GroupView>) prt.body();
        assertThat(groups).extracting(GroupView::name).containsExactly("!DIAG", "!J2EE", "!ALL", "SPACE");
        assertThat(groups).extracting(GroupView::system).containsOnly("PRT");
    }

    @Test
    void anUnknownSidIsAnswered404NamingTheSystemsThereAre() {
        AdminApi.Answer answer = api.groups(null, "QAS");

        assertThat(answer.status()).isEqualTo(404);
        assertThat(((ErrorView) answer.body()).error()).isEqualTo("no system QAS: the systems are ERP, PRT");
    }

    @Test
    void theMetricsLabelTheSeriesOfServersAndGroupsWithTheirSystem() throws Exception {
        DispatcherMetrics metrics = AdminContext.of(boot).dispatcher().metrics();
        DispatcherState state = AdminContext.of(boot).dispatcher().state();
        var erp1 = state.topology().server("erp1");
        metrics.requestCompleted("ERP", state.systems().routers().get("ERP").topology().internalGroup("!J2EE"), erp1,
                200, 1_000_000);
        metrics.requestCompleted(null, null, null, 404, 1_000_000);
        metrics.serverAnswered(erp1, 1_000_000, 2_000_000, System.nanoTime());

        String text = scrape(metrics);

        assertThat(text).contains("jwd_requests_total{group=\"!J2EE\",server=\"erp1\",status_class=\"2xx\",system=\"ERP\"} 1.0")
                .contains("jwd_requests_total{group=\"none\",server=\"none\",status_class=\"4xx\",system=\"none\"} 1.0")
                .contains("jwd_request_duration_seconds_count{group=\"!J2EE\",server=\"erp1\",system=\"ERP\"} 1")
                .contains("jwd_server_last_byte_seconds_count{server=\"erp1\",system=\"ERP\"} 1")
                .contains("jwd_server_capacity{server=\"prt1\",system=\"PRT\"} 1.0")
                .contains("jwd_server_state{server=\"abap1\",state=\"up\",system=\"ERP\"} 1.0")
                .contains("jwd_server_queue_rejected_total{reason=\"queue_full\",server=\"prt1\",system=\"PRT\"} 0.0")
                // one session table for all systems: no system label
                .contains("jwd_session_table_entries 0.0")
                .doesNotContain("jwd_server_capacity{server=\"prt1\"} ");
    }

    private static String scrape(DispatcherMetrics metrics) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.write(out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
