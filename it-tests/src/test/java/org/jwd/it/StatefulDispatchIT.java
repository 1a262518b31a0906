package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Stateful dispatching as SAP defines it, through the real dispatcher with SAP's defaults (no
 * {@code SessionTableTimeout}): the session ID table keeps ESIDs and the JSESSIONIDs servers set, the ESID comes
 * before {@code sap-contextid}, a valid identifier wins over the URL's group, and drained J2EE servers never turn
 * J2EE requests into ABAP requests.
 */
class StatefulDispatchIT {
    private static DemoBackend j1;
    private static DemoBackend j2;
    private static DemoBackend j3;
    private static DemoBackend abap1;
    private static DemoBackend abap2;
    private static JwdProcess jwd;
    private static AdminClient admin;

    @BeforeAll
    static void start() {
        j1 = DemoBackend.start(DemoBackend.Options.j2ee("j1").withInstance("J2EE100").withNode("101"));
        j2 = DemoBackend.start(DemoBackend.Options.j2ee("j2").withInstance("J2EE200").withNode("201"));
        j3 = DemoBackend.start(DemoBackend.Options.j2ee("j3").withInstance("J2EE300").withNode("301"));
        abap1 = DemoBackend.start(DemoBackend.Options.abap("abap1").withName("h1_JWD_00"));
        abap2 = DemoBackend.start(DemoBackend.Options.abap("abap2").withName("h2_JWD_01"));
        // j1 and j2 form logon group PORTAL (/irj); j3 serves the other J2EE URLs only
        jwd = JwdProcess.start("""
                server.j1.url=%s
                server.j1.type=j2ee
                server.j1.lb_id=101
                server.j1.logon_groups=PORTAL
                server.j2.url=%s
                server.j2.type=j2ee
                server.j2.lb_id=201
                server.j2.logon_groups=PORTAL
                server.j3.url=%s
                server.j3.type=j2ee
                server.j3.lb_id=301
                server.abap1.url=%s
                server.abap1.type=abap
                server.abap1.name=h1_JWD_00
                server.abap2.url=%s
                server.abap2.type=abap
                server.abap2.name=h2_JWD_01
                icf.url_prefixes=/sap/
                logon_group.PORTAL.url_prefixes=/irj
                health.interval=1h
                jwd.debug_headers=true
                """.formatted(j1.url(), j2.url(), j3.url(), abap1.url(), abap2.url()) + AdminClient.CONFIG);
        admin = new AdminClient(jwd);
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        for (DemoBackend backend : new DemoBackend[] {j1, j2, j3, abap1, abap2}) {
            if (backend != null) {
                backend.close();
            }
        }
    }

    private static HttpResponse<String> get(String path, String cookie) {
        return cookie == null ? admin.through(path) : admin.through(path, "Cookie", cookie);
    }

    private static String servedBy(String path, String cookie) {
        HttpResponse<String> r = get(path, cookie);
        assertThat(r.statusCode()).as(path + " " + cookie + ": " + r.body()).isEqualTo(200);
        return r.headers().firstValue("X-Served-By").orElseThrow();
    }

    private static String route(HttpResponse<String> r) {
        return r.headers().firstValue("X-Jwd-Route").orElseThrow();
    }

    @Test
    void aJsessionidTheServerSetIsLearnedAndStickyWithTheDefaults() {
        Set<String> firstServers = new HashSet<>();
        for (int session = 0; session < 6; session++) {
            // the portal page sets only JSESSIONID: no saplb_* cookie, no route suffix
            HttpResponse<String> first = get("/nwa/portal", null);
            String jsessionid = first.headers().allValues("Set-Cookie").stream()
                    .filter(c -> c.startsWith("JSESSIONID=")).findFirst().orElseThrow()
                    .substring("JSESSIONID=".length()).split(";")[0];
            String server = first.headers().firstValue("X-Served-By").orElseThrow();
            firstServers.add(server);
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> next = get("/nwa/portal", "JSESSIONID=" + jsessionid);
                assertThat(next.headers().firstValue("X-Served-By")).as("request %d of session %d", i, session)
                        .hasValue(server);
                assertThat(route(next)).contains("reason=session table");
            }
        }
        // new sessions are still balanced
        assertThat(firstServers).hasSizeGreaterThan(1);
    }

    @Test
    void sapExtSidIsStickyWithTheDefaults() {
        Set<String> servers = new HashSet<>();
        for (int session = 0; session < 6; session++) {
            String esid = "ESID" + session + "x" + System.nanoTime();
            HttpResponse<String> first = get("/sap/bc/esid", "sap-ext-sid=" + esid);
            assertThat(route(first)).contains("reason=session table bind");
            String server = first.headers().firstValue("X-Served-By").orElseThrow();
            servers.add(server);
            for (int i = 0; i < 10; i++) {
                assertThat(servedBy("/sap/bc/esid", "sap-ext-sid=" + esid)).isEqualTo(server);
            }
            // as a path parameter too
            assertThat(servedBy("/sap/bc/esid;sap-ext-sid=" + esid, null)).isEqualTo(server);
        }
        assertThat(servers).containsExactlyInAnyOrder("abap1", "abap2");
    }

    @Test
    void theEsidBeatsSapContextid() {
        String esid = "ESIDFIRST" + System.nanoTime();
        String bound = servedBy("/sap/bc/order", "sap-ext-sid=" + esid);
        String other = bound.equals("abap1") ? "h2_JWD_01" : "h1_JWD_00";

        HttpResponse<String> r = get("/sap/bc/order",
                "sap-contextid=SID%3aANON%3a" + other + "%3a7-NEW; sap-ext-sid=" + esid);

        assertThat(r.headers().firstValue("X-Served-By")).hasValue(bound);
        assertThat(route(r)).contains("reason=session table (sap-ext-sid)");
    }

    @Test
    void aSaplbCookieNamingAServerOutsideTheLogonGroupKeepsTheSession() {
        // j3 is not in PORTAL, whose URL /irj is asked for: the session's server wins over the URL's group
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> r = get("/irj/portal/x", "saplb_*=(J2EE300)301; JSESSIONID=outside" + i);
            assertThat(r.headers().firstValue("X-Served-By")).hasValue("j3");
            assertThat(route(r)).isEqualTo("group=PORTAL; server=j3; reason=saplb cookie");
        }
        // without the cookie, PORTAL's own members serve
        List<String> balanced = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            balanced.add(servedBy("/irj/portal/x", null));
        }
        assertThat(balanced).containsOnly("j1", "j2");
    }

    @Test
    void drainingEveryJ2eeServerNeverSendsJ2eeRequestsToAbapServers() {
        try {
            for (String id : List.of("j1", "j2", "j3")) {
                assertThat(admin.act(id, "drain").statusCode()).isEqualTo(200);
            }
            HttpResponse<String> stateless = get("/nwa/x", null);
            assertThat(stateless.statusCode()).as(stateless.body()).isEqualTo(503);
            assertThat(stateless.body()).contains("!J2EE");
            // a session on a drained server continues there
            assertThat(servedBy("/nwa/x", "saplb_*=(J2EE200)201")).isEqualTo("j2");
            assertThat(servedBy("/irj/x", "saplb_*=(J2EE300)301")).isEqualTo("j3");
            // ABAP is unaffected
            assertThat(servedBy("/sap/bc/x", null)).startsWith("abap");
        } finally {
            for (String id : List.of("j1", "j2", "j3")) {
                admin.act(id, "enable");
            }
        }
        assertThat(servedBy("/nwa/x", null)).startsWith("j");
    }
}
