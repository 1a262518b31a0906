package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SAP's rule for a full session table ({@code wdisp/HTTP/max_session_tab_entries}): "requests that are not
 * contained in the table are forwarded to a default server (for each logon group)": the sessions the table holds
 * keep their servers, and sessions it cannot record are still kept, because balancing stops.
 */
class FullSessionTableIT {
    private static DemoBackend abap1;
    private static DemoBackend abap2;
    private static DemoBackend abap3;
    private static JwdProcess jwd;
    private static AdminClient admin;

    @BeforeAll
    static void start() {
        abap1 = DemoBackend.start(DemoBackend.Options.abap("abap1").withName("h1_ERP_00"));
        abap2 = DemoBackend.start(DemoBackend.Options.abap("abap2").withName("h2_ERP_01"));
        abap3 = DemoBackend.start(DemoBackend.Options.abap("abap3").withName("h3_ERP_02"));
        jwd = JwdProcess.start("""
                server.abap1.url=%s
                server.abap1.type=abap
                server.abap2.url=%s
                server.abap2.type=abap
                server.abap3.url=%s
                server.abap3.type=abap
                icf.url_prefixes=/sap/
                wdisp/HTTP/max_session_tab_entries=2
                health.interval=1h
                jwd.debug_headers=true
                """.formatted(abap1.url(), abap2.url(), abap3.url()) + AdminClient.CONFIG);
        admin = new AdminClient(jwd);
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        for (DemoBackend backend : new DemoBackend[] {abap1, abap2, abap3}) {
            if (backend != null) {
                backend.close();
            }
        }
    }

    private static HttpResponse<String> get(String esid) {
        HttpResponse<String> r = esid == null ? admin.through("/sap/bc/x")
                : admin.through("/sap/bc/x", "Cookie", "sap-ext-sid=" + esid);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r;
    }

    private static String servedBy(HttpResponse<String> r) {
        return r.headers().firstValue("X-Served-By").orElseThrow();
    }

    @Test
    void requestsTheFullTableDoesNotHoldGoToTheDefaultServerAndBoundSessionsStay() {
        // two ESIDs fill the table; weighted round robin puts them on two servers
        String first = servedBy(get("esid-one"));
        String second = servedBy(get("esid-two"));
        assertThat(first).isNotEqualTo(second);
        assertThat(admin.object("/jwd/admin/api/sessiontable")).containsEntry("full", true);

        for (int i = 0; i < 5; i++) {
            // a new session, and stateless requests: the default server, the first of !DIAG, every time
            HttpResponse<String> unheld = get("esid-three");
            assertThat(servedBy(unheld)).isEqualTo("abap1");
            assertThat(unheld.headers().firstValue("X-Jwd-Route"))
                    .hasValue("group=!DIAG; server=abap1; reason=default server (session table full)");
            assertThat(servedBy(get(null))).isEqualTo("abap1");
            // the sessions the table holds keep their servers
            assertThat(servedBy(get("esid-one"))).isEqualTo(first);
            assertThat(servedBy(get("esid-two"))).isEqualTo(second);
        }
        String metrics = admin.get("/jwd/admin/metrics").body();
        assertThat(List.of(metrics.split("\n"))).contains("jwd_session_table_full 1.0");
        assertThat(jwd.log()).anyMatch(line -> line.contains("Session table full"));
    }
}
