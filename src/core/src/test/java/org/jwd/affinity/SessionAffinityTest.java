package org.jwd.affinity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.config.ServerType;
import org.jwd.topology.Topology;
import org.jwd.routing.LogCapture;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.jwd.sessiontable.SessionTimeouts;
import org.jwd.sessiontable.SessionTables;
import org.jwd.sessiontable.SessionTable;

/**
 * SAP's order of stateful dispatching, one row per combination of identifiers: where each lands, inside and outside
 * the URL's group, with its server up, down, drained or disabled. The balancer here is "the first member that takes
 * new requests", so a balanced request's server is known; the session table is the real one on a clock moved by hand.
 */
class SessionAffinityTest {
    /**
     * j1: J2EE with HTTPS, logon group PORTAL, route n1; j2: J2EE, route n2, SAP name java2_JWD_01, instance
     * J2EE3264100 (no group, no HTTPS);
     * a1: ABAP with HTTPS (host_A1_00); a2: ABAP (host_A2_00).
     */
    private static final String LANDSCAPE = """
            server.j1.url = http://java1:50000
            server.j1.https_url = https://java1:50001
            server.j1.type = j2ee
            server.j1.logon_groups = PORTAL
            server.j1.route = n1
            server.j2.url = http://java2:50000
            server.j2.type = j2ee
            server.j2.route = n2
            server.j2.name = java2_JWD_01
            server.j2.instance_id = J2EE3264100
            server.a1.url = http://abap1:8000
            server.a1.https_url = https://abap1:44300
            server.a1.type = abap
            server.a1.name = host_A1_00
            server.a2.url = http://abap2:8000
            server.a2.type = abap
            server.a2.name = host_A2_00
            logon_group.PORTAL.url_prefixes = /irj
            """;

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private SessionTable table;
    private Topology topology;
    private SessionAffinity affinity;
    /** Live effects on the real table; the "balancer" takes the first member that takes new requests. */
    private RoutingEffects live;
    private final LearnedRoutes learnedRoutes = new LearnedRoutes();

    private DispatcherConfig config;
    /** what {@link #assertPlaced} chose last */
    private SessionAffinity.Choice lastChoice;

    private void landscape(String extra) throws ConfigException {
        config = ConfigReader.parse(LANDSCAPE + extra, "test");
        topology = Topology.of(config);
        table = SessionTables.create(config, clock::get);
        affinity = new SessionAffinity(config, topology, learnedRoutes, new FullTableWarning(clock::get));
        live = RoutingEffects.live(table,
                group -> group.members().stream().filter(Server::takesNewRequests).findFirst().orElse(null));
    }

    @AfterEach
    void close() {
        if (table != null) {
            table.close();
        }
    }

    private ServerGroup group(String name, boolean secure) {
        return switch (name) {
            case "-" -> null;
            case "PORTAL" -> topology.logonGroup("PORTAL", ServerType.J2EE, secure);
            case "!ALL" -> secure ? topology.secureAll() : topology.internalGroup(ServerGroup.ALL);
            default -> topology.internalGroup(name);
        };
    }

    /**
     * @param type    the request's stack: j2ee, abap, or any (the {@code !ALL} case)
     * @param group   the URL's group, {@code -} when it has no server for the request; {@code !J2EE@PORTAL}: the
     *                group of a URL of logon group PORTAL, which had no active member
     * @param cookies the request's Cookie header
     * @param states  servers not up: {@code j1=DOWN a2=DRAINED}
     * @param bound   table entries before: {@code x=j2 sap-ext-sid:e=a2}
     * @param expect  {@code server reason}, or {@code none}
     * @param after   table entries after (peeked), or empty
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "", textBlock = """
            # J2EE: saplb_* first; a valid one wins over the URL's group
            saplb names a server outside the group     | j2ee | PORTAL | saplb_*=(J2EE)j2                      |            |              | j2 saplb cookie                      |
            saplb names a logon group member elsewhere | j2ee | !J2EE  | saplb_*=(J2EE)j1                      |            |              | j1 saplb cookie                      |
            saplb of a down server is ignored          | j2ee | !J2EE  | saplb_*=(J2EE)j1                      | j1=DOWN    |              | j2 balanced                          |
            saplb of a drained server holds            | j2ee | !J2EE  | saplb_*=(J2EE)j1                      | j1=DRAINED |              | j1 saplb cookie                      |
            saplb of a disabled server is ignored      | j2ee | !J2EE  | saplb_*=(J2EE)j1                      | j1=DISABLED|              | j2 balanced                          |
            saplb_<G> names a member of G              | j2ee | PORTAL | saplb_PORTAL=(J2EE)j1                 |            |              | j1 saplb cookie                      |
            saplb_<G> of a non-member is ignored       | j2ee | PORTAL | saplb_PORTAL=(J2EE)j2                 |            |              | j1 balanced                          |
            # the cookie of the URL's logon group, else saplb_* (SAP Library, "Load Balancing Identifier")
            the URL's group's cookie before saplb_*    | j2ee | PORTAL | saplb_*=(J2EE)j2; saplb_PORTAL=(J2EE)j1 |          |              | j1 saplb cookie                      |
            saplb_<G> is not read for another URL      | j2ee | !J2EE  | saplb_PORTAL=(J2EE)j1; JSESSIONID=abc.n2 |         |              | j2 route suffix                      |
            saplb_<G> of a URL whose group fell back   | j2ee | !J2EE@PORTAL | saplb_PORTAL=(J2EE)j1          | j1=DRAINED |              | j1 saplb cookie                      |
            saplb_<G> invalid: no fallback to saplb_*  | j2ee | PORTAL | saplb_PORTAL=(J2EE)j9; saplb_*=(J2EE)j2 |          |              | j1 balanced                          |
            saplb by its instance, whatever the node   | j2ee | !J2EE  | saplb_*=(j1)n7                        |            |              | j1 saplb cookie                      |
            saplb by an instance_id configured         | j2ee | !J2EE  | saplb_*=(J2EE3264100)3264150          |            |              | j2 saplb cookie                      |
            # then the JSESSIONID: the server it names (SAP Library, "J2EE Session Identifier": (<sap-server-name>)<internal-id>End)
            JSESSIONID naming its server               | j2ee | PORTAL | JSESSIONID=(java2_JWD_01)ID47500DB0.5138181876605873End | | | j2 JSESSIONID server name |
            JSESSIONID naming a down server            | j2ee | PORTAL | JSESSIONID=(java2_JWD_01)ID47500DB0.5138181876605873End | j2=DOWN | | j1 balanced         |
            JSESSIONID naming an ABAP server           | j2ee | PORTAL | JSESSIONID=(host_A2_00)ID1DB0.5End    |            |              | j1 balanced                          |
            saplb beats the server name                | j2ee | !J2EE  | saplb_*=(J2EE)j1; JSESSIONID=(java2_JWD_01)ID1DB0.5End | | | j1 saplb cookie                      |
            saplb naming an ABAP server is ignored     | j2ee | !J2EE  | saplb_*=(J2EE)a1                      | j1=DOWN    |              | j2 balanced                          |
            saplb beats the route suffix               | j2ee | !J2EE  | saplb_*=(J2EE)j2; JSESSIONID=abc.n1   |            |              | j2 saplb cookie                      |
            saplb refreshes the table entry            | j2ee | !J2EE  | saplb_*=(J2EE)j2; JSESSIONID=x        |            | x=j1         | j2 saplb cookie                      | x=j1
            # then the JSESSIONID: its route suffix, then the table
            route suffix outside the group             | j2ee | PORTAL | JSESSIONID=abc.n2               |            |              | j2 route suffix                      |
            route suffix of a down server is ignored   | j2ee | PORTAL | JSESSIONID=abc.n2               | j2=DOWN    |              | j1 balanced                          |
            route suffix beats the table               | j2ee | !J2EE  | JSESSIONID=abc.n1               |            | abc.n1=j2    | j1 route suffix                      | abc.n1=j2
            table entry outside the group              | j2ee | PORTAL | JSESSIONID=x                    |            | x=j2         | j2 session table                     | x=j2
            table entry of a drained server holds      | j2ee | PORTAL | JSESSIONID=x                    | j2=DRAINED | x=j2         | j2 session table                     | x=j2
            table entry of a down server is rebound   | j2ee | PORTAL | JSESSIONID=x                    | j2=DOWN    | x=j2         | j1 session table rebind from j2      | x=j1
            table entry naming an ABAP server: rebound | j2ee | PORTAL | JSESSIONID=x                    |            | x=a1         | j1 session table rebind from a1      | x=j1
            unknown JSESSIONID: balanced, not bound    | j2ee | PORTAL | JSESSIONID=y                    |            |              | j1 balanced                          |
            # ABAP: the ESID through the table first, then sap-contextid
            ESID beats sap-contextid                   | abap | !DIAG  | sap-ext-sid=e; sap-contextid=SID%3AANON%3Ahost_A1_00%3A1-NEW | | sap-ext-sid:e=a2 | a2 session table (sap-ext-sid) | sap-ext-sid:e=a2
            ESID of a drained server holds             | abap | !DIAG  | sap-ext-sid=e                   | a2=DRAINED | sap-ext-sid:e=a2 | a2 session table (sap-ext-sid) |
            ESID of a down server: contextid, rebound  | abap | !DIAG  | sap-ext-sid=e; sap-contextid=SID%3AANON%3Ahost_A1_00%3A1-NEW | a2=DOWN | sap-ext-sid:e=a2 | a1 sap-contextid | sap-ext-sid:e=a1
            unknown ESID joins sap-contextid's server  | abap | !DIAG  | sap-ext-sid=e; sap-contextid=SID%3AANON%3Ahost_A2_00%3A1-NEW | |  | a2 sap-contextid                     | sap-ext-sid:e=a2
            unknown ESID: balanced and bound           | abap | !DIAG  | sap-ext-sid=e                   |            |              | a1 session table bind                | sap-ext-sid:e=a1
            ESID of a down server: rebound             | abap | !DIAG  | sap-ext-sid=e                   | a2=DOWN    | sap-ext-sid:e=a2 | a1 session table rebind from a2  | sap-ext-sid:e=a1
            sap-contextid of a down server is ignored  | abap | !DIAG  | sap-contextid=SID%3AANON%3Ahost_A2_00%3A1-NEW | a2=DOWN |    | a1 balanced                          |
            ABAP requests ignore saplb                 | abap | !DIAG  | saplb_*=(J2EE)j1                      |            |              | a1 balanced                          |
            J2EE requests ignore sap-contextid         | j2ee | !J2EE  | sap-contextid=SID%3AANON%3Ahost_A2_00%3A1-NEW |  |        | j1 balanced                          |
            # no active J2EE server: !ALL, identifiers of both stacks
            !ALL follows sap-contextid                 | any  | !ALL   | sap-contextid=SID%3AANON%3Ahost_A2_00%3A1-NEW | j1=DOWN j2=DOWN | | a2 sap-contextid              |
            !ALL follows an ESID                       | any  | !ALL   | sap-ext-sid=e                   | j1=DOWN j2=DOWN | sap-ext-sid:e=a2 | a2 session table (sap-ext-sid) |
            !ALL balances the rest                     | any  | !ALL   | JSESSIONID=y                    | j1=DOWN j2=DOWN |         | a1 balanced                          |
            # the URL's group has no server: only a session places the request
            no group: a drained server's saplb holds   | j2ee | -      | saplb_*=(J2EE)j1                      | j1=DRAINED j2=DRAINED | | j1 saplb cookie                   |
            no group: a drained server's entry holds   | j2ee | -      | JSESSIONID=x                    | j1=DRAINED j2=DRAINED | x=j2 | j2 session table              | x=j2
            no group and no valid identifier           | j2ee | -      | saplb_*=(J2EE)j1                      | j1=DOWN    |              | none                                 |
            """)
    void placesEachCombinationOfIdentifiersAsSapDoes(String name, String type, String group, String cookies,
                                                      String states, String bound, String expect, String after)
            throws ConfigException {
        landscape("");
        assertPlaced(type, group, false, cookies, states, bound, expect, after);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "", textBlock = """
            saplb of a server without https_url is ignored | j2ee | !J2EES | saplb_*=(J2EE)j2        |  |      | j1 balanced         |
            route suffix needs an https_url too            | j2ee | !J2EES | JSESSIONID=abc.n2 |  |      | j1 balanced         |
            table entry without https_url is rebound       | j2ee | !J2EES | JSESSIONID=x      |  | x=j2 | j1 session table rebind from j2 | x=j1
            sap-contextid of an https server holds         | abap | !DIAGS | sap-contextid=SID%3AANON%3Ahost_A1_00%3A1-NEW | | | a1 sap-contextid |
            """)
    void overHttpsOnlyServersWithAnHttpsUrlCount(String name, String type, String group, String cookies,
                                                  String states, String bound, String expect, String after)
            throws ConfigException {
        landscape("");
        assertPlaced(type, group, true, cookies, states, bound, expect, after);
    }

    /** j3 and j4: J2EE servers configured with nothing but url and type, as Tomcats behind jwd are. */
    private static final String UNROUTED = """
            server.j3.url = http://java3:50000
            server.j3.type = j2ee
            server.j4.url = http://java4:50000
            server.j4.type = j2ee
            """;

    /**
     * @param learned JSESSIONIDs the servers set, in this order: {@code j3:a.t3 j4:b.t4}
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "", textBlock = """
            learned route suffix                         | !J2EE  | j3:a.t3               | JSESSIONID=b.t3 |            |         | j3 route suffix (learned)
            learned route suffix outside the group       | PORTAL | j3:a.t3               | JSESSIONID=b.t3 |            |         | j3 route suffix (learned)
            learned route of a down server is ignored    | PORTAL | j3:a.t3               | JSESSIONID=b.t3 | j3=DOWN    |         | j1 balanced
            learned route of a drained server holds      | PORTAL | j3:a.t3               | JSESSIONID=b.t3 | j3=DRAINED |         | j3 route suffix (learned)
            configured route beats a learned one         | !J2EE  | j3:a.n2               | JSESSIONID=b.n2 |            |         | j2 route suffix
            another's configured route is never learned  | !J2EE  | j3:a.n2               | JSESSIONID=b.n2 | j2=DOWN    |         | j1 balanced
            a configured route is not relearned          | !J2EE  | j1:a.zz               | JSESSIONID=b.zz | j1=DRAINED |         | j2 balanced
            the last suffix a server set is its route    | !J2EE  | j3:a.t3 j3:b.t5       | JSESSIONID=c.t5 |            |         | j3 route suffix (learned)
            a suffix the server left names nobody        | !J2EE  | j3:a.t3 j3:b.t5       | JSESSIONID=c.t3 | j1=DRAINED |         | j2 balanced
            a suffix two servers claim names neither     | !J2EE  | j3:a.tc j4:b.tc       | JSESSIONID=c.tc | j1=DRAINED |         | j2 balanced
            then the session table decides              | !J2EE  | j3:a.tc j4:b.tc       | JSESSIONID=c.tc |            | c.tc=j4 | j4 session table
            the refusal stays when one claims it again   | !J2EE  | j3:a.tc j4:b.tc j3:d.tc | JSESSIONID=c.tc | j1=DRAINED |       | j2 balanced
            it ends once a claimant ends its ids anew    | !J2EE  | j3:a.tc j4:b.tc j4:c.t4 j3:d.tc | JSESSIONID=e.tc | |        | j3 route suffix (learned)
            an ABAP server's suffix is not learned       | !J2EE  | a1:a.ab               | JSESSIONID=b.ab | j1=DRAINED |         | j2 balanced
            an id without a suffix teaches nothing       | !J2EE  | j3:abc j3:x. j3:.y    | JSESSIONID=c.y  | j1=DRAINED |         | j2 balanced
            """)
    void placesByTheRouteSuffixesServersTaughtWhenNoneIsConfigured(String name, String group, String learned,
                                                                    String cookies, String states, String bound,
                                                                    String expect) throws ConfigException {
        landscape(UNROUTED);
        for (String l : learned.trim().split("\\s+")) {
            int colon = l.indexOf(':');
            learnedRoutes.learn(topology, topology.server(l.substring(0, colon)), l.substring(colon + 1));
        }
        assertPlaced("j2ee", group, false, cookies, states, bound, expect, null);
    }

    @Test
    void aLearnedRouteNeedsAnHttpsUrlOverHttps() throws ConfigException {
        landscape(UNROUTED);
        learnedRoutes.learn(topology, topology.server("j3"), "a.t3");

        assertPlaced("j2ee", "!J2EES", true, "JSESSIONID=b.t3", null, null, "j1 balanced", null);
    }

    /** A retry after j2 dropped the request without an answer: j2 is valid for nothing, the session moves. */
    @Test
    void aRetryAvoidsTheServerThatDroppedTheRequestAndMovesItsSession() throws ConfigException {
        landscape("");
        table.bind("x", "j2");
        SessionAffinity retry = affinity.avoiding(topology.server("j2"));
        ServerGroup j2ee = topology.internalGroup(ServerGroup.J2EE);
        RoutingEffects pickJ2 = RoutingEffects.live(table, group -> topology.server("j2"));

        assertThat(retry.choose(j2ee, ServerType.J2EE, null, SessionCookies.parse("saplb_*=(J2EE)j2"), false, pickJ2))
                .extracting(c -> c.server().id(), SessionAffinity.Choice::reason).containsExactly("j1", "balanced");
        assertThat(retry.choose(j2ee, ServerType.J2EE, null, SessionCookies.parse("JSESSIONID=x"), false, pickJ2))
                .extracting(c -> c.server().id(), SessionAffinity.Choice::reason)
                .containsExactly("j1", "session table rebind from j2");
        assertThat(table.peek("x")).isEqualTo("j1");
        // an ordinary request still honours j2
        assertThat(affinity.choose(j2ee, ServerType.J2EE, null, SessionCookies.parse("saplb_*=(J2EE)j2"), false, live)
                .server().id()).isEqualTo("j2");
    }

    @Test
    void theTemporaryTableBindsAnUnknownJsessionidAtRequestTime() throws ConfigException {
        landscape("SessionTableTimeout = 10m\n");

        assertPlaced("j2ee", "PORTAL", false, "JSESSIONID=y", null, null, "j1 session table bind",
                "temporary:y=j1");
        // the next request of the session follows the binding, even once the balancer would choose elsewhere
        topology.server("j1").setState(Server.State.DRAINED);
        assertPlaced("j2ee", "!J2EE", false, "JSESSIONID=y", null, null, "j1 session table", "temporary:y=j1");
    }

    /**
     * The Java dispatcher's {@code SessionTableTimeout} is for its temporary table, the JSESSIONIDs bound at request
     * time; a JSESSIONID a server set belongs to SAP's session ID table, whose entries idle-expire after
     * {@code wdisp/HTTP/context_timeout} (1 h by default).
     */
    @Test
    void aJsessionidAServerSetKeepsContextTimeoutWhileOneBoundAtRequestTimeExpiresAfterSessionTableTimeout()
            throws ConfigException {
        landscape("SessionTableTimeout = 10m\n");
        new SessionLearning(config, topology, table, learnedRoutes)
                .learn(topology.server("j2"), java.util.List.of("JSESSIONID=learned; Path=/"));
        assertPlaced("j2ee", "PORTAL", false, "JSESSIONID=unknown", null, null, "j1 session table bind",
                "temporary:unknown=j1");

        clock.addAndGet(Duration.ofMinutes(10).plusSeconds(1).toMillis());
        assertThat(table.peek("temporary:unknown")).as("the request-time binding, idle 10 min").isNull();
        assertPlaced("j2ee", "PORTAL", false, "JSESSIONID=learned", null, null, "j2 session table", "learned=j2");

        clock.addAndGet(Duration.ofMinutes(59).toMillis());
        assertPlaced("j2ee", "PORTAL", false, "JSESSIONID=learned", null, null, "j2 session table", "learned=j2");
        clock.addAndGet(Duration.ofMinutes(60).plusSeconds(1).toMillis());
        assertThat(table.peek("learned")).as("the learned binding, idle past context_timeout").isNull();
    }

    /** SAP: "the session ID table is used" for the identifiers that do not contain the server name. */
    @Test
    void aJsessionidNamingTheServerThatSetItIsNotBound() throws ConfigException {
        landscape("");
        SessionLearning learning = new SessionLearning(config, topology, table, learnedRoutes);

        learning.learn(topology.server("j2"), java.util.List.of(
                "JSESSIONID=(java2_JWD_01)ID47500DB0.5138181876605873End; Path=/"));
        learning.learn(topology.server("j1"), java.util.List.of(
                "JSESSIONID=(java2_JWD_01)ID1DB0.7End; Path=/"));

        assertThat(table.peek("(java2_JWD_01)ID47500DB0.5138181876605873End")).isNull();
        assertThat(table.peek("(java2_JWD_01)ID1DB0.7End")).as("it names another server").isEqualTo("j1");
        assertThat(learnedRoutes.routeOf("j2")).as("no route suffix learned from SAP's form").isNull();
    }

    @Test
    void withoutEsidSupportAnEsidIsNeitherReadNorBound() throws ConfigException {
        landscape("wdisp/HTTP/esid_support = false\n");

        assertPlaced("abap", "!DIAG", false, "sap-ext-sid=e", null, null, "a1 balanced", null);
        assertThat(table.peek(SessionTimeouts.esidKey("e"))).isNull();
    }

    @Test
    void withoutJsessionidTableSupportOnlyTheCookieCounts() throws ConfigException {
        landscape("wdisp/HTTP/jsessionid_tab_support = false\n");
        table.bind("x", "j2");

        assertPlaced("j2ee", "PORTAL", false, "JSESSIONID=x", null, null, "j1 balanced", null);
    }

    @Test
    void aRequestRoutedByItsCookieRefreshesItsTableEntries() throws ConfigException {
        landscape("");
        table.bind("x", "j2");
        table.bind(SessionTimeouts.esidKey("e"), "a1");

        for (int minute = 0; minute < 90; minute++) {
            clock.addAndGet(Duration.ofMinutes(1).toMillis());
            assertPlaced("j2ee", "!J2EE", false, "saplb_*=(J2EE)j2; JSESSIONID=x; sap-ext-sid=e", null, null,
                    "j2 saplb cookie", null);
        }

        assertThat(table.peek("x")).isEqualTo("j2");
        assertThat(table.peek(SessionTimeouts.esidKey("e"))).isEqualTo("a1");
        clock.addAndGet(Duration.ofMinutes(61).toMillis());
        assertThat(table.peek("x")).isNull();
    }

    @Test
    void aFullTableSendsWhatItDoesNotHoldToTheGroupsDefaultServerAndKeepsWhatItHolds() throws ConfigException {
        landscape("wdisp/HTTP/max_session_tab_entries = 1\n");
        table.bind("x", "j2");

        assertThat(table.isFull()).isTrue();
        // j1 is drained: the default server is the first member that takes new requests
        topology.server("j1").setState(Server.State.DRAINED);
        assertPlaced("j2ee", "!J2EE", false, "JSESSIONID=x", null, null, "j2 session table", null);
        assertPlaced("abap", "!DIAG", false, "sap-ext-sid=e", null, null, "a1 default server (session table full)",
                null);
        assertPlaced("abap", "!DIAG", false, null, null, null, "a1 default server (session table full)", null);
        assertPlaced("j2ee", "!J2EE", false, "JSESSIONID=y", null, null, "j2 default server (session table full)",
                null);
        assertThat(table.peek(SessionTimeouts.esidKey("e"))).isNull();

        clock.addAndGet(Duration.ofMinutes(61).toMillis());
        assertPlaced("abap", "!DIAG", false, null, null, null, "a1 balanced", null);
    }

    /**
     * What a trace shows beside the reason: which identifier placed the request, and what the session table did.
     *
     * @param expect {@code server source table}, {@code -} for none
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "", textBlock = """
            saplb cookie                      | j2ee | !J2EE  | saplb_*=(J2EE)j1                      |         |                  | j1 saplb -
            JSESSIONID naming its server      | j2ee | PORTAL | JSESSIONID=(java2_JWD_01)ID4750.51End |         |                  | j2 JSESSIONID -
            route suffix                      | j2ee | PORTAL | JSESSIONID=abc.n2                     |         |                  | j2 JSESSIONID -
            table entry                       | j2ee | PORTAL | JSESSIONID=x                          |         | x=j2             | j2 JSESSIONID hit
            table entry of a down server      | j2ee | PORTAL | JSESSIONID=x                          | j2=DOWN | x=j2             | j1 JSESSIONID rebind
            unknown JSESSIONID                | j2ee | PORTAL | JSESSIONID=y                          |         |                  | j1 - -
            no identifier                     | j2ee | PORTAL |                                       |         |                  | j1 - -
            ESID bound                        | abap | !DIAG  | sap-ext-sid=e                         |         | sap-ext-sid:e=a2 | a2 sap-ext-sid hit
            unknown ESID                      | abap | !DIAG  | sap-ext-sid=e                         |         |                  | a1 sap-ext-sid bind
            ESID of a down server             | abap | !DIAG  | sap-ext-sid=e                         | a2=DOWN | sap-ext-sid:e=a2 | a1 sap-ext-sid rebind
            sap-contextid                     | abap | !DIAG  | sap-contextid=SID%3AANON%3Ahost_A2_00%3A1-NEW |  |              | a2 sap-contextid -
            sap-contextid binds its new ESID  | abap | !DIAG  | sap-ext-sid=e; sap-contextid=SID%3AANON%3Ahost_A2_00%3A1-NEW | | | a2 sap-contextid bind
            """)
    void namesTheIdentifierThatPlacedTheRequestAndWhatTheTableDid(String name, String type, String group,
                                                                  String cookies, String states, String bound,
                                                                  String expect) throws ConfigException {
        landscape("");
        assertPlaced(type, group, false, cookies, states, bound, null, null);

        assertThat(describe(lastChoice)).isEqualTo(expect.trim());
    }

    @Test
    void aRequestThatLostTheRaceToBindFollowsTheWinnersBinding() throws ConfigException {
        landscape("SessionTableTimeout = 10m\n");
        // the other request bound the session to j2 between this one's lookup and its bind
        SessionTable racing = scripted(null, "j2", null);
        RoutingEffects fx = RoutingEffects.live(racing, group -> topology.server("j1"));

        SessionAffinity.Choice choice = affinity.choose(topology.internalGroup(ServerGroup.J2EE), ServerType.J2EE,
                null, SessionCookies.parse("JSESSIONID=y"), false, fx);

        assertThat(choice.reason()).isEqualTo("session table (bound concurrently)");
        assertThat(describe(choice)).isEqualTo("j2 JSESSIONID bound_concurrently");
    }

    @Test
    void aRequestThatLostTheRaceToRebindAStaleSessionFollowsTheWinnersRebinding() throws ConfigException {
        landscape("");
        // bound to a server that left; the other request rebound it to j2 between this one's lookup and its rebind
        SessionTable racing = scripted("gone", null, "j2");
        RoutingEffects fx = RoutingEffects.live(racing, group -> topology.server("j1"));

        SessionAffinity.Choice choice = affinity.choose(topology.internalGroup(ServerGroup.J2EE), ServerType.J2EE,
                null, SessionCookies.parse("JSESSIONID=y"), false, fx);

        assertThat(choice.server().id() + " " + choice.reason()).isEqualTo("j2 session table (bound concurrently)");
    }

    @Test
    void aFullTableWarnsTheOperatorOnceInFiveMinutesNamingAGroupAndItsDefaultServer() throws ConfigException {
        landscape("wdisp/HTTP/max_session_tab_entries = 1\n");
        table.bind("x", "j2");

        try (LogCapture log = new LogCapture(SessionAffinity.class)) {
            assertPlaced("j2ee", "!J2EE", false, "JSESSIONID=y", null, null, "j1 default server (session table full)",
                    null);
            assertPlaced("abap", "!DIAG", false, null, null, null, "a1 default server (session table full)", null);
            clock.addAndGet(FullTableWarning.GAP_MILLIS - 1);
            assertPlaced("abap", "!DIAG", false, null, null, null, "a1 default server (session table full)", null);
            assertThat(log.text().split("Session table full", -1)).hasSize(2);
            assertThat(log.text()).contains("WARN").contains("(group !J2EE: j1)");

            clock.addAndGet(1);
            assertPlaced("abap", "!DIAG", false, null, null, null, "a1 default server (session table full)", null);
            assertThat(log.text().split("Session table full", -1)).hasSize(3);
            assertThat(log.text()).contains("(group !DIAG: a1)");
        }
    }

    @Test
    void aFullTableSaysSo() throws ConfigException {
        landscape("wdisp/HTTP/max_session_tab_entries = 1\n");
        table.bind("x", "j2");

        assertPlaced("abap", "!DIAG", false, "sap-ext-sid=e", null, null, "a1 default server (session table full)",
                null);
        assertThat(describe(lastChoice)).isEqualTo("a1 sap-ext-sid full");
        assertPlaced("abap", "!DIAG", false, null, null, null, "a1 default server (session table full)", null);
        assertThat(describe(lastChoice)).isEqualTo("a1 - full");
    }

    @Test
    void aSessionBoundConcurrentlyGoesWhereTheOtherRequestBoundIt() throws ConfigException {
        landscape("SessionTableTimeout = 10m\n");
        // the other request of the session binds it while this one is being balanced
        RoutingEffects racing = RoutingEffects.live(table, group -> {
            table.bind(SessionTimeouts.temporaryKey("y"), "j2");
            return topology.server("j1");
        });

        SessionAffinity.Choice choice = affinity.choose(group("!J2EE", false), ServerType.J2EE, null,
                SessionCookies.parse("JSESSIONID=y"), false, racing);

        assertThat(choice.server().id() + " " + choice.reason()).isEqualTo("j2 session table (bound concurrently)");
        assertThat(choice.bound()).isTrue();
    }

    @Test
    void aSessionBoundConcurrentlyToAServerItCannotUseKeepsThisRequestsServer() throws ConfigException {
        landscape("SessionTableTimeout = 10m\n");
        RoutingEffects racing = RoutingEffects.live(table, group -> {
            table.bind(SessionTimeouts.temporaryKey("y"), "a1"); // an ABAP server: no server for a J2EE request
            return topology.server("j1");
        });

        SessionAffinity.Choice choice = affinity.choose(group("!J2EE", false), ServerType.J2EE, null,
                SessionCookies.parse("JSESSIONID=y"), false, racing);

        assertThat(choice.server().id() + " " + choice.reason()).isEqualTo("j1 session table bind");
    }

    @Test
    void aFullTableWithNoMemberTakingNewRequestsHasNoDefaultServer() throws ConfigException {
        landscape("wdisp/HTTP/max_session_tab_entries = 1\n");
        table.bind("x", "j2");
        topology.server("a1").setState(Server.State.DOWN);
        topology.server("a2").setState(Server.State.DRAINED);

        SessionAffinity.Choice choice = affinity.choose(group("!DIAG", false), ServerType.ABAP, null,
                SessionIdentifiers.NONE, false, live);

        assertThat(choice.server()).isNull();
        assertThat(choice.reason()).isEqualTo("default server (session table full)");
    }

    @Test
    void aFullTableWithNoMemberTakingNewRequestsHasNoDefaultServerForASessionEither() throws ConfigException {
        landscape("wdisp/HTTP/max_session_tab_entries = 1\n");
        table.bind("x", "j2");
        topology.server("a1").setState(Server.State.DOWN);
        topology.server("a2").setState(Server.State.DRAINED);

        SessionAffinity.Choice choice = affinity.choose(group("!DIAG", false), ServerType.ABAP, null,
                SessionCookies.parse("sap-ext-sid=e"), false, live);

        assertThat(choice.server()).isNull();
        assertThat(choice.reason()).isEqualTo("default server (session table full)");
        assertThat(table.peek(SessionTimeouts.esidKey("e"))).isNull();
    }

    /**
     * Every server drained: an unknown ESID finds no server to be bound to, and the saplb cookie read after it still
     * places the request of either stack.
     */
    @Test
    void anEsidWithNoServerToBeBoundToLeavesTheRequestToItsSaplbCookie() throws ConfigException {
        landscape("");
        for (String id : new String[] {"j1", "j2", "a1", "a2"}) {
            topology.server(id).setState(Server.State.DRAINED);
        }

        assertPlaced("any", "!ALL", false, "sap-ext-sid=e; saplb_*=(J2EE)j1", null, null, "j1 saplb cookie", null);
        assertThat(table.peek(SessionTimeouts.esidKey("e"))).isNull();
    }

    /** The balancer picked the server the retry avoids: the least loaded of the others, even when it is busier. */
    @Test
    void aRetryWhoseBalancerPicksTheAvoidedServerGoesToAnotherEvenWhenTheAvoidedIsLessLoaded()
            throws ConfigException {
        landscape("");
        topology.server("j1").requestStarted(false);
        SessionAffinity retry = affinity.avoiding(topology.server("j2"));
        RoutingEffects pickJ2 = RoutingEffects.live(table, group -> topology.server("j2"));

        SessionAffinity.Choice choice = retry.choose(topology.internalGroup(ServerGroup.J2EE), ServerType.J2EE, null,
                SessionIdentifiers.NONE, false, pickJ2);

        assertThat(choice.server().id() + " " + choice.reason()).isEqualTo("j1 balanced");
    }

    /** Routed by its saplb cookie, a session's request-time binding is kept alive like its other entries. */
    @Test
    void aRequestRoutedByItsCookieRefreshesItsTemporaryBinding() throws ConfigException {
        landscape("SessionTableTimeout = 10m\n");
        table.bind(SessionTimeouts.temporaryKey("y"), "j2");

        for (int minute = 0; minute < 20; minute++) {
            clock.addAndGet(Duration.ofMinutes(1).toMillis());
            assertPlaced("j2ee", "!J2EE", false, "saplb_*=(J2EE)j2; JSESSIONID=y", null, null, "j2 saplb cookie",
                    null);
        }

        assertThat(table.peek(SessionTimeouts.temporaryKey("y"))).isEqualTo("j2");
        clock.addAndGet(Duration.ofMinutes(11).toMillis());
        assertThat(table.peek(SessionTimeouts.temporaryKey("y"))).isNull();
    }

    private static String describe(SessionAffinity.Choice choice) {
        return choice.server().id() + " " + (choice.source() == null ? "-" : choice.source()) + " "
                + (choice.table() == null ? "-" : choice.table());
    }

    /**
     * A table whose answers a race decided: {@code lookup} for every lookup, and the winner of every bind and rebind
     * ({@code null}: the server asked for wins); its stats are the real table's.
     */
    private SessionTable scripted(String lookup, String bindWinner, String rebindWinner) {
        return new SessionTable() {
            @Override
            public String lookup(String sessionId) {
                return lookup;
            }

            @Override
            public String bind(String sessionId, String serverId) {
                return bindWinner != null ? bindWinner : serverId;
            }

            @Override
            public String rebind(String sessionId, String expectedServerId, String newServerId) {
                return rebindWinner != null ? rebindWinner : newServerId;
            }

            @Override
            public org.jwd.sessiontable.SessionTableStats stats() {
                return table.stats();
            }

            @Override
            public void close() {
            }
        };
    }

    private void assertPlaced(String type, String groupName, boolean secure, String cookies, String states,
                              String bound, String expect, String after) {
        if (states != null) {
            for (String s : states.trim().split("\\s+")) {
                String[] kv = s.split("=");
                topology.server(kv[0]).setState(Server.State.valueOf(kv[1]));
            }
        }
        if (bound != null) {
            for (String b : bound.trim().split("\\s+")) {
                int at = b.lastIndexOf('=');
                table.bind(b.substring(0, at), b.substring(at + 1));
            }
        }
        ServerType stack = switch (type) {
            case "j2ee" -> ServerType.J2EE;
            case "abap" -> ServerType.ABAP;
            default -> null;
        };
        SessionIdentifiers ids = cookies == null ? SessionIdentifiers.NONE : SessionCookies.parse(cookies.trim());

        String[] groups = groupName.trim().split("@");
        String logonGroup = groups.length > 1 ? groups[1] : groups[0].equals("PORTAL") ? "PORTAL" : null;

        SessionAffinity.Choice choice = affinity.choose(group(groups[0], secure), stack, logonGroup, ids, secure, live);
        lastChoice = choice;

        if (expect != null) {
            assertThat(choice == null ? "none" : choice.server().id() + " " + choice.reason()).isEqualTo(expect.trim());
        }
        if (after != null) {
            for (String a : after.trim().split("\\s+")) {
                int at = a.lastIndexOf('=');
                assertThat(table.peek(a.substring(0, at))).as(a).isEqualTo(a.substring(at + 1));
            }
        }
    }
}
