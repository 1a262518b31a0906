package org.jwd.affinity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SessionCookiesTest {

    private static SessionIdentifiers parse(String header) {
        return SessionCookies.parse(header);
    }

    /** The cookies, and the URL forms as the path normalizer hands them over: {@code ;jsessionid=}, {@code ;sap-ext-sid=}. */
    private static SessionIdentifiers parse(List<String> headers, String jsessionidParam, String sapExtSidParam) {
        List<PathParameter> parameters = new ArrayList<>();
        if (jsessionidParam != null) {
            parameters.add(new PathParameter("jsessionid", jsessionidParam));
        }
        if (sapExtSidParam != null) {
            parameters.add(new PathParameter("sap-ext-sid", sapExtSidParam));
        }
        return SessionCookies.parse(headers, parameters, List.of());
    }

    @Test
    void typicalHeaderYieldsEveryIdentifier() {
        SessionIdentifiers ids = parse("_ga=GA1.2.3; JSESSIONID=8F2A0C1D4B3E5F6A7B8C9D0E1F2A3B4C.node1; "
                + "saplb_*=(J2EE6906720)6906750; sap-contextid=SID%3aANON%3ahost_JWD_00%3a42-NEW; "
                + "sap-ext-sid=XYZ123; theme=dark");

        assertThat(ids.jsessionid()).isEqualTo("8F2A0C1D4B3E5F6A7B8C9D0E1F2A3B4C.node1");
        assertThat(ids.jsessionidRoute()).isEqualTo("node1");
        assertThat(ids.saplbCookies()).containsExactly(
                new SaplbCookie("*", "(J2EE6906720)6906750", "J2EE6906720", "6906750"));
        assertThat(ids.sapContextId()).isEqualTo("SID:ANON:host_JWD_00:42-NEW");
        assertThat(ids.sapContextServer()).isEqualTo("host_JWD_00");
        assertThat(ids.sapExtSid()).isEqualTo("XYZ123");
        assertThat(ids.isEmpty()).isFalse();
    }

    @Test
    void nothingUsableGivesNone() {
        assertThat(parse((String) null)).isSameAs(SessionIdentifiers.NONE);
        assertThat(parse("")).isSameAs(SessionIdentifiers.NONE);
        assertThat(parse(null, null, null)).isSameAs(SessionIdentifiers.NONE);
        assertThat(parse(Arrays.asList(null, "", "  ;  ;"), null, null)).isSameAs(SessionIdentifiers.NONE);
        assertThat(parse("theme=dark; lang=en")).isSameAs(SessionIdentifiers.NONE);
        assertThat(SessionIdentifiers.NONE.isEmpty()).isTrue();
        assertThat(SessionIdentifiers.NONE.saplbFor("PORTAL")).isNull();
    }

    @Nested
    class Jsessionid {
        @Test
        void cookieTakesPrecedenceOverPathParameter() {
            SessionIdentifiers ids = parse(List.of("JSESSIONID=fromCookie.n1"), "fromPath.n2", null);
            assertThat(ids.jsessionid()).isEqualTo("fromCookie.n1");
            assertThat(ids.jsessionidRoute()).isEqualTo("n1");
        }

        @Test
        void pathParameterWhenNoCookie() {
            SessionIdentifiers ids = parse(List.of("theme=dark"), "fromPath.n2", null);
            assertThat(ids.jsessionid()).isEqualTo("fromPath.n2");
            assertThat(ids.jsessionidRoute()).isEqualTo("n2");
            assertThat(parse(null, "fromPath", null).jsessionid()).isEqualTo("fromPath");
        }

        @Test
        void malformedCookieFallsBackToPathParameter() {
            assertThat(parse(List.of("JSESSIONID="), "fromPath", null).jsessionid()).isEqualTo("fromPath");
            assertThat(parse(List.of("JSESSIONID=a b"), "fromPath", null).jsessionid()).isEqualTo("fromPath");
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "a b", "a\"b", "a,b", "a\\b", "caf\u00e9", "tab\tin", "\u0001"})
        void malformedPathParameterIsAbsent(String param) {
            assertThat(parse(null, param, null).jsessionid()).isNull();
        }

        @Test
        void tooLongIdIsAbsent() {
            String ok = "a".repeat(SessionCookies.MAX_SESSION_ID_LENGTH);
            String tooLong = ok + "b";
            assertThat(parse("JSESSIONID=" + ok).jsessionid()).isEqualTo(ok);
            assertThat(parse("JSESSIONID=" + tooLong).jsessionid()).isNull();
            assertThat(parse(null, tooLong, null).jsessionid()).isNull();
        }

        @Test
        void routeSuffixOfTomcatAndJettyIds() {
            assertThat(parse("JSESSIONID=ABC123.worker7").jsessionidRoute()).isEqualTo("worker7");
            assertThat(parse("JSESSIONID=node0abc123xyz.node0").jsessionidRoute()).isEqualTo("node0");
            assertThat(parse("JSESSIONID=a.b.c").jsessionidRoute()).isEqualTo("c");
            assertThat(parse("JSESSIONID=plain").jsessionidRoute()).isNull();
            assertThat(parse("JSESSIONID=trailing.").jsessionidRoute()).isNull();
            assertThat(parse("JSESSIONID=.leading").jsessionidRoute()).isNull();
            assertThat(parse("JSESSIONID=.").jsessionidRoute()).isNull();
            assertThat(SessionCookies.route(null)).isNull();
        }

        @Test
        void nameIsCaseSensitive() {
            assertThat(parse("jsessionid=abc; JSessionId=def").jsessionid()).isNull();
        }

        @Test
        void spacesAndTabsAroundNameAndValueAreIgnored() {
            assertThat(parse("  \tJSESSIONID \t=  abc.n1 \t ;x=1").jsessionid()).isEqualTo("abc.n1");
        }

        @Test
        void quotedValueIsUnwrapped() {
            assertThat(parse("JSESSIONID=\"abc.n1\"").jsessionid()).isEqualTo("abc.n1");
            assertThat(parse("JSESSIONID=\"abc").jsessionid()).isNull();
            assertThat(parse("JSESSIONID=abc\"").jsessionid()).isNull();
            assertThat(parse("JSESSIONID=\"\"").jsessionid()).isNull();
            assertThat(parse("JSESSIONID=\"").jsessionid()).isNull();
        }

        @Test
        void missingEqualsOrEmptyNameIsSkipped() {
            assertThat(parse("JSESSIONID; =abc; ==; JSESSIONID=real").jsessionid()).isEqualTo("real");
            assertThat(parse("JSESSIONID").jsessionid()).isNull();
            assertThat(parse("=JSESSIONID=abc").jsessionid()).isNull();
        }

        @Test
        void valueMayContainEqualsSign() {
            assertThat(parse("JSESSIONID=abc==").jsessionid()).isEqualTo("abc==");
        }

        @Test
        void firstWellFormedDuplicateWins() {
            assertThat(parse("JSESSIONID=first; JSESSIONID=second").jsessionid()).isEqualTo("first");
            assertThat(parse("JSESSIONID=; JSESSIONID=a b; JSESSIONID=third").jsessionid()).isEqualTo("third");
            assertThat(parse(List.of("JSESSIONID=header1", "JSESSIONID=header2"), null, null).jsessionid())
                    .isEqualTo("header1");
        }

        @Test
        void cookiesMaySpreadOverSeveralHeaders() {
            SessionIdentifiers ids = parse(List.of("theme=dark", "JSESSIONID=abc; saplb_*=(J2EE1)2"), null, null);
            assertThat(ids.jsessionid()).isEqualTo("abc");
            assertThat(ids.saplbCookies()).hasSize(1);
        }
    }

    @Nested
    class Saplb {
        @Test
        void keepsEverySaplbCookieWithItsGroupInHeaderOrder() {
            SessionIdentifiers ids = parse("saplb_PUBLIC=(host_JWD_00)1; saplb_*=(J2EE6906720)6906750; "
                    + "saplb_SPACE=(i)2");
            assertThat(ids.saplbCookies()).extracting(SaplbCookie::group).containsExactly("PUBLIC", "*", "SPACE");
            assertThat(ids.saplbCookies().get(1).instance()).isEqualTo("J2EE6906720");
            assertThat(ids.saplbCookies().get(1).node()).isEqualTo("6906750");
            assertThat(ids.saplbCookies().get(1).isAnyGroup()).isTrue();
            assertThat(ids.saplbCookies().get(0).isAnyGroup()).isFalse();
            assertThat(ids.saplbCookies().get(1)).hasToString("saplb_*=(J2EE6906720)6906750");
        }

        @Test
        void emptyNodePartIsAccepted() {
            SaplbCookie cookie = parse("saplb_G=(host_JWD_00)").saplbCookies().get(0);
            assertThat(cookie.instance()).isEqualTo("host_JWD_00");
            assertThat(cookie.node()).isEmpty();
            assertThat(cookie.matches("host_JWD_00")).isFalse();
            assertThat(cookie.matches("(host_JWD_00)")).isTrue();
            assertThat(cookie.matches("")).isFalse();
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "()", "()6906750", "(J2EE1", "J2EE1)2", "J2EE1", "(a)(b)", "((a)b", "(a))b",
                "(a)b)", "(a(b)c", "(J2EE 1)2", "(a)b c", "\"(a)b", ")a(b", "(", ")", "(\u00e9)1"})
        void malformedValueIsIgnored(String value) {
            assertThat(parse("saplb_*=" + value).saplbCookies()).isEmpty();
        }

        @Test
        void quotedValueIsUnwrapped() {
            assertThat(parse("saplb_*=\"(J2EE1)2\"").saplbCookies()).extracting(SaplbCookie::value)
                    .containsExactly("(J2EE1)2");
        }

        @Test
        void aOneLetterGroupIsThatGroupAndOnlyTheStarAloneMeansAnyGroup() {
            SessionIdentifiers ids = parse("saplb_A=(a)1; saplb_*x=(b)2; saplb_*=(c)3");

            assertThat(ids.saplbCookies()).extracting(SaplbCookie::group).containsExactly("A", "*x", "*");
            assertThat(ids.saplbCookies()).extracting(SaplbCookie::isAnyGroup).containsExactly(false, false, true);
            assertThat(ids.saplbFor("A").value()).isEqualTo("(a)1");
        }

        @Test
        void theShortestValueAndOneOfTheLongestLengthAreRead() {
            String longest = "(a)" + "1".repeat(SessionCookies.MAX_SESSION_ID_LENGTH - 3);

            assertThat(parse("saplb_*=(a)").saplbCookies()).extracting(SaplbCookie::instance, SaplbCookie::node)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("a", ""));
            assertThat(parse("saplb_*=" + longest).saplbCookies()).extracting(SaplbCookie::value)
                    .containsExactly(longest);
            assertThat(parse("saplb_*=" + longest + "1").saplbCookies()).isEmpty();
        }

        @Test
        void nameNeedsAGroup() {
            assertThat(parse("saplb_=(a)1; saplb=(a)2; SAPLB_*=(a)3; saplb_ x=(a)4").saplbCookies()).isEmpty();
        }

        @Test
        void duplicatesAreKeptInOrderSoTheFirstIsRead() {
            SessionIdentifiers ids = parse("saplb_*=(a)1; saplb_*=(b)2");
            assertThat(ids.saplbCookies()).extracting(SaplbCookie::node).containsExactly("1", "2");
            assertThat(ids.saplbFor(null).node()).isEqualTo("1");
        }

        @Test
        void atMostMaxSaplbCookiesAreKept() {
            StringBuilder header = new StringBuilder();
            for (int i = 0; i < 100; i++) {
                header.append("saplb_G").append(i).append("=(i)").append(i).append("; ");
            }
            assertThat(parse(header.toString()).saplbCookies()).hasSize(SessionCookies.MAX_SAPLB_COOKIES);
        }

        @Test
        void matchesWholeValueOrNodePart() {
            SaplbCookie cookie = new SaplbCookie("*", "(J2EE6906720)6906750", "J2EE6906720", "6906750");
            assertThat(cookie.matches("(J2EE6906720)6906750")).isTrue();
            assertThat(cookie.matches("6906750")).isTrue();
            assertThat(cookie.matches("J2EE6906720")).isFalse();
            assertThat(cookie.matches("690675")).isFalse();
            assertThat(cookie.matches("(J2EE6906720)")).isFalse();
            assertThat(cookie.matches(null)).isFalse();
        }

        /**
         * SAP Library, "Load Balancing Identifier": the Web Dispatcher "checks for path prefix match and thereby
         * determines group name ... This allows to obtain {@code <instance_id>} from the set of dispatch cookies";
         * "If there are no special group definitions then the special group identifier '*' is used".
         */
        @ParameterizedTest(name = "URL of logon group {1}: {2}")
        @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
                saplb_OTHER=(o)3; saplb_*=(s)1; saplb_PUBLIC=(p)2 | PUBLIC | (p)2
                saplb_OTHER=(o)3; saplb_*=(s)1; saplb_PUBLIC=(p)2 | -      | (s)1
                saplb_OTHER=(o)3; saplb_*=(s)1; saplb_PUBLIC=(p)2 | NONE   | (s)1
                saplb_OTHER=(o)3; saplb_PUBLIC=(p)2               | NONE   | -
                saplb_OTHER=(o)3; saplb_PUBLIC=(p)2               | -      | -
                saplb_PUBLIC=(p)2; saplb_PUBLIC=(q)4              | PUBLIC | (p)2
                """)
        void theCookieOfTheUrlsLogonGroupElseTheStarOne(String header, String group, String expected) {
            SaplbCookie chosen = parse(header).saplbFor(group);
            assertThat(chosen == null ? null : chosen.value()).isEqualTo(expected);
        }
    }

    /** The URL forms of every identifier, as SAP documents them; each row names the document. */
    @Nested
    class UrlForms {
        private SessionIdentifiers url(String cookie, String path) throws Exception {
            org.jwd.routing.NormalizedPath n = org.jwd.routing.PathNormalizer.normalize(path);
            return SessionCookies.parse(cookie == null ? null : List.of(cookie), n.parameters(), n.mangledParts());
        }

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
                # SAP Library, "J2EE Session Identifier": <uri-path-segment>;jsessionid=<sap-j2ee-sid>
                J2EE Session Identifier: /sap/j2ee;jsessionid=<id>/foo/bar         | /sap/j2ee;jsessionid=(ls3022_BIN_12)ID47500DB0.5138181876605873End/foo/bar | jsessionid  | (ls3022_BIN_12)ID47500DB0.5138181876605873End
                # SAP Library, "External Session Identifier": /sap/;sap-ext-sid=<external session identifier>/foo/bar
                External Session Identifier: /sap/;sap-ext-sid=<esid>/foo/bar      | /sap/;sap-ext-sid=MTIzNDU2Nzg5MA==/foo/bar  | sap-ext-sid | MTIzNDU2Nzg5MA==
                External Session Identifier on any segment                          | /sap/foo;sap-ext-sid=E1/bar                 | sap-ext-sid | E1
                # SAP Library, "Load Balancing Identifier": "The same syntax applies if the identifier is used via url rewriting"
                Load Balancing Identifier via URL rewriting                         | /b2c/init.do;jsessionid=(J2EE3264100)ID0269691750DB2fe6End;saplb_*=(J2EE3264100)3264150 | saplb | (J2EE3264100)3264150
                Load Balancing Identifier of a logon group via URL rewriting        | /irj/x;saplb_PORTAL=(J2EE1)2/y              | saplb       | (J2EE1)2
                # SAP Library, BSP "Session Handling without Cookies": the session_id as "the statement in brackets after the namespace specification"
                BSP session id in the mangled segment                               | /sap(cz1TSUQlM2FBTk9OJTNhdmdtdmdtYTFfVkdNXzAwJTNhVzdkREExSnlPa29GeEZqVzJrZFNXdTB2b2R4M2Z1M0RwOFRsamJHNS1BVFQ=)/bc/gui/sap/its/webgui | sap-contextid | SID:ANON:vgmvgma1_VGM_00:W7dDA1JyOkoFxFjW2kdSWu0vodx3fu3Dp8TljbG5-ATT
                BSP mangled segment with client and language only (l=en&c=001)     | /sap(bD1lbiZjPTAwMQ==)/bc/bsp/sap/it00/default.htm | sap-contextid | -
                A mangled part that is no Base64 carries nothing                    | /sap(not*base64!)/bc/bsp/x                  | sap-contextid | -
                """)
        void readsTheUrlFormOfEachIdentifier(String document, String path, String kind, String expected)
                throws Exception {
            SessionIdentifiers ids = url(null, path);
            String read = switch (kind) {
                case "jsessionid" -> ids.jsessionid();
                case "sap-ext-sid" -> ids.sapExtSid();
                case "saplb" -> ids.saplbFor("PORTAL") == null ? null : ids.saplbFor("PORTAL").value();
                default -> ids.sapContextId();
            };
            assertThat(read).as(document).isEqualTo(expected);
        }

        @Test
        void theAbapSessionIdInTheUrlNamesItsServerAndWinsOverTheCookie() throws Exception {
            // s=SID%3aANON%3ahost_A2_00%3a7-NEW, Base64 and Url64 alike
            String mangled = java.util.Base64.getEncoder().encodeToString(
                    "l=en&s=SID%3aANON%3ahost_A2_00%3a7-NEW&c=001".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            SessionIdentifiers ids = url("sap-contextid=SID%3aANON%3ahost_A1_00%3a1-NEW",
                    "/sap(" + mangled + ")/bc/bsp/x");

            assertThat(ids.sapContextServer()).isEqualTo("host_A2_00");
            assertThat(url("sap-contextid=SID%3aANON%3ahost_A1_00%3a1-NEW", "/sap(bD1lbiZjPTAwMQ==)/bc/bsp/x")
                    .sapContextServer()).isEqualTo("host_A1_00");
        }

        @Test
        void everySaplbPathParameterWithAGroupIsReadUpToTheMaximum() throws Exception {
            assertThat(url(null, "/irj;saplb_=(x)0;saplb_A=(a)1;saplb_B=(b)2/x").saplbCookies())
                    .extracting(SaplbCookie::value).containsExactly("(a)1", "(b)2");
            StringBuilder path = new StringBuilder("/irj");
            for (int i = 0; i < SessionCookies.MAX_SAPLB_COOKIES + 8; i++) {
                path.append(";saplb_G").append(i).append("=(i)").append(i);
            }
            assertThat(url(null, path + "/x").saplbCookies()).hasSize(SessionCookies.MAX_SAPLB_COOKIES)
                    .last().extracting(SaplbCookie::group).isEqualTo("G" + (SessionCookies.MAX_SAPLB_COOKIES - 1));
        }

        @Test
        void theSessionFieldOfAMangledPartIsFoundAfterALeadingAmpersandAndAnEmptyOne() throws Exception {
            String mangled = java.util.Base64.getEncoder().encodeToString(
                    "&s=&s=SID%3aANON%3ahost_A2_00%3a7-NEW".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

            assertThat(url(null, "/sap(" + mangled + ")/bc/bsp/x").sapContextServer()).isEqualTo("host_A2_00");
        }

        @Test
        void aMangledPartIsReadUpTo2048Characters() {
            String longest = java.util.Base64.getEncoder().encodeToString(("s=" + "x".repeat(1534)).getBytes(
                    java.nio.charset.StandardCharsets.US_ASCII));
            assertThat(longest).hasSize(2048);

            assertThat(MangledSegment.carriesSessionId(longest)).isTrue();
            assertThat(MangledSegment.carriesSessionId(longest + "eHh4")).isFalse();
        }

        @Test
        void url64WritesMinusForSlash() {
            // SAP Library, "The Url64 encoding scheme": Base64 with '-' instead of '/'
            byte[] bytes = {'s', '=', (byte) 0xff, (byte) 0xfe};
            String base64 = java.util.Base64.getEncoder().encodeToString(bytes);
            assertThat(base64).contains("/");
            assertThat(MangledSegment.decoded(base64.replace('/', '-'))).isEqualTo(MangledSegment.decoded(base64));
        }

        @Test
        void theCookieWinsForJsessionidAndEsidAndSaplbCookiesComeFirst() throws Exception {
            SessionIdentifiers ids = url("JSESSIONID=c1; sap-ext-sid=e1; saplb_*=(c)1",
                    "/irj;jsessionid=u1;sap-ext-sid=e2;saplb_*=(u)2/x");

            assertThat(ids.jsessionid()).isEqualTo("c1");
            assertThat(ids.sapExtSid()).isEqualTo("e1");
            assertThat(ids.saplbCookies()).extracting(SaplbCookie::value).containsExactly("(c)1", "(u)2");
        }
    }

    /** SAP Library, "J2EE Session Identifier": {@code URL-encode("(" <sap-server-name> ")" <internal-id> End)}. */
    @Nested
    class JsessionidServerName {
        @ParameterizedTest(name = "{0} names {1}")
        @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
                (ls3022_BIN_12)ID47500DB0.5138181876605873End            | ls3022_BIN_12
                %28ls3022_BIN_12%29ID47500DB0.5138181876605873End        | ls3022_BIN_12
                (J2EE3264100)ID0269691750DB2fe63b612b56acbe8f026bdf4191bcc4fe9e5c8eEnd | J2EE3264100
                (a)ID1End                                                  | a
                ()ID47500DB0.5End                                          | -
                (a(b)ID1End                                                | -
                (ls3022_BIN_12)ID47500DB0.5138181876605873                 | -
                ID47500DB0.5138181876605873End                             | -
                8F2A0C1D4B3E5F6A7B8C9D0E1F2A3B4C.node1                      | -
                """)
        void anAsJavaIdNamesItsServerAndHasNoRouteSuffix(String id, String server) {
            SessionIdentifiers ids = parse("JSESSIONID=" + id);

            assertThat(ids.jsessionidServer()).isEqualTo(server);
            if (server != null) {
                assertThat(ids.jsessionidRoute()).as("the .5138181876605873End of SAP's form is no route").isNull();
            }
        }
    }

    @Nested
    class SapContextId {
        @ParameterizedTest
        @ValueSource(strings = {"SID%3aANON%3ahost_JWD_00%3a42-NEW", "SID%3AANON%3Ahost_JWD_00%3A42-NEW",
                "SID:ANON:host_JWD_00:42-NEW", "SID%3aANON:host_JWD_00%3A42-NEW", "\"SID%3aANON%3ahost_JWD_00%3a42-NEW\""})
        void decodesAndExtractsTheServerName(String value) {
            SessionIdentifiers ids = parse("sap-contextid=" + value);
            assertThat(ids.sapContextId()).isEqualTo("SID:ANON:host_JWD_00:42-NEW");
            assertThat(ids.sapContextServer()).isEqualTo("host_JWD_00");
            assertThat(ids.isEmpty()).isFalse();
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', textBlock = """
                SID%3aANON%3ahost_%30%39_%4a%4f%4A%4F%3a42-NEW | host_09_JOJO
                SID%3aANON%3ah%21%7E%3a42-NEW                 | h!~
                """)
        void decodesEveryHexDigitAndEveryVisibleCharacter(String value, String server) {
            assertThat(parse("sap-contextid=" + value).sapContextServer()).isEqualTo(server);
        }

        @Test
        void lastFieldMayHoldColons() {
            assertThat(parse("sap-contextid=SID%3aU1%3ahost_A_01%3a42-NEW%3ax").sapContextServer())
                    .isEqualTo("host_A_01");
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "SID", "SID%3aANON%3ahost_JWD_00", "SID%3aANON%3ahost_JWD_00%3a",
                "SID%3aANON%3a%3a42-NEW", "%3aANON%3ahost%3a42", "SID%3a%3ahost%3a42", "SID%3aANON%3ahost_JWD_00%3",
                "SID%3aANON%3ahost_JWD_00%", "SID%zzANON%3ahost%3a42", "SID%3aANON%3ahost%0a%3a42",
                "SID%3aANON%3ah%C3%A4st%3a42", "SID%3aANON%3ahost%203a42", "SID ANON host 42",
                "SID%3aANON%3ahost_\u0663_00%3a42", "SID%\u0663aANON%3ahost%3a42", "SID%3aANON%3ahost%3a4%3g"})
        void malformedIsAbsent(String value) {
            SessionIdentifiers ids = parse("sap-contextid=" + value);
            assertThat(ids.sapContextServer()).isNull();
            assertThat(ids.sapContextId()).isNull();
        }

        @Test
        void firstWellFormedWins() {
            assertThat(parse("sap-contextid=bad; sap-contextid=SID%3aA%3ahost_B_00%3a1-NEW; "
                    + "sap-contextid=SID%3aA%3ahost_C_00%3a1-NEW").sapContextServer()).isEqualTo("host_B_00");
        }

        @Test
        void oneOfTheLongestLengthIsRead() {
            String head = "SID%3aANON%3ahost_JWD_00%3a";
            String longest = head + "x".repeat(SessionCookies.MAX_CONTEXT_ID_LENGTH - head.length());

            assertThat(parse("sap-contextid=" + longest).sapContextServer()).isEqualTo("host_JWD_00");
            assertThat(parse("sap-contextid=" + longest + "x").sapContextServer()).isNull();
        }

        @Test
        void tooLongIsAbsent() {
            String value = "SID%3aANON%3ahost_JWD_00%3a" + "x".repeat(SessionCookies.MAX_CONTEXT_ID_LENGTH);
            assertThat(parse("sap-contextid=" + value).sapContextServer()).isNull();
        }
    }

    @Nested
    class SapExtSid {
        @Test
        void cookieTakesPrecedenceOverPathParameter() {
            assertThat(parse(List.of("sap-ext-sid=cookieSid"), null, "pathSid").sapExtSid()).isEqualTo("cookieSid");
            assertThat(parse(List.of("x=1"), null, "pathSid").sapExtSid()).isEqualTo("pathSid");
            assertThat(parse(List.of("sap-ext-sid="), null, "pathSid").sapExtSid()).isEqualTo("pathSid");
            assertThat(parse(List.of("sap-ext-sid=a b"), null, "bad sid").sapExtSid()).isNull();
        }

        @Test
        void isKeptAsSent() {
            SessionIdentifiers ids = parse(List.of("sap-ext-sid=MTIzNDU2Nzg5MA%3d%3d"), null, null);
            assertThat(ids.sapExtSid()).isEqualTo("MTIzNDU2Nzg5MA%3d%3d");
        }

        @Test
        void firstWellFormedWins() {
            assertThat(parse("sap-ext-sid=; sap-ext-sid=one; sap-ext-sid=two").sapExtSid()).isEqualTo("one");
        }
    }

    @Nested
    class Garbage {
        @Test
        void thousandCookiesAreParsedQuickly() {
            StringBuilder header = new StringBuilder();
            for (int i = 0; i < 1_000; i++) {
                header.append("cookie").append(i).append("=value").append(i).append("; ");
            }
            header.append("JSESSIONID=last.n9");
            String text = header.toString();
            SessionIdentifiers ids = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
                SessionIdentifiers result = null;
                for (int i = 0; i < 100; i++) {
                    result = parse(text);
                }
                return result;
            });
            assertThat(ids.jsessionid()).isEqualTo("last.n9");
            assertThat(ids.jsessionidRoute()).isEqualTo("n9");
        }

        @ParameterizedTest
        @ValueSource(strings = {";", "=", "a", "a;", "a=", " ", "\"", "%", "saplb_*=(", "JSESSIONID=x;"})
        void hugeHeadersOfOneRepeatedPatternAreLinear(String unit) {
            String header = unit.repeat(200 * 1024 / unit.length());
            assertThat(header.length()).isGreaterThan(190 * 1024);
            assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
                for (int i = 0; i < 20; i++) {
                    parse(header);
                }
            });
        }

        @Test
        void hugeValuesAreRejectedQuickly() {
            String big = "x".repeat(200 * 1024);
            SessionIdentifiers ids = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> parse(
                    "JSESSIONID=" + big + "; sap-contextid=" + big + "; saplb_*=(" + big + ")1; sap-ext-sid=" + big
                            + "; JSESSIONID=ok"));
            assertThat(ids.jsessionid()).isEqualTo("ok");
            assertThat(ids.sapContextServer()).isNull();
            assertThat(ids.saplbCookies()).isEmpty();
            assertThat(ids.sapExtSid()).isNull();
        }

        @Test
        void randomGarbageNeverThrows() {
            Random random = new Random(42);
            String alphabet = "JSESSIONIDsaplb_*sap-contextidsap-ext-sid=;()%3aA: \t\"\\,.\u00e9\u0000\r\n";
            for (int i = 0; i < 20_000; i++) {
                int length = random.nextInt(120);
                StringBuilder header = new StringBuilder(length);
                for (int j = 0; j < length; j++) {
                    header.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                List<String> headers = new ArrayList<>();
                headers.add(header.toString());
                headers.add(random.nextBoolean() ? null : header.reverse().toString());
                String param = random.nextBoolean() ? null : header.substring(0, Math.min(5, header.length()));
                SessionIdentifiers ids = parse(headers, param, param);
                assertThat(ids).isNotNull();
                if (ids.jsessionid() != null) {
                    assertThat(SessionCookies.isSessionId(ids.jsessionid(), 0, ids.jsessionid().length())).isTrue();
                }
                for (SaplbCookie cookie : ids.saplbCookies()) {
                    assertThat(cookie.value()).startsWith("(" + cookie.instance() + ")").endsWith(cookie.node());
                }
            }
        }
    }
}
