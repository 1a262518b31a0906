package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jwd.runtime.Bootstrap;
import org.jwd.runtime.ConfigReader;
import org.jwd.sessiontable.SessionTimeouts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The session identifiers of SAP's documents, in their URL forms and with the server names inside them, routed by
 * the real router: each row names the document its URL comes from. The request is forwarded with its path as sent.
 */
class RouterUrlIdentifiersTest {
    /**
     * a1, a2: ABAP servers (host_A1_00, vgmvgma1_VGM_00); j1: a J2EE server standing for instance J2EE3264100 (its
     * lb_id the cookie of one of its nodes), in logon group PORTAL; j2: a J2EE server whose SAP name is
     * ls3022_BIN_12, instance J2EE6906720.
     */
    private static final String LANDSCAPE = """
            server.a1.url=http://abap1:8000
            server.a1.type=abap
            server.a1.name=host_A1_00
            server.a2.url=http://abap2:8000
            server.a2.type=abap
            server.a2.name=vgmvgma1_VGM_00
            server.j1.url=http://java1:50000
            server.j1.type=j2ee
            server.j1.lb_id=(J2EE3264100)3264150
            server.j1.logon_groups=PORTAL
            server.j2.url=http://java2:50000
            server.j2.type=j2ee
            server.j2.name=ls3022_BIN_12
            server.j2.instance_id=J2EE6906720
            icf.url_prefixes=/sap/
            logon_group.PORTAL.url_prefixes=/irj
            health.interval=1h
            """;

    private Bootstrap boot;
    private Router router;

    @BeforeEach
    void start() throws Exception {
        boot = Bootstrap.build(ConfigReader.parse(LANDSCAPE, "test.properties"), null);
        router = boot.dispatcher().state().router();
        boot.dispatcher().sessionTable().bind(SessionTimeouts.esidKey("MTIzNDU2Nzg5MA=="), "a2");
    }

    @AfterEach
    void close() {
        boot.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # SAP Library, BSP "Session Handling without Cookies": the session id in brackets after the namespace
            BSP session id in the mangled segment                  | /sap(cz1TSUQlM2FBTk9OJTNhdmdtdmdtYTFfVkdNXzAwJTNhVzdkREExSnlPa29GeEZqVzJrZFNXdTB2b2R4M2Z1M0RwOFRsamJHNS1BVFQ=)/bc/gui/sap/its/webgui | - | a2 sap-contextid
            # BSP In-Depth: URL Mangling: client and language only (l=en&c=001), an ABAP URL all the same
            BSP mangled segment without a session                  | /sap(bD1lbiZjPTAwMQ==)/bc/bsp/sap/it00/default.htm | - | a* balanced
            # SAP Library, "External Session Identifier": /sap/;sap-ext-sid=<external session identifier>/foo/bar
            ESID as a path parameter of an empty segment           | /sap/;sap-ext-sid=MTIzNDU2Nzg5MA==/foo/bar | - | a2 session table (sap-ext-sid)
            ESID on any segment                                    | /sap/foo;sap-ext-sid=MTIzNDU2Nzg5MA==/bar  | - | a2 session table (sap-ext-sid)
            # SAP Library, "J2EE Session Identifier": <uri-path-segment>;jsessionid=<sap-j2ee-sid>, (ls3022_BIN_12)ID...End
            JSESSIONID naming its server, in the URL               | /irj/x;jsessionid=(ls3022_BIN_12)ID47500DB0.5138181876605873End/y | - | j2 JSESSIONID server name
            JSESSIONID naming its server, as a cookie              | /irj/x | JSESSIONID=(ls3022_BIN_12)ID47500DB0.5138181876605873End | j2 JSESSIONID server name
            # SAP Library, "Load Balancing Identifier": saplb_<group_id>=(<instance_id>)[<node_id>], also via URL rewriting
            saplb of the URL's logon group, by the instance        | /irj/x;saplb_PORTAL=(J2EE3264100)3264151/y | - | j1 saplb cookie
            saplb_* in the URL next to the J2EE session id         | /b2c/init.do;jsessionid=(J2EE6906720)ID0269691750DB2fe6End;saplb_*=(J2EE6906720)6906750 | - | j2 saplb cookie
            saplb_* as a cookie, by the whole value                | /nwa/x | saplb_*=(J2EE3264100)3264150 | j1 saplb cookie
            saplb_<G> of another group is not read                 | /nwa/x | saplb_PORTAL=(J2EE6906720)1; saplb_*=(J2EE3264100)2 | j1 saplb cookie
            """)
    void routesByTheIdentifierAndForwardsThePathAsSent(String document, String path, String cookie, String expected) {
        RoutingDecision decision = router.route(RoutingRequest.of("GET", path, null,
                cookie == null ? List.of() : List.of(cookie), false));

        // "a* balanced": balanced among the ABAP servers, whichever the balancer's turn is
        String server = expected.startsWith("a* ") && decision.server().id().startsWith("a") ? "a*"
                : decision.server().id();
        assertThat(server + " " + decision.reason()).as(document).isEqualTo(expected);
        assertThat(decision.target()).endsWith(path);
        decision.finish(false);
    }
}
