package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server registry: a server that registers itself receives traffic while it keeps reporting, and is removed
 * {@code rdisp/autoabaptime} x 1.1 after its last report; servers of the configuration file stay.
 */
@Timeout(120)
class RegistryIT {
    @Test
    void aRegisteredServerReceivesTrafficThenExpiresWhenItsHeartbeatsStop() throws Exception {
        DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        DemoBackend n1 = DemoBackend.start(DemoBackend.Options.j2ee("n1"));
        ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor();
        try (JwdProcess jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                logon_group.PORTAL.url_prefixes=/irj/portal
                rdisp/autoabaptime=2
                """.formatted(a.url()) + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);
            String report = "{\"url\":\"%s\",\"type\":\"j2ee\",\"capacity\":2,\"logon_groups\":[\"PORTAL\"]}"
                    .formatted(n1.url());

            HttpResponse<String> first = admin.register("n1", report);
            assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
            assertThat(first.body()).contains("\"outcome\":\"registered\"", "\"source\":\"registry\"");
            heartbeat.scheduleWithFixedDelay(() -> admin.register("n1", report), 500, 500, TimeUnit.MILLISECONDS);

            // it receives traffic: of its logon group alone, and of the internal group with a
            for (int i = 0; i < 3; i++) {
                assertThat(admin.through("/irj/portal/x").headers().firstValue("X-Served-By")).hasValue("n1");
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> "n1".equals(
                    admin.through("/irj/x").headers().firstValue("X-Served-By").orElse("")));
            assertThat(n1.requestCount()).isGreaterThanOrEqualTo(4);
            Map<String, Object> server = admin.server("n1");
            assertThat(server).containsEntry("source", "registry").containsEntry("capacity", 2L)
                    .containsEntry("state", "up");
            assertThat((Long) server.get("expires_in_ms")).isBetween(0L, 2200L);
            assertThat(admin.list("/jwd/admin/api/groups?name=PORTAL").get(0)).containsEntry("favorite", "n1");
            // heartbeats keep it well past its expiry of 2.2 s
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200))
                    .until(() -> admin.get("/jwd/admin/api/servers/n1").statusCode() == 200);
            assertThat(admin.register("n1", report).statusCode()).as("a heartbeat").isEqualTo(200);

            heartbeat.shutdownNow();
            heartbeat.awaitTermination(5, TimeUnit.SECONDS);
            long stopped = System.nanoTime();
            await().atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(100))
                    .until(() -> admin.get("/jwd/admin/api/servers/n1").statusCode() == 404);
            assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isGreaterThan(Duration.ofMillis(1500));

            assertThat(admin.list("/jwd/admin/api/servers")).extracting(s -> s.get("id")).containsExactly("a");
            for (int i = 0; i < 4; i++) {
                assertThat(admin.through("/irj/x").headers().firstValue("X-Served-By")).hasValue("a");
            }
            assertThat(admin.through("/irj/portal/x").statusCode()).as("PORTAL has no server left").isEqualTo(503);
            assertThat(jwd.log()).anyMatch(l -> l.contains("registered servers [n1] removed"));
        } finally {
            heartbeat.shutdownNow();
            a.close();
            n1.close();
        }
    }

    /**
     * Two systems behind jwd: a server registers into ERP by naming it, takes ERP's requests beside ERP's own server
     * and none of PRT's, and {@code api/servers} names its system; a registration that names no system, or one not
     * configured, gets 400 naming the field, the value and the systems there are.
     */
    @Test
    void aServerRegistersIntoOneOfTwoSystemsAndServesThatSystemsRequestsAlone() {
        DemoBackend erp1 = DemoBackend.start(DemoBackend.Options.j2ee("erp1"));
        DemoBackend prt1 = DemoBackend.start(DemoBackend.Options.j2ee("prt1"));
        DemoBackend erp2 = DemoBackend.start(DemoBackend.Options.j2ee("erp2"));
        try (JwdProcess jwd = JwdProcess.start("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_1=SID=PRT, SRCURL=/irj/
                system.ERP.server.erp1.url=%s
                system.ERP.server.erp1.type=j2ee
                system.PRT.server.prt1.url=%s
                system.PRT.server.prt1.type=j2ee
                health.interval=1h
                """.formatted(erp1.url(), prt1.url()) + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);
            String report = "{\"url\":\"%s\",\"type\":\"j2ee\",\"system\":\"ERP\"}".formatted(erp2.url());

            HttpResponse<String> noSystem = admin.register("erp2",
                    "{\"url\":\"%s\",\"type\":\"j2ee\"}".formatted(erp2.url()));
            HttpResponse<String> unknown = admin.register("erp2", report.replace("ERP", "QAS"));
            HttpResponse<String> taken = admin.register("prt1", report);
            HttpResponse<String> registered = admin.register("erp2", report);

            assertThat(noSystem.statusCode()).isEqualTo(400);
            assertThat(noSystem.body()).contains("system = '': expected the SID of the server's system: one of ERP,"
                    + " PRT (required)");
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(unknown.body()).contains("system = 'QAS': expected the SID of the server's system: one of ERP,"
                    + " PRT");
            assertThat(taken.statusCode()).as("PRT's server: one id, one server").isEqualTo(409);
            assertThat(taken.body()).contains("server prt1 is from the configuration file (system PRT)");
            assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
            assertThat(admin.server("erp2")).containsEntry("system", "ERP").containsEntry("source", "registry");
            java.util.Set<String> erp = new java.util.TreeSet<>();
            for (int i = 0; i < 6; i++) {
                erp.add(admin.through("/sap/bc/x").headers().firstValue("X-Served-By").orElse(""));
                assertThat(admin.through("/irj/portal").headers().firstValue("X-Served-By")).hasValue("prt1");
            }
            assertThat(erp).containsExactly("erp1", "erp2");
            assertThat(erp2.requestCount()).isGreaterThanOrEqualTo(1);
        } finally {
            erp1.close();
            prt1.close();
            erp2.close();
        }
    }

    @Test
    void aRegisteredServerMayLeaveAtOnce() {
        DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        try (JwdProcess jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                """.formatted(a.url()) + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);
            assertThat(admin.register("n2", "{\"url\":\"http://127.0.0.1:9\",\"type\":\"abap\"}").statusCode())
                    .isEqualTo(201);
            assertThat(admin.server("n2")).containsEntry("health_path", "/sap/public/icman/ping");

            assertThat(admin.send(admin.request("/jwd/admin/api/servers/n2").DELETE().build()).statusCode())
                    .isEqualTo(200);

            assertThat(admin.get("/jwd/admin/api/servers/n2").statusCode()).isEqualTo(404);
        } finally {
            a.close();
        }
    }
}
