package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.jwd.affinity.LearnedRoutes;
import org.jwd.affinity.SessionAffinity;
import org.jwd.affinity.SessionCookies;
import org.jwd.affinity.SessionIdentifiers;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.limits.ConnectionSlots;
import org.jwd.runtime.ConfigReader;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTableStats;
import org.jwd.sessiontable.SessionTimeouts;
import org.jwd.sessiontable.SessionTables;
import org.jwd.topology.Server;
import org.jwd.topology.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the webapp asks of a Router besides {@link Router#route(RoutingRequest)}: a retry of a request a server
 * dropped, the admin's session lookup ({@link Router#locate}), and the configuration and session table it routes by.
 */
class RouterTest {
    /** J2EE servers a (logon group PORTAL) and b; one ABAP server c, alone in !DIAG. */
    private final DispatcherConfig config = ConfigReader.parse("""
            server.a.url=http://127.0.0.1:9001
            server.a.type=j2ee
            server.a.logon_groups=PORTAL
            server.b.url=http://127.0.0.1:9002
            server.b.type=j2ee
            server.c.url=http://127.0.0.1:9003
            server.c.type=abap
            icf.url_prefixes=/sap/
            logon_group.PORTAL.url_prefixes=/irj/portal/
            SessionTableTimeout=60s
            """, "test.properties");
    private final Topology topology = Topology.of(config);
    private final SessionTable sessionTable = SessionTables.create(config);
    private final Router router = new Router(config, topology,
            () -> UrlMappingTable.parse(config.urlMapping().urlPrefixes()), sessionTable, new LearnedRoutes(),
            ConnectionSlots.NONE);

    RouterTest() throws ConfigException {
    }

    @AfterEach
    void close() {
        sessionTable.close();
    }

    private static RoutingRequest get(String path, String... cookies) {
        return RoutingRequest.of("GET", path, null, List.of(cookies), false);
    }

    private Server server(String id) {
        return topology.server(id);
    }

    @Test
    void theRouterRoutesByTheConfigurationAndTheSessionTableItWasGiven() {
        assertThat(router.config()).isSameAs(config);
        assertThat(router.sessionTable()).isSameAs(sessionTable);
    }

    @Test
    void aRetryAvoidsTheServerThatDroppedTheRequestAndASessionBoundThereMovesWithIt() {
        sessionTable.bind("s1", "a");
        List<String> routes = new ArrayList<>();

        routes.add(router.route(get("/nwa/x", "JSESSIONID=s1")).describe());
        routes.add(router.route(get("/nwa/x", "JSESSIONID=s1"), server("a")).describe());
        routes.add(router.route(get("/nwa/x", "JSESSIONID=s1")).describe());

        assertThat(routes).containsExactly(
                "group=!J2EE; server=a; reason=session table",
                "group=!J2EE; server=b; reason=session table rebind from a",
                "group=!J2EE; server=b; reason=session table");
        assertThat(router.sessionTable().peek("s1")).isEqualTo("b");
    }

    @Test
    void retriesOfAStatelessRequestAllGoToTheOtherMember() {
        List<String> servers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            servers.add(router.route(get("/nwa/x"), server("a")).server().id());
        }

        assertThat(servers).containsExactly("b", "b", "b", "b");
    }

    /** The retry's 503 never reaches the client (the webapp answers the first failure then), but it must be one. */
    @Test
    void aRetryInAGroupWithoutAnotherMemberIsA503NamingTheGroup() {
        RoutingDecision retry = router.route(get("/sap/bc/x"), server("c"));

        assertThat(retry.isRejected()).isTrue();
        assertThat(retry.errorStatus()).isEqualTo(503);
        assertThat(retry.errorMessage()).isEqualTo("jwd: no server of group !DIAG can take the request (every"
                + " member is down, drained or disabled)");
        assertThat(retry.describe()).isEqualTo("group=!DIAG; server=-; reason=balanced");
        assertThat(retry.server()).isNull();
        assertThat(retry.target()).isNull();
        assertThat(server("c").inFlight()).isZero();
    }

    @Test
    void locateFindsTheServerASessionTableEntryPlacesAJsessionidOnAndChangesNothing() {
        sessionTable.bind("s1", "b");
        SessionTableStats before = sessionTable.stats();

        SessionAffinity.Choice bound = router.locate(SessionCookies.parse("JSESSIONID=s1"));
        SessionAffinity.Choice unknown = router.locate(SessionCookies.parse("JSESSIONID=s9"));

        assertThat(bound.server()).isSameAs(server("b"));
        assertThat(bound.reason()).isEqualTo("session table");
        assertThat(unknown).isNull();
        assertThat(sessionTable.stats()).isEqualTo(before);
        assertThat(sessionTable.peek(SessionTimeouts.temporaryKey("s9"))).isNull();
        assertThat(server("b").inFlight()).isZero();
    }

    /** A saplb_<group> cookie is read as if the URL were its logon group's: no other URL reads it. */
    @Test
    void locateReadsAPastedSaplbCookieOfALogonGroupAsThatGroupsRequestWould() {
        SessionAffinity.Choice choice = router.locate(SessionCookies.parse("saplb_PORTAL=(J2EE)a"));

        assertThat(choice.server()).isSameAs(server("a"));
        assertThat(choice.reason()).isEqualTo("saplb cookie");
        assertThat(router.route(get("/nwa/x", "saplb_PORTAL=(J2EE)a")).reason()).isEqualTo("balanced");
    }

    @Test
    void locateWithoutAnyIdentifierFindsNothing() {
        assertThat(router.locate(SessionIdentifiers.NONE)).isNull();
    }
}
