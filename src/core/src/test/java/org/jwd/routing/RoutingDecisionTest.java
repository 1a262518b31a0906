package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jwd.affinity.IdentifierSource;
import org.jwd.affinity.LearnedRoutes;
import org.jwd.affinity.TableOutcome;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.limits.ConnectionSlots;
import org.jwd.runtime.ConfigReader;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTables;
import org.jwd.topology.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the webapp reads of a decision: the {@code X-Jwd-Route} header ({@link RoutingDecision#describe()}), and for
 * the access log and the trace the identifier that placed the request, its kind and what the session table did.
 */
class RoutingDecisionTest {
    /** J2EE servers a (logon group PORTAL) and b. */
    private final DispatcherConfig config = ConfigReader.parse("""
            server.a.url=http://127.0.0.1:9001
            server.a.type=j2ee
            server.a.logon_groups=PORTAL
            server.b.url=http://127.0.0.1:9002
            server.b.type=j2ee
            logon_group.PORTAL.url_prefixes=/irj/portal/
            SessionTableTimeout=60s
            """, "test.properties");
    private final SessionTable sessionTable = SessionTables.create(config);
    private final Router router = new Router(config, Topology.of(config),
            () -> UrlMappingTable.parse(config.urlMapping().urlPrefixes()), sessionTable, new LearnedRoutes(),
            ConnectionSlots.NONE);

    RoutingDecisionTest() throws ConfigException {
    }

    @AfterEach
    void close() {
        sessionTable.close();
    }

    private RoutingDecision route(String path, String... cookies) {
        return router.route(RoutingRequest.of("GET", path, "a=1", List.of(cookies), false));
    }

    @Test
    void theRouteHeaderNamesTheGroupTheServerAndTheReason() {
        sessionTable.bind("s1", "b");

        RoutingDecision decision = route("/nwa/x", "JSESSIONID=s1");

        assertThat(decision.describe()).isEqualTo("group=!J2EE; server=b; reason=session table");
        assertThat(decision.target()).isEqualTo("http://127.0.0.1:9002/nwa/x?a=1");
    }

    @Test
    void theRouteHeaderOfARefusalWithoutAGroupNamesNeitherGroupNorServer() {
        RoutingDecision decision = route("/nwa./x");

        assertThat(decision.errorStatus()).isEqualTo(400);
        assertThat(decision.describe()).isEqualTo("group=-; server=-; reason=bad path");
    }

    @Test
    void aDecisionNamesTheIdentifierThatPlacedTheRequestItsKindAndWhatTheSessionTableDid() {
        RoutingDecision first = route("/nwa/x", "JSESSIONID=s2");
        RoutingDecision second = route("/nwa/x", "JSESSIONID=s2");
        RoutingDecision cookie = route("/irj/portal/x", "saplb_PORTAL=(J2EE)a");

        assertThat(first.identifier()).isEqualTo("s2");
        assertThat(first.source()).isEqualTo(IdentifierSource.JSESSIONID);
        assertThat(first.table()).isEqualTo(TableOutcome.BIND);
        assertThat(second.identifier()).isEqualTo("s2");
        assertThat(second.table()).isEqualTo(TableOutcome.HIT);
        assertThat(cookie.identifier()).isEqualTo("(J2EE)a");
        assertThat(cookie.source()).isEqualTo(IdentifierSource.SAPLB);
        assertThat(cookie.table()).isNull();
    }

    @Test
    void aBalancedDecisionNamesNoIdentifierAndNoTableOutcome() {
        RoutingDecision balanced = route("/nwa/x");

        assertThat(balanced.reason()).isEqualTo("balanced");
        assertThat(balanced.identifier()).isNull();
        assertThat(balanced.source()).isNull();
        assertThat(balanced.table()).isNull();
    }
}
