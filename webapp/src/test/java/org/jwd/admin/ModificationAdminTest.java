package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jwd.runtime.Bootstrap;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The administration shows the modification handler: {@code api/config} its handlers and their action files as
 * loaded, {@code api/explain} each rule that would fire, and a URL the rules rewrite explained as the new URL, in the
 * system a rule names.
 */
class ModificationAdminTest {
    private static final String ACTIONS = """
            # the test's rules
            SetHeader clientProtocol %{SERVER_PROTOCOL}
            if %{REQUEST_METHOD} !stricmp "GET"
            RegForbiddenUrl ^/(.*) -
            RegRedirectUrl ^/$ /irj/portal [CODE=permanent]
            RegIRewriteUrl ^/ping(.*) /sap/public/icman/ping$1
            if %{PATH} regimatch *;o=ERP* SetHeader x-sap-webdisp-target-sid ERP [break]
            """;

    @TempDir
    Path dir;
    private Bootstrap boot;
    private AdminApi api;

    @BeforeEach
    void start() throws Exception {
        Files.writeString(dir.resolve("actions.txt"), ACTIONS);
        boot = Bootstrap.build(ConfigReader.parse("""
                icm/HTTP/mod_0=PREFIX=/, FILE=actions.txt
                wdisp/system_0=SID=PRT, SRCURL=/irj/
                wdisp/system_1=SID=ERP, SRCURL=/sap/
                jwd.default_system=PRT
                system.PRT.server.prt1.url=http://127.0.0.1:9002
                system.PRT.server.prt1.type=j2ee
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=abap
                system.ERP.server.erp1.name=erp_ERP_00
                system.ERP.icf.url_prefixes=/sap/
                health.interval=1h
                jwd.config_watch=0
                """, "test.properties", dir), null);
        api = new AdminApi(AdminContext.of(boot), new RequestHistory(10, 5000, () -> 0L), () -> 0L);
    }

    @AfterEach
    void close() {
        boot.close();
    }

    private ExplainView explain(String url, String method) {
        AdminApi.Answer answer = api.explain(url, method, List.of(), "10.0.0.7", "127.0.0.1", 8080);
        assertThat(answer.status()).isEqualTo(200);
        return (ExplainView) answer.body();
    }

    @Test
    void theConfigurationShowsEachHandlerAndTheLinesOfItsActionFile() {
        ConfigView.Handler handler = api.config().modification().get(0);

        assertThat(handler.key()).isEqualTo("icm/HTTP/mod_0");
        assertThat(handler.prefix()).isEqualTo("/");
        assertThat(handler.file()).isEqualTo("actions.txt");
        assertThat(handler.path()).isEqualTo(dir.resolve("actions.txt").toAbsolutePath().toString());
        assertThat(handler.lines()).extracting(ConfigView.Line::line).containsExactly(2, 3, 4, 5, 6, 7);
        assertThat(handler.lines().get(0).text()).isEqualTo("SetHeader clientProtocol %{SERVER_PROTOCOL}");
    }

    @Test
    void aRewrittenUrlIsExplainedAsTheNewUrlWithTheRulesThatFired() {
        ExplainView view = explain("/PING/x", "GET");

        assertThat(view.modification().fired()).containsExactly(
                "actions.txt:2 SetHeader clientProtocol %{SERVER_PROTOCOL}: header set clientProtocol: http",
                "actions.txt:6 RegIRewriteUrl ^/ping(.*) /sap/public/icman/ping$1: rewritten to"
                        + " /sap/public/icman/ping/x");
        assertThat(view.modification().url()).isEqualTo("/sap/public/icman/ping/x");
        assertThat(view.path()).isEqualTo("/sap/public/icman/ping/x");
        assertThat(view.system()).isEqualTo("system ERP: SRCURL /sap/ matched");
        assertThat(view.server()).isEqualTo("erp1");
        assertThat(view.target()).isEqualTo("http://127.0.0.1:9001/sap/public/icman/ping/x");
    }

    @Test
    void aRedirectOrRefusalIsExplainedWithItsStatusAndNoServer() {
        ExplainView redirect = explain("/", "GET");
        ExplainView forbidden = explain("/irj/portal", "put");

        assertThat(redirect.status()).isEqualTo(301);
        assertThat(redirect.target()).isEqualTo("/irj/portal");
        assertThat(redirect.reason()).isEqualTo("redirected by actions.txt:5");
        assertThat(redirect.server()).isNull();
        assertThat(forbidden.status()).isEqualTo(403);
        assertThat(forbidden.error()).isEqualTo("jwd: this URL is forbidden (action file actions.txt, line 4)");
        assertThat(forbidden.modification().fired()).last().asString().startsWith("actions.txt:4 RegForbiddenUrl");
    }

    @Test
    void aSystemARuleNamesTakesTheRequestWhateverItsPrefix() {
        ExplainView view = explain("/irj/odata/SRV;o=ERP/x", "GET");

        assertThat(view.modification().system()).isEqualTo("ERP");
        assertThat(view.system()).isEqualTo("system ERP: named by x-sap-webdisp-target-sid");
        assertThat(view.server()).isEqualTo("erp1");
    }
}
