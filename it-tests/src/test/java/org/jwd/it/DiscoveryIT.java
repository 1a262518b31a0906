package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.jwd.demo.IcfInfo;
import org.jwd.demo.MessageServerStandIn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery through the distribution, against the demo's message-server stand-in and demo ABAP servers that serve
 * the ICF's lists: jwd configured by {@code rdisp/mshost} and {@code ms/http_port} alone (or {@code MSHOST} with
 * {@code MSSPORT} over HTTPS) learns the servers, their capacities, the URL mapping table and a logon group known
 * only from the ICF's answers, follows instances that come and go, serves every request while the message server is
 * away, and starts from the kept view when it is away at the start.
 */
@Timeout(180)
@SuppressWarnings("unchecked")
class DiscoveryIT {
    private static final Duration REFRESH = Duration.ofSeconds(2);
    @TempDir
    Path dir;
    private final List<AutoCloseable> started = new java.util.ArrayList<>();
    private MessageServerStandIn ms;
    private DemoBackend abap1;
    private DemoBackend abap2;
    private DemoBackend java1;

    @BeforeEach
    void landscape() {
        abap1 = backend(DemoBackend.Options.abap("abap1").withName("ls1_ERP_00"));
        abap2 = backend(DemoBackend.Options.abap("abap2").withName("ls2_ERP_01"));
        java1 = backend(DemoBackend.Options.j2ee("java1"));
        // the custom prefix and its logon group exist in the ICF's answers only, nowhere in jwd's configuration
        IcfInfo.set("PREFIX=/sap/&CASE=&VHOST=*.*;&STACK=ABAP\n"
                + "PREFIX=/sap/bc/custom/&GROUP=CUSTGRP&CASE=&VHOST=*.*;&STACK=ABAP\n", "CUSTGRP:ls2_ERP_01\n");
    }

    private DemoBackend backend(DemoBackend.Options options) {
        DemoBackend b = DemoBackend.start(options);
        started.add(b);
        return b;
    }

    private MessageServerStandIn standIn(DemoBackend.Tls tls) {
        ms = MessageServerStandIn.start(tls);
        started.add(ms);
        ms.add(MessageServerStandIn.Instance.of(abap1, "ls1_ERP_00", 3));
        ms.add(MessageServerStandIn.Instance.of(abap2, "ls2_ERP_01", 1));
        ms.add(MessageServerStandIn.Instance.of(java1, "J2EE1001", 2));
        return ms;
    }

    @AfterEach
    void stop() throws Exception {
        IcfInfo.reset();
        for (AutoCloseable c : started) {
            c.close();
        }
    }

    private String config() {
        return """
                rdisp/mshost = 127.0.0.1
                ms/http_port = %d
                wdisp/auto_refresh = %d
                jwd.discovery_file = %s
                """.formatted(ms.port(), REFRESH.toSeconds(), dir.resolve("discovery-view.txt")) + AdminClient.CONFIG;
    }

    private static String servedBy(AdminClient admin, String path) {
        HttpResponse<String> r = admin.through(path);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return r.headers().firstValue("X-Served-By").orElse("");
    }

    @Test
    void abapAndJavaInstancesWithTheirCapacitiesAndAGroupOfTheIcfRouteAsConfiguredOnesDo() throws Exception {
        standIn(null);
        try (JwdProcess jwd = JwdProcess.start(config())) {
            AdminClient admin = new AdminClient(jwd);

            assertThat(servedBy(admin, "/sap/bc/custom/app")).isEqualTo("abap2");
            assertThat(servedBy(admin, "/irj/portal")).isEqualTo("java1");
            Map<String, Integer> abap = new HashMap<>();
            for (int i = 0; i < 8; i++) {
                abap.merge(servedBy(admin, "/sap/bc/gui/sap/its/webgui"), 1, Integer::sum);
            }
            assertThat(abap).as("capacities 3 and 1").containsEntry("abap1", 6).containsEntry("abap2", 2);
            Map<String, Object> server = admin.server("ls1_ERP_00");
            assertThat(server).containsEntry("capacity", 3L).containsEntry("type", "abap");
            assertThat(admin.server("J2EE1001")).containsEntry("capacity", 2L).containsEntry("type", "j2ee");
            assertThat(admin.list("/jwd/admin/api/groups?name=CUSTGRP")).isNotEmpty()
                    .allSatisfy(g -> assertThat(g.toString()).contains("ls2_ERP_01"));
            Map<String, Object> discovered = admin.server("ls2_ERP_01");
            assertThat(discovered).containsEntry("source", "discovery").containsEntry("sap_name", "ls2_ERP_01")
                    .containsEntry("discovered_from", "http://127.0.0.1:" + ms.port()
                            + "/msgserver/text/logon?version=1.2");
            Map<String, Object> discovery = ((List<Map<String, Object>>) admin.object("/jwd/admin/api/discovery")
                    .get("systems")).get(0);
            assertThat(discovery).containsEntry("system", "-").containsEntry("servers", 3L)
                    .containsEntry("last_error", null);
            assertThat(String.valueOf(discovery.get("icf_source"))).startsWith("http://127.0.0.1:");
            assertThat(discovery.get("changes").toString()).contains("added ls1_ERP_00", "added J2EE1001");
            assertThat(admin.get("/jwd/admin/metrics").body())
                    .contains("jwd_discovery_last_good_view{system=\"-\"} 0.0");
            assertThat(lgtst(jwd, "CUSTGRP")).contains("group CUSTGRP (logon group type B, abap servers")
                    .contains("[ls2_ERP_01] [" + abap2.url() + "] [up] [capacity 1]");
        }
    }

    private static String lgtst(JwdProcess jwd, String group) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(JwdProcess.launcher().toString(), "lgtst", "--url",
                jwd.uri().toString(), "--group", group, "--user", AdminClient.USER).redirectErrorStream(true);
        pb.environment().put("JWD_ADMIN_PASSWORD", AdminClient.PASSWORD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }

    @Test
    void checkSaysWhatItWillAskWithoutAsking() throws Exception {
        Path file = dir.resolve("jwd.properties");
        Files.writeString(file, "rdisp/mshost = ms.example\nms/http_port = 8101\nwdisp/auto_refresh = 30\n"
                + "wdisp/server_0 = NAME=ls1_ERP_00, LBA=5\njwd.discovery_file = " + dir.resolve("kept.txt") + "\n");

        JwdProcess.Result check = JwdProcess.runToEnd(Duration.ofSeconds(60), "check", "--config",
                file.toString());

        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output()).contains("it would ask http://ms.example:8101/msgserver/text/logon?version=1.2"
                + " for the servers (rdisp/mshost, ms/http_port), then an ABAP server of that list for"
                + " /sap/public/icf_info/icr_urlprefix and /sap/public/icf_info/icr_groups, every 30s",
                "wdisp/server_0 = NAME=ls1_ERP_00, LBA=5 applies to the discovered instance ls1_ERP_00");
    }

    @Test
    void anInstanceAddedAndOneRemovedAreFollowedWithinTwoRefreshPeriods() {
        standIn(null);
        try (JwdProcess jwd = JwdProcess.start(config())) {
            AdminClient admin = new AdminClient(jwd);
            assertThat(servedBy(admin, "/irj/portal")).isEqualTo("java1");
            DemoBackend java2 = backend(DemoBackend.Options.j2ee("java2"));

            long changed = System.nanoTime();
            ms.add(MessageServerStandIn.Instance.of(java2, "J2EE1002", 2));
            ms.remove("J2EE1001");

            await().atMost(REFRESH.multipliedBy(2).plusSeconds(1)).pollInterval(Duration.ofMillis(100))
                    .until(() -> servedBy(admin, "/irj/portal").equals("java2"));
            Duration took = Duration.ofNanos(System.nanoTime() - changed);
            for (int i = 0; i < 6; i++) {
                assertThat(servedBy(admin, "/irj/portal")).isEqualTo("java2");
            }
            assertThat(took).isLessThan(REFRESH.multipliedBy(2).plusSeconds(1));
            assertThat(jwd.log()).anyMatch(l -> l.contains("added J2EE1002"))
                    .anyMatch(l -> l.contains("removed J2EE1001"));
        }
    }

    @Test
    void withTheMessageServerStoppedEveryRequestIsServedAndARestartServesFromTheKeptView() throws Exception {
        standIn(null);
        String config = config();
        try (JwdProcess jwd = JwdProcess.start(config)) {
            AdminClient admin = new AdminClient(jwd);
            assertThat(servedBy(admin, "/sap/bc/custom/app")).isEqualTo("abap2");

            ms.stop();
            long until = System.nanoTime() + REFRESH.multipliedBy(2).plusMillis(500).toNanos();
            int served = 0;
            while (System.nanoTime() < until) {
                servedBy(admin, served % 2 == 0 ? "/sap/bc/gui/x" : "/irj/portal");
                served++;
            }
            assertThat(served).isGreaterThan(10);
            assertThat(jwd.log().stream().filter(l -> l.contains("keeping the last good view"))).hasSize(1);
        }
        assertThat(Files.readAllLines(dir.resolve("discovery-view.txt")).get(0)).isEqualTo("jwd discovery view 1");

        try (JwdProcess restarted = JwdProcess.start(config)) {
            AdminClient admin = new AdminClient(restarted);
            assertThat(servedBy(admin, "/sap/bc/custom/app")).isEqualTo("abap2");
            assertThat(servedBy(admin, "/irj/portal")).isEqualTo("java1");
            HttpResponse<String> ready = admin.get("/jwd/health/ready");
            assertThat(ready.body()).contains("kept view");
        }
    }

    @Test
    void msssportAsksTheMessageServerOverHttpsCheckedAgainstTheTruststore() {
        TestPki pki = TestPki.get();
        standIn(new DemoBackend.Tls(pki.keyStore("server"), TestPki.PASSWORD));
        try (JwdProcess jwd = JwdProcess.start("""
                wdisp/system_0 = SID=ERP, MSHOST=127.0.0.1, MSSPORT=%d, SRCURL=/
                wdisp/ssl_truststore = %s
                wdisp/ssl_truststore_password = %s
                """.formatted(ms.httpsPort(), pki.trustStore(), TestPki.PASSWORD) + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);

            assertThat(servedBy(admin, "/sap/bc/custom/app")).isEqualTo("abap2");
            assertThat(servedBy(admin, "/irj/portal")).isEqualTo("java1");
            assertThat(ms.requests()).isPositive();
        }
    }
}
