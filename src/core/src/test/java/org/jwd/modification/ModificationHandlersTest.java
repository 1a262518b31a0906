package org.jwd.modification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jwd.modification.Requests.outcome;
import static org.jwd.modification.Requests.request;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.jwd.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The handlers of {@code icm/HTTP/mod_<xx>} (SAP's page "icm/HTTP/mod_&lt;xx&gt;"), and SAP's own example action
 * files doing what SAP says they do (the files and their pages: {@code src/test/resources/org/jwd/modification}).
 */
class ModificationHandlersTest {
    @TempDir
    Path dir;

    private ModificationHandlers handlers(Map<String, String> properties, Map<String, String> files)
            throws Exception {
        for (Map.Entry<String, String> f : files.entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), f.getValue());
        }
        return ModificationHandlers.parse(properties, dir);
    }

    private ModificationHandlers sapExample(String name) throws Exception {
        try (InputStream in = getClass().getResourceAsStream(name)) {
            Files.write(dir.resolve(name), in.readAllBytes());
        }
        return ModificationHandlers.parse(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=" + name), dir);
    }

    private static String apply(ModificationHandlers handlers, RequestView request) {
        return outcome(handlers.apply(request), request);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            GET  | /                | ldp1.example:8080 | -> /index.html clientProtocol=http X-SAP-WEBDISP-AP=http:8080,https:8443
            POST | /x/echo          | web:8080          | -> /x/echo clientProtocol=http X-SAP-WEBDISP-AP=http:8080,https:8443
            PUT  | /x/echo          | web:8080          | 403
            HEAD | /                | web:8080          | 403
            GET  | /ping/x          | LDP7.example:8080 | -> /sap/public/icman/ping/x clientProtocol=http X-SAP-WEBDISP-AP=http:8080,https:8443
            GET  | /PING            | ldp7.example:8080 | -> /sap/public/icman/ping clientProtocol=http X-SAP-WEBDISP-AP=http:8080,https:8443
            GET  | /ping/x          | web:8080          | -> /ping/x clientProtocol=http X-SAP-WEBDISP-AP=http:8080,https:8443
            """)
    void sapsExampleFromDefiningModificationActionsDoesWhatSapSays(String method, String path, String host,
                                                                  String expected) throws Exception {
        ModificationHandlers sap = sapExample("sap-defining-modification-actions.txt");

        assertThat(apply(sap, request(method, path, "Host: " + host))).isEqualTo(expected);
    }

    @Test
    void sapsExampleForFioriSelectsTheSystemByTheOriginSegmentParameter() throws Exception {
        ModificationHandlers sap = sapExample("sap-dispatch-to-different-systems.txt");

        assertThat(sap.apply(request("GET", "/sap/opu/odata/MY_SERVICE;o=SYS/x")).targetSid()).isEqualTo("FOO");
        assertThat(sap.apply(request("GET", "/sap/opu/odata/MY_SERVICE;o=OTHER/x")).targetSid()).isEqualTo("BAR");
        assertThat(sap.apply(request("GET", "/sap/opu/odata/MY_SERVICE/x")).targetSid()).isNull();
    }

    @Test
    void sapsRedirectExamplesAnswerWithTheirCodeAndLocation() throws Exception {
        ModificationHandlers sap = sapExample("sap-request-redirect.txt");

        assertThat(apply(sap, request("GET", "/Ping/x?a=1"))).isEqualTo("302 /sap/public/icman/ping/x?a=1");
        assertThat(apply(sap, request("GET", "/"))).isEqualTo("301 http://server.domain:8080/default.html");
        // SAP's text says line 2 takes "a request that only contains the slash"; as a regular expression '/' is
        // found in every path, so it takes /index.html too, before line 3 (the README says to write ^/$)
        assertThat(apply(sap, request("GET", "/index.html"))).isEqualTo("301 http://server.domain:8080/default.html");
    }

    @Test
    void handlersRunInTheOrderOfTheirNumbersWithGaps() throws Exception {
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_10", "PREFIX=/, FILE=c.txt",
                "icm/HTTP/mod_2", "PREFIX=/, FILE=a.txt", "icm/HTTP/mod_5", "PREFIX=/, FILE=b.txt"),
                Map.of("a.txt", "SetHeader X-Order a", "b.txt", "AppendHeader X-Order b",
                        "c.txt", "AppendHeader X-Order c"));

        assertThat(h.handlers()).extracting(ModificationHandlers.Handler::key)
                .containsExactly("icm/HTTP/mod_2", "icm/HTTP/mod_5", "icm/HTTP/mod_10");
        assertThat(apply(h, request("GET", "/x"))).isEqualTo("-> /x X-Order=a, b, c");
    }

    @Test
    void aHandlerTakesThePathsUnderItsPrefixRegardlessOfCaseAsRoutingReadsThem() throws Exception {
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_0", "PREFIX=/sap/, FILE=a.txt"),
                Map.of("a.txt", "SetHeader X-A 1"));

        assertThat(apply(h, request("GET", "/sap/bc/x"))).isEqualTo("-> /sap/bc/x X-A=1");
        assertThat(apply(h, request("GET", "/SAP/bc/x"))).isEqualTo("-> /SAP/bc/x X-A=1");
        assertThat(apply(h, request("GET", "//sap/./bc/x"))).isEqualTo("-> //sap/./bc/x X-A=1");
        assertThat(apply(h, request("GET", "/irj/portal"))).isEqualTo("-> /irj/portal");
    }

    @Test
    void aLaterHandlerTakesThePathsUnderItsPrefixAsRoutingReadsThem() throws Exception {
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=a.txt",
                "icm/HTTP/mod_1", "PREFIX=/sap/, FILE=b.txt"),
                Map.of("a.txt", "SetHeader X-A 1\nRegRewriteUrl ^/escape(.*) /sap/x/../../..$1",
                        "b.txt", "SetHeader X-B 1"));

        assertThat(apply(h, request("GET", "//SAP/./bc/x"))).isEqualTo("-> //SAP/./bc/x X-A=1 X-B=1");
        assertThat(apply(h, request("GET", "/irj/x"))).isEqualTo("-> /irj/x X-A=1");
        assertThat(apply(h, request("GET", "/escape/y")))
                .as("a rewrite routing refuses: the later handler reads the decoded path")
                .isEqualTo("-> /sap/x/../../../y X-A=1 X-B=1");
    }

    @Test
    void aLaterHandlerSeesTheUrlAnEarlierRewroteAndBreakEndsOnlyItsOwnFile() throws Exception {
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=a.txt",
                "icm/HTTP/mod_1", "PREFIX=/new/, FILE=b.txt"),
                Map.of("a.txt", "RegRewriteUrl ^/old/(.*) /new/$1 [break]\nSetHeader X-Skipped 1",
                        "b.txt", "if %{PATH} regmatch ^/new/x\nSetHeader X-Seen %{PATH}"));

        assertThat(apply(h, request("GET", "/old/x?q=1"))).isEqualTo("-> /new/x?q=1 X-Seen=/new/x");
        assertThat(apply(h, request("GET", "/other"))).isEqualTo("-> /other X-Skipped=1");
    }

    @Test
    void aRedirectOrRefusalEndsEveryHandler() throws Exception {
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=a.txt",
                "icm/HTTP/mod_1", "PREFIX=/, FILE=b.txt"),
                Map.of("a.txt", "RegIForbiddenUrl ^/nwa -\nSetHeader X-A 1", "b.txt", "SetHeader X-B 1"));

        assertThat(apply(h, request("GET", "/nwa/x"))).isEqualTo("403");
        assertThat(h.apply(request("GET", "/nwa/x")).message())
                .isEqualTo("jwd: this URL is forbidden (action file a.txt, line 1)");
    }

    @ParameterizedTest
    @CsvSource({"//nwa/x", "/x/../nwa/x", "/./nwa", "/NWA/x", "/%6Ewa/x", "/nwa;jsessionid=1/x"})
    void noSpellingOfAPathWalksAroundARefusal(String path) throws Exception {
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=a.txt"),
                Map.of("a.txt", "RegIForbiddenUrl ^/nwa -"));

        assertThat(apply(h, request("GET", path))).isEqualTo("403");
    }

    @Test
    void aMalformedValueIsNamedWithWhatIsExpectedAndNothingElse() {
        for (String value : new String[] {"/", "PREFIX=/, PREFIX=/x", "PREFIX=/,=x", "PREFIX=/, =x"}) {
            assertThatThrownBy(() -> handlers(Map.of("icm/HTTP/mod_0", value), Map.of()))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageEndingWith("icm/HTTP/mod_0 = '" + value + "': expected PREFIX=<URL prefix>[,"
                            + " FILE=<action file>]");
        }
    }

    @Test
    void withoutHandlersNothingIsConfigured() throws Exception {
        ModificationHandlers none = handlers(Map.of(), Map.of());

        assertThat(none.isConfigured()).isFalse();
        assertThat(none.apply(request("GET", "/x"))).isEqualTo(Modification.NONE);
        assertThat(none).hasToString("ModificationHandlers[]");
    }

    @Test
    void theAccessLogNamesTheRuleThatAnsweredOrRewrote() throws Exception {
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=a.txt"), Map.of("a.txt", """
                RegRewriteUrl ^/old/(.*) /new/$1
                RegRedirectUrl ^/moved$ /there [CODE=300]
                RegForbiddenUrl ^/secret -
                RegGoneUrl ^/gone -
                SetHeader X-A 1
                """));

        assertThat(h.apply(request("GET", "/old/x")).describe()).isEqualTo("rewritten by a.txt:1");
        assertThat(h.apply(request("GET", "/moved")).describe()).isEqualTo("redirected by a.txt:2");
        assertThat(h.apply(request("GET", "/secret")).describe()).isEqualTo("forbidden by a.txt:3");
        assertThat(h.apply(request("GET", "/gone")).describe()).isEqualTo("gone by a.txt:4");
        assertThat(h.apply(request("GET", "/else")).describe()).as("only headers changed").isNull();
        assertThat(h.apply(request("GET", "/moved")).toString()).startsWith("Modification[300 /there, [a.txt:2 ")
                .endsWith(": redirected to /there]]");
        assertThat(h.apply(request("GET", "/old/x?q=1")).toString()).startsWith("Modification[/new/x?q=1, ");
        assertThat(h.apply(request("GET", "/else")).toString()).startsWith("Modification[not rewritten, ");
        assertThat(Modification.NONE).hasToString("Modification[none]");
    }

    @Test
    void aRemovedHeaderIsARemovalAndASetOneASetting() throws Exception {
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=a.txt"),
                Map.of("a.txt", "RemoveHeader Referer\nSetHeader X-A 1"));

        Modification m = h.apply(request("GET", "/x", "Referer: http://r/"));

        assertThat(m.requestHeader("referer")).isEqualTo(new HeaderEdit(HeaderEdit.Kind.REMOVE, "Referer", null));
        assertThat(m.requestHeader("X-A")).isEqualTo(new HeaderEdit(HeaderEdit.Kind.SET, "X-A", "1"));
        assertThat(m.requestHeader("X-B")).isNull();
    }

    @Test
    void aHandlerWithoutFileDoesNothingAsSapsDefault() throws Exception {
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_0", "PREFIX=/"), Map.of());

        assertThat(h.isConfigured()).isTrue();
        assertThat(h.apply(request("GET", "/x"))).isEqualTo(Modification.NONE);
        assertThat(h.files()).isEmpty();
    }

    @Test
    void readsTheFileRelativeToTheConfigurationsDirectory() throws Exception {
        Files.createDirectories(dir.resolve("rules"));
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_0", "prefix=/,file=rules/a.txt"),
                Map.of("rules/a.txt", "SetHeader X-A 1"));

        assertThat(h.files()).containsExactly(dir.resolve("rules/a.txt"));
        assertThat(h.handlers().get(0).toString()).isEqualTo("icm/HTTP/mod_0 = PREFIX=/, FILE=rules/a.txt");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            icm/HTTP/mod_01 | PREFIX=/                         | icm/HTTP/mod_01 = 'PREFIX=/': expected icm/HTTP/mod_<xx>, <xx> a number without a leading 0
            icm/HTTP/mod_x  | PREFIX=/                         | expected icm/HTTP/mod_<xx>
            icm/HTTP/mod_0  | FILE=a.txt                       | expected PREFIX=<URL prefix>[, FILE=<action file>] (PREFIX is missing)
            icm/HTTP/mod_0  | PREFIX=sap                       | (a prefix starts with '/')
            icm/HTTP/mod_0  | PREFIX=/, FILE=a.txt, TYPE=x     | (TYPE is not one of them)
            icm/HTTP/mod_0  | PREFIX=/, PREFIX=/x              | expected PREFIX=<URL prefix>[, FILE=<action file>]
            icm/HTTP/mod_0  | /                                | expected PREFIX=<URL prefix>[, FILE=<action file>]
            icm/HTTP/mod_0  | PREFIX=/, FILE=                  | (FILE is empty)
            icm/HTTP/mod_0  | PREFIX=/, FILE=$(DIR_GLOBAL)/a   | FILE names a profile variable ($(...)), which jwd does not expand
            icm/HTTP/mod_0  | PREFIX=/, FILE=missing.txt       | missing.txt does not exist
            """)
    void refusesAMalformedHandlerNamingTheKey(String key, String value, String expected) {
        assertThatThrownBy(() -> handlers(Map.of(key, value), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining(expected);
    }

    @Test
    void aBadLineOfTheFileIsNamedWithTheFileAndLine() throws IOException {
        Files.writeString(dir.resolve("a.txt"), "SetHeader X-A 1\nRegRewriteUrl ^/a /b [restart]\n");

        assertThatThrownBy(() -> ModificationHandlers.parse(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=a.txt"), dir))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("a.txt:2: 'RegRewriteUrl ^/a /b [restart]': [restart] is not supported by jwd");
    }

    @Test
    void namesTheRuleThatAnsweredOrRewroteForTheAccessLog() throws Exception {
        ModificationHandlers h = handlers(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=a.txt"),
                Map.of("a.txt", "SetHeader X-A 1\nRegRewriteUrl ^/a$ /b\nRegRedirectUrl ^/c$ /d\nRegGoneUrl ^/e$ -"));

        assertThat(h.apply(request("GET", "/a")).describe()).isEqualTo("rewritten by a.txt:2");
        assertThat(h.apply(request("GET", "/c")).describe()).isEqualTo("redirected by a.txt:3");
        assertThat(h.apply(request("GET", "/e")).describe()).isEqualTo("gone by a.txt:4");
        assertThat(h.apply(request("GET", "/x")).describe()).isNull();
        assertThat(h.apply(request("GET", "/a")).fired()).extracting(Fired::toString)
                .containsExactly("a.txt:1 SetHeader X-A 1: header set X-A: 1",
                        "a.txt:2 RegRewriteUrl ^/a$ /b: rewritten to /b");
    }

    @Test
    void aSystemNamedByTheClientCountsWhereTheCallerLetItThrough() throws Exception {
        ModificationHandlers none = handlers(Map.of("icm/HTTP/mod_0", "PREFIX=/sap/, FILE=a.txt"),
                Map.of("a.txt", "SetHeader X-A 1"));

        assertThat(none.apply(request("GET", "/irj", "x-sap-webdisp-target-sid: ERP")).targetSid()).isEqualTo("ERP");
        assertThat(none.apply(request("GET", "/sap/x", "X-SAP-WEBDISP-TARGET-SID:  PRT ")).targetSid())
                .isEqualTo("PRT");
        assertThat(ModificationHandlers.NONE.apply(request("GET", "/irj"))).isSameAs(Modification.NONE);
    }

    @Test
    void theExampleActionFilesOfTheConfigDirectoryLoadAndDoWhatTheirCommentsSay() throws Exception {
        Path config = Path.of(System.getProperty("jwd.projectDir", "..")).resolve("config");
        ModificationHandlers example = ModificationHandlers.parse(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=actions.txt"),
                config);
        ModificationHandlers demo = ModificationHandlers.parse(Map.of("icm/HTTP/mod_0",
                "PREFIX=/, FILE=demo-actions.txt"), config);

        assertThat(apply(example, request("GET", "/"))).isEqualTo("302 /irj/portal");
        assertThat(apply(example, request("GET", "/PING"))).isEqualTo("-> /sap/public/icman/ping");
        assertThat(apply(example, request("DELETE", "/irj/x"))).isEqualTo("403");
        assertThat(apply(example, request("POST", "/irj/x", true)))
                .isEqualTo("-> /irj/x clientProtocol=https X-SAP-WEBDISP-AP=http:8080,https:8443");
        assertThat(apply(demo, request("GET", "/"))).isEqualTo("302 /portal");
        assertThat(apply(demo, request("GET", "/irj/echo")))
                .isEqualTo("-> /irj/echo clientProtocol=http X-SAP-WEBDISP-AP=http:8080,https:8443");
    }
}
