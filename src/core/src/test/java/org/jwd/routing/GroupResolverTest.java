package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.jwd.config.ServerType;
import org.jwd.topology.Topology;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class GroupResolverTest {
    /**
     * a1: ABAP with HTTPS; a2: ABAP, logon group FIN; j1: J2EE with HTTPS, logon group PORTAL; j2: J2EE.
     * EMPTY and EMPTYFB have no members at all.
     */
    private static final String SYSTEM = """
            server.a1.url = http://abap1:8000
            server.a1.https_url = https://abap1:44300
            server.a1.type = abap
            server.a2.url = http://abap2:8000
            server.a2.type = abap
            server.a2.logon_groups = FIN
            server.j1.url = http://java1:50000
            server.j1.https_url = https://java1:50001
            server.j1.type = j2ee
            server.j1.logon_groups = PORTAL
            server.j2.url = http://java2:50000
            server.j2.type = j2ee
            icf.url_prefixes = /sap/bc/, /sap/bc/gui/, /A/, /logon/, /irj/portal/fin/
            logon_group.PORTAL.url_prefixes = /irj, /irj/portal/
            logon_group.FIN.url_prefixes = /sap/bc/fin/, /irj/portal/fin, /fin/
            logon_group.EMPTY.url_prefixes = /empty/
            logon_group.EMPTYFB.url_prefixes = /emptyfb
            logon_group.EMPTYFB.fallback = true
            """;

    private final Topology topology;
    private final GroupResolver resolver;

    GroupResolverTest() throws ConfigException {
        DispatcherConfig config = ConfigReader.parse(SYSTEM, "test");
        topology = Topology.of(config);
        UrlMappingTable table = UrlMappingTable.parse(config.urlMapping().urlPrefixes())
                .merge(UrlMappingTable.parse(List.of("case:/sap/Public/")));
        resolver = new GroupResolver(config, topology, () -> table);
    }

    private Classification classify(String raw, boolean secure) throws BadPathException {
        return resolver.classify(PathNormalizer.normalize(raw), secure);
    }

    private void set(Server.State state, String... ids) {
        for (String id : ids) {
            topology.server(id).setState(state);
        }
    }

    /**
     * {@code members} lists the group's members, space-separated. A path with a single slash ({@code /A},
     * {@code /irj}) is a root URL: it is typed by default_root_hdl and never looked up in the URL mapping
     * table, but logon groups still apply to it.
     */
    @ParameterizedTest(name = "{0} (secure {1}) is {2} by rule {3} -> {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            /                    | false | J2EE | root       | -               | !J2EE   | j1 j2
            /index.html          | false | J2EE | root       | -               | !J2EE   | j1 j2
            /A/B/page.htm        | false | ABAP | icf_prefix | /A/             | !DIAG   | a1 a2
            /A/                  | false | ABAP | icf_prefix | /A/             | !DIAG   | a1 a2
            /A                   | false | J2EE | root       | -               | !J2EE   | j1 j2
            /AB/page.htm         | false | J2EE | default    | -               | !J2EE   | j1 j2
            /sap/bc/gui          | false | ABAP | icf_prefix | /sap/bc/gui/    | !DIAG   | a1 a2
            /sap/bc/gui/sdn/x    | false | ABAP | icf_prefix | /sap/bc/gui/    | !DIAG   | a1 a2
            /sap/bc/ping         | false | ABAP | icf_prefix | /sap/bc/        | !DIAG   | a1 a2
            /logon/x             | false | ABAP | icf_prefix | /logon/         | !DIAG   | a1 a2
            /logonx/             | false | J2EE | default    | -               | !J2EE   | j1 j2
            /SAP/BC/ping         | false | ABAP | icf_prefix | /sap/bc/        | !DIAG   | a1 a2
            /sap/Public/bc/x     | false | ABAP | icf_prefix | case:/sap/Public/ | !DIAG | a1 a2
            /SAP/PUBLIC/bc/x     | false | J2EE | default    | -               | !J2EE   | j1 j2
            /irj                 | false | J2EE | root       | -               | PORTAL  | j1
            /irj/                | false | J2EE | default    | -               | PORTAL  | j1
            /irj/servlet/prt     | false | J2EE | default    | -               | PORTAL  | j1
            /irj/portal/         | false | J2EE | default    | -               | PORTAL  | j1
            /irjx/               | false | J2EE | default    | -               | !J2EE   | j1 j2
            /irj/portal/fin/x    | false | ABAP | icf_prefix | /irj/portal/fin/ | FIN    | a2
            /sap/bc/fin/report   | false | ABAP | icf_prefix | /sap/bc/        | FIN     | a2
            /emptyfb/x           | false | J2EE | default    | -               | !J2EE   | j1 j2
            /sap/bc/ping         | true  | ABAP | icf_prefix | /sap/bc/        | !DIAGS  | a1
            /nwa/x               | true  | J2EE | default    | -               | !J2EES  | j1
            /                    | true  | J2EE | root       | -               | !J2EES  | j1
            /irj/portal          | true  | J2EE | default    | -               | PORTAL  | j1
            """)
    void aRequestGoesToTheGroupItsPathBelongsTo(String path, boolean secure, ServerType type, String rule,
                                                String matched, String group, String members)
            throws BadPathException {
        Classification c = classify(path, secure);

        assertThat(c.errorStatus()).as(c.reason()).isZero();
        assertThat(c.type()).isEqualTo(type);
        assertThat(c.rule()).isEqualTo(rule);
        assertThat(c.matchedPrefix()).isEqualTo(matched);
        assertThat(c.groupName()).isEqualTo(group);
        assertThat(c.group().members()).extracting(Server::id).containsExactly(members.split(" "));
        assertThat(c.errorMessage()).isNull();
    }

    @ParameterizedTest(name = "with default_root_hdl {0}, {1} goes to {2}")
    @CsvSource({
            "abap, /, ABAP, !DIAG",
            "abap, /index.html, ABAP, !DIAG",
            "abap, /;jsessionid=1, ABAP, !DIAG",
            "j2ee, /, J2EE, !J2EE",
            "j2ee, /index.html, J2EE, !J2EE",
            "ABAP, /index.html, ABAP, !DIAG",
    })
    void aRootUrlGoesByTheDefaultRootHandler(String handler, String path, ServerType type, String group)
            throws Exception {
        // /index.html covers /index.html (its last segment counts as a directory), but a root URL is never looked
        // up in the table ('/' itself, which would cover everything, is refused)
        DispatcherConfig config = ConfigReader.parse(SYSTEM.replace("icf.url_prefixes = ",
                        "icf.url_prefixes = /index.html, ")
                + "is/HTTP/default_root_hdl = " + handler + "\n", "test");
        GroupResolver resolver = new GroupResolver(config, Topology.of(config),
                () -> UrlMappingTable.parse(config.urlMapping().urlPrefixes()));

        Classification c = resolver.classify(PathNormalizer.normalize(path), false);

        assertThat(c.type()).isEqualTo(type);
        assertThat(c.rule()).isEqualTo("root");
        assertThat(c.matchedPrefix()).isNull();
        assertThat(c.groupName()).isEqualTo(group);
        assertThat(c.reason()).contains("root URL", "is/HTTP/default_root_hdl");
    }

    @Test
    void theReasonTellsTheWholeDecision() throws BadPathException {
        assertThat(classify("/sap/bc/x", false).reason())
                .isEqualTo("path /sap/bc/x matches ICF prefix /sap/bc/ -> abap; no logon group -> !DIAG");
        assertThat(classify("/irj/portal/x", false).reason())
                .isEqualTo("path /irj/portal/x matches no ICF prefix -> j2ee;"
                        + " logon group prefix /irj/portal/ -> PORTAL");
        assertThat(classify("/", true).reason())
                .isEqualTo("path / is a root URL -> j2ee (is/HTTP/default_root_hdl); no logon group -> !J2EES");
    }

    @ParameterizedTest(name = "{0} (secure {1}): 503 {2}")
    @CsvSource(delimiter = '|', textBlock = """
            /empty/x             | false | logon group EMPTY has no active j2ee server
            /empty/              | true  | logon group EMPTY has no active j2ee server with an https_url
            /fin/x               | false | logon group FIN has no active j2ee server
            /sap/bc/fin/x        | true  | logon group FIN has no active abap server with an https_url
            """)
    void aLogonGroupWithoutAnActiveMemberOfTheRightTypeIsA503NamingIt(String path, boolean secure, String message)
            throws BadPathException {
        Classification c = classify(path, secure);

        assertThat(c.errorStatus()).isEqualTo(503);
        assertThat(c.errorMessage()).isEqualTo(message);
        assertThat(c.group()).isNull();
        assertThat(c.isError()).isTrue();
        assertThat(c.reason()).contains(message);
    }

    @Test
    void aLogonGroupWithFallbackFallsBackToTheInternalGroupAndSaysSo() throws BadPathException {
        Classification c = classify("/emptyfb/x", false);

        assertThat(c.groupName()).isEqualTo("!J2EE");
        assertThat(c.reason()).isEqualTo("path /emptyfb/x matches no ICF prefix -> j2ee; logon group prefix"
                + " /emptyfb/ -> EMPTYFB has no active j2ee server, fallback=true -> !J2EE");
    }

    @Test
    void aLogonGroupWhoseMembersAreDownIsA503() throws BadPathException {
        set(Server.State.DOWN, "j1");

        Classification c = classify("/irj/x", false);

        assertThat(c.errorStatus()).isEqualTo(503);
        assertThat(c.errorMessage()).isEqualTo("logon group PORTAL has no active j2ee server");
    }

    @Test
    void theLongestLogonGroupPrefixWinsAcrossGroups() throws BadPathException {
        assertThat(classify("/irj/portal/x", false).groupName()).isEqualTo("PORTAL");
        assertThat(classify("/irj/portal/fin/x", false).groupName()).isEqualTo("FIN");
        assertThat(classify("/irj/portal/finance", false).groupName()).isEqualTo("PORTAL");
    }

    /**
     * SAP: "If no J2EE server is active, in the stateless case the request is passed to ... !ALL"; a stateful one
     * goes to its session's server, which the router finds with both stacks' identifiers (anyStack). Drained or
     * disabled J2EE servers still count as active: draining never turns J2EE traffic into ABAP traffic.
     */
    @ParameterizedTest(name = "J2EE servers {0}: {1} secure {2} -> {3}")
    @MethodSource("noLiveJ2ee")
    void withoutAnActiveJ2eeServerAJ2eeRequestGoesToAllWithTheIdentifiersOfBothStacks(
            Server.State state, String path, boolean secure, String expected) throws BadPathException {
        set(state, "j1", "j2");

        Classification c = classify(path, secure);

        if (expected.startsWith("503 ")) {
            assertThat(c.errorStatus()).isEqualTo(503);
            assertThat(c.errorMessage()).isEqualTo(expected.substring(4));
            assertThat(c.sessionType()).isEqualTo(ServerType.J2EE);
        } else {
            assertThat(c.errorStatus()).as(c.reason()).isZero();
            assertThat(c.groupName() + " " + String.join(" ", c.group().members().stream().map(Server::id).toList()))
                    .isEqualTo(expected);
            assertThat(c.reason()).contains("no j2ee server is active -> !ALL");
            assertThat(c.sessionType()).isNull();
        }
    }

    static Stream<Arguments> noLiveJ2ee() {
        return Stream.of(
                Arguments.of(Server.State.DOWN, "/nwa/x", false, "!ALL a1 a2 j1 j2"),
                Arguments.of(Server.State.DOWN, "/", false, "!ALL a1 a2 j1 j2"),
                Arguments.of(Server.State.DOWN, "/nwa/x", true, "!ALL a1 j1"),
                Arguments.of(Server.State.DOWN, "/emptyfb/x", false, "!ALL a1 a2 j1 j2"),
                // a logon group's URL too, fallback or not
                Arguments.of(Server.State.DOWN, "/irj/x", false, "!ALL a1 a2 j1 j2"),
                Arguments.of(Server.State.DRAINED, "/nwa/x", false, "503 group !J2EE has no active j2ee server"),
                Arguments.of(Server.State.DISABLED, "/nwa/x", true,
                        "503 group !J2EES has no active j2ee server with an https_url"),
                Arguments.of(Server.State.DRAINED, "/irj/x", false, "503 logon group PORTAL has no active j2ee server"));
    }

    @Test
    void aSecureRequestWithoutHttpsJ2eeServersIsA503WhileAnyJ2eeServerIsActive() throws BadPathException {
        set(Server.State.DOWN, "j1");

        Classification c = classify("/nwa/x", true);

        assertThat(c.errorStatus()).isEqualTo(503);
        assertThat(c.errorMessage()).isEqualTo("group !J2EES has no active j2ee server with an https_url");
        assertThat(classify("/nwa/x", false).groupName()).isEqualTo("!J2EE");
    }

    /** j2 has a url only: the health of an HTTPS port it does not have never makes it active. */
    @Test
    void aJ2eeServerWhosePlainPortIsDownAndThatHasNoHttpsUrlIsNotActive() throws BadPathException {
        set(Server.State.DOWN, "j1");
        topology.server("j2").recordFailure(false, 1, "connection refused");

        Classification c = classify("/nwa/x", false);

        assertThat(c.errorStatus()).as(c.reason()).isZero();
        assertThat(c.groupName()).isEqualTo("!ALL");
    }

    /** j1's HTTPS port still passes its checks: J2EE is active, and a plain J2EE URL never goes to !ALL. */
    @Test
    void aJ2eeServerWhoseHttpsPortAloneIsUpIsActive() throws BadPathException {
        set(Server.State.DOWN, "j2");
        topology.server("j1").recordFailure(false, 1, "connection refused");

        Classification plain = classify("/nwa/x", false);

        assertThat(plain.errorStatus()).isEqualTo(503);
        assertThat(plain.errorMessage()).isEqualTo("group !J2EE has no active j2ee server");
        assertThat(classify("/nwa/x", true).groupName()).isEqualTo("!J2EES");
    }

    @Test
    void noActiveServerAnywhereIsA503NamingAll() throws BadPathException {
        set(Server.State.DOWN, "a1", "a2", "j1", "j2");

        Classification c = classify("/nwa/x", false);

        assertThat(c.errorStatus()).isEqualTo(503);
        assertThat(c.errorMessage()).isEqualTo("no j2ee server is active and group !ALL has no active server");
    }

    @ParameterizedTest(name = "{0} with a1 and a2 {1}: 503")
    @CsvSource({"/sap/bc/ping, DOWN", "/sap/bc/ping, DISABLED", "/sap/bc/ping, DRAINED"})
    void anAbapRequestWithoutAnActiveAbapServerIsA503AndNeverGoesElsewhere(String path, Server.State state)
            throws BadPathException {
        set(state, "a1", "a2");

        Classification c = classify(path, false);

        assertThat(c.errorStatus()).isEqualTo(503);
        assertThat(c.errorMessage()).isEqualTo("group !DIAG has no active abap server");
        assertThat(c.group()).isNull();
        assertThat(c.type()).isEqualTo(ServerType.ABAP);
    }

    @Test
    void theUrlMappingTableIsReadAgainForEveryRequest() throws Exception {
        DispatcherConfig config = ConfigReader.parse(SYSTEM, "test");
        UrlMappingTable[] table = {UrlMappingTable.EMPTY};
        GroupResolver resolver = new GroupResolver(config, Topology.of(config), () -> table[0]);
        NormalizedPath path = PathNormalizer.normalize("/sap/bc/ping");
        assertThat(resolver.classify(path, false).type()).isEqualTo(ServerType.J2EE);

        table[0] = UrlMappingTable.parse(List.of("/sap/"));

        assertThat(resolver.classify(path, false).matchedPrefix()).isEqualTo("/sap/");
    }

    /**
     * Security: a path is classified as the server reads it: a mangled segment by its plain name, an encoded slash
     * splitting no segment. {@code expected} is a group, or 400 when the normalizer refuses the path.
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            /irj/../sap/bc/x                   | !DIAG
            /%73ap/bc/x                        | !DIAG
            /IRJ/..%2fsap/x                    | PORTAL
            /irj/..%2fsap/bc/x                 | PORTAL
            /irj/..;x=y/sap/bc/x               | 400
            /irj/..;/sap/bc/x                  | 400
            /irj;jsessionid=1/../sap/bc/x      | !DIAG
            /irj/%2e%2e/sap/bc/x               | 400
            /irj/.%2e/sap/bc/x                 | 400
            /irj/%252e%252e/sap/bc/x           | PORTAL
            /irj/%2e%2e%2fsap/bc/x             | 400
            /sap(bD1lbiZjPTAwMQ==)/bc/x        | !DIAG
            /irj(bD1lbiZjPTAwMQ==)/x           | PORTAL
            /irj/..%5csap/bc/x                 | 400
            /irj/%c0%ae%c0%ae/sap/bc/x         | 400
            /irj/%e0%80%ae%e0%80%ae/sap/bc/x   | 400
            /irj/%c0%af../sap/bc/x             | 400
            /sap/bc/x%00.htm                   | 400
            /sap/bc/../../irj/x                | PORTAL
            /sap/bc/../../../irj/x             | 400
            //sap//bc//x                       | !DIAG
            /./sap/./bc/./x                    | !DIAG
            /sap/bc/x/..                       | !DIAG
            /sap/bc/..                         | !J2EE
            /sap/bc;x=y/gui                    | !DIAG
            /sap;bc/x                          | !J2EE
            /sap%3bbc/x                        | !J2EE
            /sap/bc%3B/x                       | !J2EE
            /sap/bc./x                         | 400
            /sap/bc%20/x                       | 400
            /sap%2Fbc/x                        | !J2EE
            /%2fsap/bc/x                       | !J2EE
            /irj%00/x                          | 400
            /irj/x?y                           | 400
            /..                                | 400
            ''                                 | 400
            /irj/portal/%                      | 400
            /sap/bc/%%32%65%%32%65/irj         | 400
            """)
    void aHostilePathReachesTheGroupOfItsNormalizedPathOrIsRefused(String raw, String expected) {
        NormalizedPath normalized;
        try {
            normalized = PathNormalizer.normalize(raw);
        } catch (BadPathException e) {
            assertThat(expected).as(e.getMessage()).isEqualTo("400");
            return;
        }
        assertThat(expected).as("%s normalized to %s", raw, normalized).isNotEqualTo("400");

        Classification c = resolver.classify(normalized, false);

        assertThat(c.groupName()).as(c.reason()).isEqualTo(expected);
    }

    @Test
    void aPrefixGivenForTwoLogonGroupsGoesToTheFirstGroupByName() throws Exception {
        DispatcherConfig config = ConfigReader.parse(SYSTEM
                + "logon_group.ZZZ.url_prefixes = /irj/portal\n", "test");
        GroupResolver resolver = new GroupResolver(config, Topology.of(config), () -> UrlMappingTable.EMPTY);

        assertThat(resolver.classify(PathNormalizer.normalize("/irj/portal/x"), false).groupName())
                .isEqualTo("PORTAL");
    }

    @Test
    void anInvalidLogonGroupPrefixIsRefusedAtConstruction() throws Exception {
        DispatcherConfig config = ConfigReader.parse(SYSTEM.replace("/irj, /irj/portal/", "/irj/%zz"), "test");

        assertThatThrownBy(() -> new GroupResolver(config, Topology.of(config), () -> UrlMappingTable.EMPTY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/irj/%zz");
    }

    @Test
    void aClassificationReadsWellInALog() throws BadPathException {
        assertThat(classify("/sap/bc/x", false)).hasToString(
                "Classification(!DIAG; path /sap/bc/x matches ICF prefix /sap/bc/ -> abap; no logon group -> !DIAG)");
        assertThat(classify("/empty/x", false).toString())
                .startsWith("Classification(503 logon group EMPTY has no active j2ee server; path /empty/x");
        assertThat(resolver.toString()).contains("/irj/ -> PORTAL", "/irj/portal/fin/ -> FIN");
        assertThat(Arrays.asList(classify("/sap/bc/x", false).typeKey())).containsExactly("abap");
    }

    @Test
    void aPrefixGivenForTwoLogonGroupsIsLoggedAsAWarningAndOneGivenTwiceForTheSameGroupIsNot() throws Exception {
        DispatcherConfig config = ConfigReader.parse(SYSTEM.replace("logon_group.FIN.url_prefixes = /sap/bc/fin/,",
                "logon_group.FIN.url_prefixes = /irj/portal/, /sap/bc/fin/, /sap/bc/fin,"), "test");

        String log;
        try (LogCapture capture = new LogCapture(GroupResolver.class)) {
            new GroupResolver(config, Topology.of(config), () -> UrlMappingTable.of(List.of()));
            log = capture.text();
        }

        assertThat(log).contains("WARN").containsOnlyOnce("is given for logon groups")
                .containsPattern("URL prefix /irj/portal/ is given for logon groups (PORTAL and FIN; PORTAL|"
                        + "FIN and PORTAL; FIN) wins");
    }
}
