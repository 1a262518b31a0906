package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jwd.Dispatcher;
import org.jwd.config.ConfigParser;
import org.jwd.topology.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The URL filter as the Router applies it: on the normalized path, before any session is looked at. */
class RouterPermissionTest {
    private Dispatcher dispatcher;
    private Router router;

    private void start(Path dir, String table) throws Exception {
        Files.writeString(dir.resolve("ptab.txt"), table);
        dispatcher = new Dispatcher(ConfigParser.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                icf.url_prefixes=/sap/
                SessionTableTimeout=60s
                wdisp/permission_table=ptab.txt
                """, "test.properties", dir));
        router = dispatcher.router();
    }

    @AfterEach
    void close() {
        if (dispatcher != null) {
            dispatcher.close();
        }
    }

    private static RoutingRequest get(String path, boolean secure, String... cookies) {
        return new RoutingRequest("GET", path, null, List.of(cookies), secure);
    }

    private Server a() {
        return dispatcher.topology().server("a");
    }

    @Test
    void aDeniedPathIsRejectedWith403AndBindsNothing(@TempDir Path dir) throws Exception {
        start(dir, "P /sap/public/*\nD /sap/*\n");

        RoutingDecision decision = router.route(get("/sap/bc/gui", false, "JSESSIONID=s1"));

        assertThat(decision.isRejected()).isTrue();
        assertThat(decision.errorStatus()).isEqualTo(403);
        assertThat(decision.errorMessage()).isEqualTo("jwd: this URL is not permitted (permission table, line 2)");
        assertThat(decision.reason()).isEqualTo("permission table line 2");
        assertThat(decision.path()).isEqualTo("/sap/bc/gui");
        assertThat(decision.server()).isNull();
        assertThat(dispatcher.sessionTable().peek("s1")).isNull();
        assertThat(a().inFlight()).isZero();
        assertThat(a().served()).isZero();
    }

    @Test
    void aPermittedOrUnmatchedPathIsRouted(@TempDir Path dir) throws Exception {
        start(dir, "P /irj/public/*\nD /irj/*\n");

        RoutingDecision permitted = router.route(get("/irj/public/ping", false));
        RoutingDecision unmatched = router.route(get("/webdynpro/x", false));

        assertThat(permitted.isRejected()).isFalse();
        assertThat(permitted.server()).isSameAs(a());
        assertThat(unmatched.isRejected()).isFalse();
        permitted.finish(false);
        unmatched.finish(false);
    }

    @Test
    void theNormalizedPathIsFilteredNotTheRawOne(@TempDir Path dir) throws Exception {
        start(dir, "D /sap/*\n");

        assertThat(router.route(get("/%73ap/bc/gui", false)).errorStatus()).isEqualTo(403);
        assertThat(router.route(get("/x/../sap/bc/gui", false)).errorStatus()).isEqualTo(403);
        assertThat(router.route(get("//sap//bc", false)).errorStatus()).isEqualTo(403);
        assertThat(router.route(get("/sap;jsessionid=x/bc", false)).errorStatus()).isEqualTo(403);
    }

    @Test
    void aSecureLineRefusesPlainHttpAndPermitsHttps(@TempDir Path dir) throws Exception {
        start(dir, "S /irj/*\n");

        RoutingDecision overHttp = router.route(get("/irj/portal", false));
        RoutingDecision overHttps = router.route(get("/irj/portal", true));

        assertThat(overHttp.errorStatus()).isEqualTo(403);
        assertThat(overHttp.errorMessage()).isEqualTo(
                "jwd: this URL is permitted over HTTPS only (permission table, line 1)");
        assertThat(overHttps.isRejected()).isFalse();
        overHttps.finish(false);
    }

    @Test
    void explainNamesTheRuleThatMatched(@TempDir Path dir) throws Exception {
        start(dir, "# header\nD /sap/*\n");

        Explanation denied = router.explain(get("/sap/bc/gui", false));
        Explanation unmatched = router.explain(get("/irj/portal", false));

        assertThat(denied.errorStatus()).isEqualTo(403);
        assertThat(denied.server()).isNull();
        assertThat(denied.permissionRule().line()).isEqualTo(2);
        assertThat(denied.permissionRule().text()).isEqualTo("D /sap/*");
        assertThat(denied.permissionRule().file()).isEqualTo(dir.resolve("ptab.txt").toString());
        assertThat(unmatched.permissionRule()).isNull();
        assertThat(unmatched.server()).isSameAs(a());
    }
}
