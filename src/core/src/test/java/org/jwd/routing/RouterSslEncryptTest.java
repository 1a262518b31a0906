package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jwd.affinity.LearnedRoutes;
import org.jwd.limits.ConnectionSlots;
import org.jwd.sessiontable.SessionTables;
import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Topology;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;

/** {@code wdisp/ssl_encrypt}: which group and which URL of its server a request goes to. */
class RouterSslEncryptTest {
    private static Router router(String sslEncrypt) throws Exception {
        DispatcherConfig config = ConfigReader.parse("""
                server.plain.url=http://10.0.0.1:8000
                server.plain.type=j2ee
                server.secure.url=http://10.0.0.2:8000
                server.secure.https_url=https://10.0.0.2:8443
                server.secure.type=j2ee
                server.abap.url=http://10.0.0.3:8000
                server.abap.https_url=https://abap.example:44300
                server.abap.type=abap
                icf.url_prefixes=/sap/
                """ + sslEncrypt, "test.properties");
        return new Router(config, Topology.of(config), () -> UrlMappingTable.parse(config.urlMapping().urlPrefixes()),
                SessionTables.create(config), new LearnedRoutes(), ConnectionSlots.NONE);
    }

    private static RoutingDecision route(Router router, String path, boolean clientSecure) {
        return router.route(RoutingRequest.of("GET", path, "a=1", List.of(), clientSecure));
    }

    @Test
    void sslEncrypt0ForwardsPlainHttpEvenWhatCameOverTls() throws Exception {
        Router router = router("wdisp/ssl_encrypt=0");
        for (int i = 0; i < 4; i++) {
            RoutingDecision decision = route(router, "/irj/x", true);
            assertThat(decision.group().name()).isEqualTo("!J2EE");
            assertThat(decision.target()).startsWith("http://");
        }
    }

    @Test
    void sslEncrypt1ForwardsEverythingToTheHttpsUrlsOfTheSGroups() throws Exception {
        Router router = router("wdisp/ssl_encrypt=1");

        for (int i = 0; i < 4; i++) {
            RoutingDecision j2ee = route(router, "/irj/x", false);
            assertThat(j2ee.group().name()).isEqualTo("!J2EES");
            assertThat(j2ee.target()).isEqualTo("https://10.0.0.2:8443/irj/x?a=1");
        }
        RoutingDecision abap = route(router, "/sap/bc/gui/x", false);
        assertThat(abap.group().name()).isEqualTo("!DIAGS");
        assertThat(abap.target()).isEqualTo("https://abap.example:44300/sap/bc/gui/x?a=1");
    }

    @Test
    void sslEncrypt2ForwardsOverTheProtocolTheClientUsed() throws Exception {
        Router router = router("wdisp/ssl_encrypt=2");

        RoutingDecision secure = route(router, "/irj/x", true);
        assertThat(secure.group().name()).isEqualTo("!J2EES");
        assertThat(secure.target()).isEqualTo("https://10.0.0.2:8443/irj/x?a=1");
        RoutingDecision plain = route(router, "/sap/bc/gui/x", false);
        assertThat(plain.group().name()).isEqualTo("!DIAG");
        assertThat(plain.target()).isEqualTo("http://10.0.0.3:8000/sap/bc/gui/x?a=1");
    }

    /** Explain walks route's own pipeline: under ssl_encrypt it names the S group and the https_url, as route does. */
    @Test
    void explainNamesTheGroupAndUrlARealRequestGoesTo() throws Exception {
        Router router = router("wdisp/ssl_encrypt=1");

        Explanation e = router.explain(RoutingRequest.of("GET", "/irj/x", "a=1", List.of(), false));

        assertThat(e.group().name()).isEqualTo("!J2EES");
        assertThat(e.target()).isEqualTo("https://10.0.0.2:8443/irj/x?a=1");
        Router overTheClientsProtocol = router("wdisp/ssl_encrypt=2");
        assertThat(overTheClientsProtocol.explain(RoutingRequest.of("GET", "/irj/x", null, List.of(), true)).target())
                .isEqualTo("https://10.0.0.2:8443/irj/x");
        assertThat(overTheClientsProtocol.explain(RoutingRequest.of("GET", "/irj/x", null, List.of(), false)).target())
                .startsWith("http://");
    }
}
