package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Server group determination through the Jetty distribution: each class of URL reaches a server of its group
 * and only its group, and hostile spellings of a path cannot reach another group.
 */
class ServerGroupIT {
    private static DemoBackend abap;
    private static DemoBackend j2ee;
    private static DemoBackend portal;
    private static JwdProcess jwd;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() {
        abap = DemoBackend.start(DemoBackend.Options.abap("abap1"));
        j2ee = DemoBackend.start(DemoBackend.Options.j2ee("j2ee1"));
        portal = DemoBackend.start(DemoBackend.Options.j2ee("portal1"));
        jwd = JwdProcess.start("""
                server.abap1.url=%s
                server.abap1.type=abap
                server.j2ee1.url=%s
                server.j2ee1.type=j2ee
                server.portal1.url=%s
                server.portal1.type=j2ee
                server.portal1.logon_groups=PORTAL
                logon_group.PORTAL.url_prefixes=/irj/portal
                logon_group.EMPTY.url_prefixes=/empty
                icf.url_prefixes=/sap/bc/,/A/
                is/HTTP/default_root_hdl=abap
                jwd.debug_headers=true
                """.formatted(abap.url(), j2ee.url(), portal.url()));
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        abap.close();
        j2ee.close();
        portal.close();
    }

    @ParameterizedTest(name = "{0} -> {1} via {2}")
    @CsvSource({
            "/sap/bc/echo,          abap1,   !DIAG",
            "/sap/bc,               abap1,   !DIAG",
            "/A/B/page.htm,         abap1,   !DIAG",
            "/,                     abap1,   !DIAG",
            "/index.html,           abap1,   !DIAG",
            "/irj/../sap/bc/x,      abap1,   !DIAG",
            "/%73ap/bc/x,           abap1,   !DIAG",
            "/sap/bcx/echo,         j2ee1|portal1, !J2EE",
            "/irj/echo,             j2ee1|portal1, !J2EE",
            "/AB/page.htm,          j2ee1|portal1, !J2EE",
            "/irj/portal/x,         portal1, PORTAL",
            "/irj/portal,           portal1, PORTAL",
            "/irj/portalx,          j2ee1|portal1, !J2EE"})
    void eachUrlReachesAServerOfItsGroup(String path, String servers, String group) throws Exception {
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(jwd.uri(path)).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("X-Served-By").orElseThrow()).isIn((Object[]) servers.split("\\|"));
            assertThat(response.headers().firstValue("X-Jwd-Route").orElseThrow()).startsWith("group=" + group + ";");
        }
    }

    @Test
    void theJ2eeGroupSpreadsOverAllJ2eeServersButNeverTheAbapOne() throws Exception {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            seen.add(http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo")).build(),
                    HttpResponse.BodyHandlers.discarding()).headers().firstValue("X-Served-By").orElseThrow());
        }
        assertThat(seen).containsExactlyInAnyOrder("j2ee1", "portal1");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "/IRJ/%2E%2E/sap/x,   400",
            "/IRJ/..;x/sap/x,     400",
            "/IRJ//../sap/x,      400",
            "/sap/bc/%2e%2e/x,     400",
            "/irj/%00/x,           400",
            "/../sap/bc/x,         400",
            "/empty/x,             503"})
    void hostileOrUnservableUrlsAreRefusedNotMisrouted(String path, int status) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(jwd.uri(path)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(status);
        if (status == 503) {
            assertThat(response.body()).contains("EMPTY");
        }
    }
}
