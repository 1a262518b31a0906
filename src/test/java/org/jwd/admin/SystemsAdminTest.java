package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;

import org.jwd.boot.Bootstrap;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The administration with several systems: explain names the request's system and why, and routes with that
 * system's router (no system: 404 naming why); each server names its system.
 */
class SystemsAdminTest {
    private Bootstrap boot;
    private AdminApi api;

    @BeforeEach
    void start() throws Exception {
        boot = Bootstrap.build(ConfigReader.parse("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_1=SID=PRT, SRCSRV=*:8081
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                system.PRT.server.prt1.url=http://127.0.0.1:9002
                system.PRT.server.prt1.type=j2ee
                health.interval=1h
                jwd.config_watch=0
                """, "test.properties"), null);
        api = new AdminApi(boot.adminContext(), new RequestHistory(10, 5000, () -> 0L), () -> 0L);
    }

    @AfterEach
    void close() {
        boot.close();
    }

    @Test
    void aPathIsExplainedInTheSystemItsPrefixSelects() {
        AdminApi.Answer answer = api.explain("/sap/bc/x", List.of(), "127.0.0.1", 8080);

        assertThat(answer.status()).isEqualTo(200);
        ExplainView view = (ExplainView) answer.body();
        assertThat(view.system()).isEqualTo("system ERP: SRCURL /sap/ matched");
        assertThat(view.server()).isEqualTo("erp1");
    }

    @Test
    void aFullUrlsPortSelectsItsAccessPoint() {
        ExplainView view = (ExplainView) api.explain("http://jwd.example:8081/irj/x", List.of(), "127.0.0.1", 8080)
                .body();

        assertThat(view.system()).isEqualTo("system PRT: SRCSRV *:8081 matched");
        assertThat(view.server()).isEqualTo("prt1");
    }

    @Test
    void eachServerNamesItsSystem() {
        assertThat(api.servers()).extracting(ServerView::id, ServerView::system)
                .containsExactlyInAnyOrder(tuple("erp1", "ERP"), tuple("prt1", "PRT"));
    }

    @Test
    void aUrlNoSystemTakesIsAnswered404NamingHostPortAndPath() {
        AdminApi.Answer answer = api.explain("http://jwd.example:8080/irj/x", List.of(), "127.0.0.1", 8080);

        assertThat(answer.status()).isEqualTo(404);
        assertThat(String.valueOf(answer.body())).contains("no system for host 'jwd.example:8080', port 8080, path"
                + " '/irj/x'");
    }
}
