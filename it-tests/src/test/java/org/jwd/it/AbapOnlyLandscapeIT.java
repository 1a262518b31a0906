package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;

import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlPage;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A landscape of ABAP servers only, as many SAP users run: a root URL is typed J2EE by
 * {@code is/HTTP/default_root_hdl}'s default, no J2EE server is active, so it goes to {@code !ALL}, and a browser
 * with cookies keeps its {@code sap-contextid} session on its server there (SAP: "If it is a stateful connection,
 * the system selects the SAP Web AS that is processing the transaction").
 */
class AbapOnlyLandscapeIT {
    private static DemoBackend abap1;
    private static DemoBackend abap2;
    private static JwdProcess jwd;

    @BeforeAll
    static void start() {
        abap1 = DemoBackend.start(DemoBackend.Options.abap("abap1").withName("h1_ERP_00"));
        abap2 = DemoBackend.start(DemoBackend.Options.abap("abap2").withName("h2_ERP_01"));
        jwd = JwdProcess.start("""
                server.abap1.url=%s
                server.abap1.type=abap
                server.abap1.name=h1_ERP_00
                server.abap2.url=%s
                server.abap2.type=abap
                server.abap2.name=h2_ERP_01
                icf.url_prefixes=/sap/
                health.interval=1h
                """.formatted(abap1.url(), abap2.url()));
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        for (DemoBackend backend : new DemoBackend[] {abap1, abap2}) {
            if (backend != null) {
                backend.close();
            }
        }
    }

    @Test
    void aBrowserKeepsItsSapContextidSessionOnRootUrls() throws Exception {
        Set<String> firstServers = new HashSet<>();
        for (int browser = 0; browser < 4; browser++) {
            try (WebClient client = new WebClient()) {
                client.getOptions().setJavaScriptEnabled(false);
                client.getOptions().setCssEnabled(false);
                client.getOptions().setThrowExceptionOnFailingStatusCode(true);
                HtmlPage first = client.getPage(jwd.uri("/").toURL());
                String server = first.getHtmlElementById("server").getTextContent();
                String session = first.getHtmlElementById("session").getTextContent();
                firstServers.add(server);
                for (int hit = 2; hit <= 8; hit++) {
                    String path = hit % 2 == 0 ? "/" : "/index.html";
                    HtmlPage page = client.getPage(jwd.uri(path).toURL());
                    assertThat(page.getHtmlElementById("server").getTextContent()).as("browser %d, hit %d", browser, hit)
                            .isEqualTo(server);
                    assertThat(page.getHtmlElementById("session").getTextContent()).isEqualTo(session);
                    assertThat(page.getHtmlElementById("hits").getTextContent()).isEqualTo(String.valueOf(hit));
                }
            }
        }
        // stateless first requests are balanced over !ALL
        assertThat(firstServers).containsExactlyInAnyOrder("abap1", "abap2");
    }
}
