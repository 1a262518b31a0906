package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jwd.runtime.Bootstrap;
import org.jwd.runtime.Dispatcher;
import org.jwd.topology.Server;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/** The URL filter as the Router applies it: on the normalized path, before any session is looked at. */
class RouterPermissionTest {
    private Bootstrap boot;
    private Dispatcher dispatcher;
    private Router router;

    private void start(Path dir, String table) throws Exception {
        Files.writeString(dir.resolve("ptab.txt"), table);
        boot = Bootstrap.build(ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                icf.url_prefixes=/sap/
                SessionTableTimeout=60s
                wdisp/permission_table=ptab.txt
                """, "test.properties", dir), null);
        dispatcher = boot.dispatcher();
        router = dispatcher.state().router();
    }

    private static final String SAP_IS_ABAP = "icf.url_prefixes=/sap/\n";

    /** A J2EE server a and an ABAP server b; {@code extra} adds configuration lines. */
    private void startLandscape(Path dir, String table, String extra) throws Exception {
        Files.writeString(dir.resolve("ptab.txt"), table);
        boot = Bootstrap.build(ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                server.b.url=http://127.0.0.1:9002
                server.b.https_url=https://127.0.0.1:9443
                server.b.type=abap
                wdisp/permission_table=ptab.txt
                """ + extra, "test.properties", dir), null);
        dispatcher = boot.dispatcher();
        router = dispatcher.state().router();
    }

    @AfterEach
    void close() {
        if (dispatcher != null) {
            boot.close();
        }
    }

    private static RoutingRequest get(String path, boolean secure, String... cookies) {
        return RoutingRequest.of("GET", path, null, List.of(cookies), secure);
    }

    private Server a() {
        return dispatcher.state().topology().server("a");
    }

    /** "icm/HTTP/auth_<xx>": after wdisp/permission_table, its own lines below its PREFIX, both readings of a path. */
    @Test
    void sapsAuthenticationHandlersPermissionFileRefusesBelowItsPrefixUnderEitherReading(@TempDir Path dir)
            throws Exception {
        Files.writeString(dir.resolve("perm.txt"), "D /irj/admin/* * * *\nP /* * * *\n");
        startLandscape(dir, "P /*\n", "icm/HTTP/auth_0 = PREFIX=/irj/, PERMFILE=perm.txt\n");

        for (String path : List.of("/irj/admin/x", "/IRJ/Admin/x", "/irj%2Fadmin/x", "/irj/portal/../admin/x")) {
            RoutingDecision decision = router.route(get(path, false));
            assertThat(decision.isRejected()).as(path).isTrue();
            assertThat(decision.errorStatus()).as(path).isIn(400, 403);
        }
        assertThat(router.route(get("/irj/admin/x", false)).reason()).isEqualTo("permission table line 1");
        assertThat(router.route(get("/irj/portal", false)).isRejected()).isFalse();
    }

    /** Without wdisp/permission_table, an authentication handler alone still reads both readings of a path. */
    @Test
    void anAuthenticationHandlerWithoutAPermissionTableRefusesThePathAsAServerThatDecodesFirstReadsIt(
            @TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("perm.txt"), "D /irj/admin/* * * *\nP /* * * *\n");
        boot = Bootstrap.build(ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                icm/HTTP/auth_0 = PREFIX=/irj/, PERMFILE=perm.txt
                """, "test.properties", dir), null);
        dispatcher = boot.dispatcher();
        router = dispatcher.state().router();

        RoutingDecision decision = router.route(get("/irj%2Fadmin/x", false));

        assertThat(decision.errorStatus()).as(decision.errorMessage()).isEqualTo(403);
        assertThat(decision.errorMessage()).isEqualTo("jwd: this URL is not permitted (permission table, line 1)");
        assertThat(router.route(get("/irj%2Fportal/x", false)).isRejected()).isFalse();
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

    private static final String ISSUE_17_TABLE = "S /sap/bc/gui/*\nD /sap/bc/admin/*\nD /nwa/*\n";

    @Test
    void anAbapPathIsFilteredRegardlessOfCaseAsTheIcfReadsIt(@TempDir Path dir) throws Exception {
        startLandscape(dir, ISSUE_17_TABLE, SAP_IS_ABAP);

        assertThat(router.route(get("/sap/bc/ADMIN/x", false)).errorStatus()).isEqualTo(403);
        assertThat(router.route(get("/SAP/BC/admin/x", false)).errorStatus()).isEqualTo(403);
        assertThat(router.route(get("/Sap/Bc/Admin/x", true)).errorStatus()).isEqualTo(403);
        RoutingDecision guiOverHttp = router.route(get("/sap/bc/GUI/start", false));
        assertThat(guiOverHttp.errorStatus()).isEqualTo(403);
        assertThat(guiOverHttp.reason()).isEqualTo("permission table line 1");
        RoutingDecision guiOverHttps = router.route(get("/SAP/bc/GUI/start", true));
        assertThat(guiOverHttps.isRejected()).isFalse();
        assertThat(guiOverHttps.server()).isSameAs(dispatcher.state().topology().server("b"));
        guiOverHttps.finish(false);
    }

    @Test
    void aJ2eePathIsFilteredCaseSensitivelyUnlessTheKeySaysTheServersFoldCase(@TempDir Path dir) throws Exception {
        startLandscape(dir, ISSUE_17_TABLE, SAP_IS_ABAP);
        RoutingDecision otherCase = router.route(get("/NWA/x", false));

        assertThat(router.route(get("/nwa/x", false)).errorStatus()).isEqualTo(403);
        // a Java server reads /NWA/x as another path than /nwa/x: it goes there, to the J2EE server only
        assertThat(otherCase.isRejected()).isFalse();
        assertThat(otherCase.server()).isSameAs(a());
        otherCase.finish(false);
        boot.close();

        startLandscape(dir, ISSUE_17_TABLE, SAP_IS_ABAP + "jwd.permission_table_ignore_case=true\n");
        assertThat(router.route(get("/NWA/x", false)).errorStatus()).isEqualTo(403);
        assertThat(router.route(get("/Nwa/X", false)).errorStatus()).isEqualTo(403);
    }

    @Test
    void whileNoJ2eeServerIsActiveAJ2eePathIsFilteredAsTheAbapServersOfAllReadIt(@TempDir Path dir)
            throws Exception {
        startLandscape(dir, "D /sap/public/x\nD /nwa/*\n", "icf.url_prefixes=/sap/bc/\n");
        a().setState(Server.State.DOWN);

        // /sap/public/ is missing from the URL mapping table: J2EE, but !ALL would take it to the ABAP server
        assertThat(router.route(get("/SAP/PUBLIC/x", false)).errorStatus()).isEqualTo(403);
        assertThat(router.route(get("/NWA/x", false)).errorStatus()).isEqualTo(403);
        RoutingDecision other = router.route(get("/irj/x", false));
        assertThat(other.isRejected()).isFalse();
        assertThat(other.server()).isSameAs(dispatcher.state().topology().server("b"));
        other.finish(false);

        a().setState(Server.State.UP);
        RoutingDecision j2eeAgain = router.route(get("/SAP/PUBLIC/x", false));
        assertThat(j2eeAgain.isRejected()).isFalse();
        assertThat(j2eeAgain.server()).isSameAs(a());
        j2eeAgain.finish(false);
    }

    @Test
    void aCaseSensitiveLineMatchesAnAbapPathOnlyInItsOwnCase(@TempDir Path dir) throws Exception {
        startLandscape(dir, "P case:/sap/bc/Open/*\nD /sap/bc/*\n", SAP_IS_ABAP);

        RoutingDecision own = router.route(get("/sap/bc/Open/x", false));

        assertThat(own.isRejected()).isFalse();
        own.finish(false);
        assertThat(router.route(get("/sap/bc/open/x", false)).reason()).isEqualTo("permission table line 2");
    }

    @Test
    void explainReadsTheCaseOfAPathAsRoutingDoes(@TempDir Path dir) throws Exception {
        startLandscape(dir, ISSUE_17_TABLE, SAP_IS_ABAP);

        Explanation denied = router.explain(get("/SAP/BC/ADMIN/x", false));
        Explanation j2ee = router.explain(get("/NWA/x", false));

        assertThat(denied.errorStatus()).isEqualTo(403);
        assertThat(denied.permissionRule().line()).isEqualTo(2);
        assertThat(j2ee.permissionRule()).isNull();
        assertThat(j2ee.server()).isSameAs(a());
    }

    @Test
    void aTrailingDotOrSpaceIsA400NamingIt(@TempDir Path dir) throws Exception {
        startLandscape(dir, ISSUE_17_TABLE, SAP_IS_ABAP);

        RoutingDecision dot = router.route(get("/nwa./x", false));
        RoutingDecision space = router.route(get("/sap/bc/admin%20/x", false));

        assertThat(dot.errorStatus()).isEqualTo(400);
        assertThat(dot.errorMessage()).startsWith("jwd: bad path: the path segment 'nwa.' ends with a dot");
        assertThat(space.errorStatus()).isEqualTo(400);
        assertThat(space.errorMessage()).startsWith("jwd: bad path: the path segment 'admin ' ends with a space");
    }

    /**
     * A server that decodes before it splits reads {@code %2F} as a '/' and {@code %3B} as the start of a parameter:
     * a line that refuses that reading refuses the path, whichever reading jwd classified.
     */
    @ParameterizedTest(name = "{0}: 403 by line {1}")
    @CsvSource({
            "/sap/bc%2Fadmin/x, 2", "/sap/bc%2fADMIN/x, 2", "/SAP%2Fbc%2Fadmin/x, 2", "/nwa%3bx/y, 3", "/nwa%3B/x, 3",
            "/sap/bc/admin%3b/x, 2", "/irj/..%2Fnwa/x, 3", "/irj%2F..%2Fnwa/x, 3", "/sap(bD1l)/bc%2Fadmin/x, 2",
            "/sap(bD1l)/bc/admin/x, 2", "/sap%28bD1l%29/bc/admin/x, 2", "/nwa(x)/y, 3"})
    void aLineRefusesThePathAsAServerThatDecodesFirstReadsIt(String path, int line, @TempDir Path dir)
            throws Exception {
        startLandscape(dir, ISSUE_17_TABLE, SAP_IS_ABAP);

        RoutingDecision decision = router.route(get(path, false));

        assertThat(decision.errorStatus()).as(decision.errorMessage()).isEqualTo(403);
        assertThat(decision.errorMessage()).isEqualTo("jwd: this URL is not permitted (permission table, line "
                + line + ")");
        assertThat(decision.server()).isNull();
    }

    /** A table that permits only what it lists keeps permitting the mangled and the encoded forms of its URLs. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "/sap(bD1lbiZjPTAwMQ==)/bc/bsp/sap/it00/default.htm, 200",
            "/sap/bc/adt/oo/classes/%2Fdmo%2Fcl_flight/source/main, 200",
            "/sap/opu/odata/sap/ZSRV/EMPLOYEES('A%2FB'), 200",
            "/sap/bc/adt/..%2F..%2Fadmin/x, 403",
            "/sap(bD1l)/bc/admin/x, 403"})
    void aPermitListKeepsMangledAndEncodedFormsOfItsUrls(String path, int status, @TempDir Path dir)
            throws Exception {
        startLandscape(dir, "P /sap/bc/bsp/*\nP /sap/bc/adt/*\nP /sap/opu/odata/*\nD *\n", SAP_IS_ABAP);

        RoutingDecision decision = router.route(get(path, false));

        assertThat(decision.isRejected() ? decision.errorStatus() : 200).as(decision.reason()).isEqualTo(status);
    }

    /** A line that names a parenthesis is about the literal text: the mangled reading does not walk around it. */
    @Test
    void aLineNamingAParenthesisIsComparedWithTheLiteralPath(@TempDir Path dir) throws Exception {
        startLandscape(dir, "D */EMPLOYEES('secret')\n", SAP_IS_ABAP);

        assertThat(router.route(get("/sap/opu/odata/sap/ZSRV/EMPLOYEES('secret')", false)).errorStatus())
                .isEqualTo(403);
        assertThat(router.route(get("/sap/opu/odata/sap/ZSRV/EMPLOYEES(%27secret%27)", false)).errorStatus())
                .isEqualTo(403);
        assertThat(router.route(get("/sap/opu/odata/sap/ZSRV/EMPLOYEES('public')", false)).isRejected()).isFalse();
    }
}
