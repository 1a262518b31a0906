package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlPage;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The administration of a jwd with two systems, through the distribution: the page (HtmlUnit) shows the systems and
 * the system of each server and group, {@code api/systems} and {@code api/groups} describe them, the metrics label
 * the series of servers and groups with their system, and {@code bin/jwd lgtst --system} reports one system.
 */
@Timeout(120)
class SystemsAdminIT {
    private static DemoBackend erp1;
    private static DemoBackend prt1;
    private static JwdProcess jwd;
    private static AdminClient admin;

    @BeforeAll
    static void start() {
        erp1 = DemoBackend.start(DemoBackend.Options.j2ee("erp1"));
        prt1 = DemoBackend.start(DemoBackend.Options.j2ee("prt1"));
        jwd = JwdProcess.start("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_1=SID=PRT, SRCURL=/irj/
                jwd.default_system=PRT
                system.ERP.server.erp1.url=%s
                system.ERP.server.erp1.type=j2ee
                system.PRT.server.prt1.url=%s
                system.PRT.server.prt1.type=j2ee
                health.interval=1h
                """.formatted(erp1.url(), prt1.url()) + AdminClient.CONFIG);
        admin = new AdminClient(jwd);
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        if (erp1 != null) {
            erp1.close();
        }
        if (prt1 != null) {
            prt1.close();
        }
    }

    private static String text(HtmlPage page, String selector) {
        DomNode node = page.querySelector(selector);
        return node == null ? null : node.getTextContent().strip();
    }

    @Test
    void thePageShowsTheSystemsAndTheSystemOfEachServerAndGroup() throws Exception {
        try (WebClient web = AdminClient.browser()) {
            HtmlPage page = web.getPage(jwd.uri("/jwd/admin/").toURL());

            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                assertThat(text(page, "#server-erp1 td[data-field=system]")).isEqualTo("ERP");
                assertThat(text(page, "#system-PRT td[data-field=entries]"))
                        .isEqualTo("wdisp/system_1 = SID=PRT, SRCURL=/irj/");
                assertThat(text(page, "div[id='group-PRT-!J2EE-j2ee'] h3")).isEqualTo("PRT · !J2EE");
            });
            assertThat(page.<DomElement>querySelector("#systems-section").hasAttribute("hidden")).isFalse();
            assertThat(page.<DomElement>querySelector("#servers-system").hasAttribute("hidden")).isFalse();
            assertThat(text(page, "#server-prt1 td[data-field=system]")).isEqualTo("PRT");
            assertThat(text(page, "#system-PRT td[data-field=sid]")).isEqualTo("PRT (default)");
            assertThat(text(page, "#system-ERP td[data-field=sid]")).isEqualTo("ERP");
            assertThat(text(page, "#system-ERP td[data-field=entries]"))
                    .isEqualTo("wdisp/system_0 = SID=ERP, SRCURL=/sap/");
            assertThat(text(page, "#system-ERP td[data-field=servers]")).isEqualTo("erp1");
            assertThat(text(page, "#systems-meta")).contains("jwd.default_system PRT");
            // each system has its own !J2EE, with its own favorite once its server's first health check passed
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                assertThat(text(page, "div[id='group-ERP-!J2EE-j2ee'] .favorite")).isEqualTo("erp1");
                assertThat(text(page, "div[id='group-PRT-!J2EE-j2ee'] .favorite")).isEqualTo("prt1");
            });
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theJsonApiDescribesEachSystemAndGivesEachItsGroups() {
        Map<String, Object> systems = (Map<String, Object>) admin.json("/jwd/admin/api/systems");
        assertThat(systems).containsEntry("default_system", "PRT").containsEntry("conflict_resolution", "0");
        List<Map<String, Object>> list = (List<Map<String, Object>>) systems.get("systems");
        assertThat(list).extracting(s -> s.get("sid")).containsExactly("ERP", "PRT");
        assertThat(list.get(0)).containsEntry("servers", List.of("erp1")).containsEntry("by_default", false);
        assertThat((List<Map<String, Object>>) list.get(0).get("entries")).singleElement()
                .satisfies(e -> assertThat(e).containsEntry("srcurl", List.of("/sap/")));

        List<Map<String, Object>> j2ee = admin.list("/jwd/admin/api/groups?name=!J2EE");
        assertThat(j2ee).extracting(g -> g.get("system"), g -> g.get("favorite"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ERP", "erp1"),
                        org.assertj.core.groups.Tuple.tuple("PRT", "prt1"));
        assertThat(admin.get("/jwd/admin/api/groups?system=QAS").statusCode()).isEqualTo(404);
        assertThat(admin.get("/jwd/admin/api/groups?system=QAS").body())
                .contains("no system QAS: the systems are ERP, PRT");
    }

    @Test
    void theMetricsLabelTheSeriesOfServersAndGroupsWithTheirSystem() {
        for (int i = 0; i < 3; i++) {
            assertThat(admin.through("/sap/bc/m" + i).statusCode()).isEqualTo(200);
        }
        assertThat(admin.through("/irj/portal").statusCode()).isEqualTo(200);

        String metrics = admin.get("/jwd/admin/metrics").body();

        assertThat(metrics)
                .contains("jwd_requests_total{group=\"!J2EE\",server=\"erp1\",status_class=\"2xx\",system=\"ERP\"} ")
                .contains("jwd_requests_total{group=\"!J2EE\",server=\"prt1\",status_class=\"2xx\",system=\"PRT\"} ")
                .contains("jwd_server_capacity{server=\"erp1\",system=\"ERP\"} 1.0")
                .contains("jwd_server_state{server=\"prt1\",state=\"up\",system=\"PRT\"} 1.0")
                .contains("jwd_server_last_byte_seconds_count{server=\"erp1\",system=\"ERP\"} ")
                .containsPattern("(?m)^jwd_session_table_entries \\S+$")
                .doesNotContain("jwd_server_capacity{server=\"erp1\"} ");
    }

    @Test
    void lgtstReportsOneSystemWithItsSidAndEverySystemWithout() throws Exception {
        String one = lgtst(0, "--system", "ERP", "--group", "!J2EE");
        assertThat(one).contains("group !J2EE (internal group, j2ee servers)").doesNotContain("system ERP")
                .contains("[erp1] [" + erp1.url() + "] [up] [capacity 1]")
                .contains("favorite: [erp1] [" + erp1.url() + "]").doesNotContain("prt1");

        String every = lgtst(0, "--group", "!J2EE");
        assertThat(every).contains("system ERP\n==========\ngroup !J2EE").contains("\nsystem PRT\n==========\n")
                .contains("favorite: [prt1] [" + prt1.url() + "]");

        assertThat(lgtst(1, "--system", "QAS")).contains("no system QAS: the systems are ERP, PRT");
    }

    /** {@code bin/jwd lgtst} against this jwd: its output (standard error too), with the exit code expected. */
    private static String lgtst(int exitCode, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(JwdProcess.launcher().toString(),
                "lgtst", "--url", jwd.uri().toString(), "--user", AdminClient.USER));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("JWD_ADMIN_PASSWORD", AdminClient.PASSWORD);
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("bin/jwd lgtst ended").isTrue();
            assertThat(p.exitValue()).as(out).isEqualTo(exitCode);
            return out;
        } finally {
            p.destroyForcibly();
        }
    }
}
