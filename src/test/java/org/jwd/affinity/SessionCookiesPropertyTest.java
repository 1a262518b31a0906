package org.jwd.affinity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Properties of {@link SessionCookies} (and so of {@link SessionIdentifiers} and {@link SaplbCookie}) on
 * generated {@code Cookie} headers: any header parses without throwing and yields only well-formed identifiers
 * (malformed means absent); a well-formed {@code JSESSIONID}, {@code sap-ext-sid}, {@code sap-contextid} or
 * {@code saplb_*} cookie among arbitrary other cookies is found, whatever surrounds it.
 */
class SessionCookiesPropertyTest {

    /** Pieces of hostile headers: the special names, separators, quotes, escapes, odd characters. */
    private static final String[] PIECES = {
            "JSESSIONID", "JSESSIONID=", "jsessionid=", "sap-contextid=", "sap-ext-sid=", "saplb_*=", "saplb_=",
            "saplb_PORTAL=", "saplb_", "=", "==", ";", "; ", ";;", " ", "\t", "\"", "\"\"", ",", "\\", "%", "%3A", "%3a",
            "%zz", "%0", "%00", "%20", "%7F", "(", ")", "()", "(J2EE1)", ")(", "(J2EE1)node", ".", ".node1", ":",
            "SID:ANON:", "host_JWD_00", ":1-NEW", "\u0000", "\r\n", "é", "€", "\uD800", "\uFFFF", "abc", "X"};

    @Property(tries = 3000)
    void anyHeaderParsesWithoutThrowingIntoWellFormedIdentifiers(@ForAll("hostileHeaders") List<String> headers,
                                                                @ForAll("hostileHeader") String jsessionidParam) {
        SessionIdentifiers ids = SessionCookies.parse(headers, jsessionidParam, jsessionidParam);

        assertThat(ids).isNotNull();
        if (ids.jsessionid() != null) {
            assertThat(isSessionId(ids.jsessionid())).as("JSESSIONID %s", ids.jsessionid()).isTrue();
            assertThat(ids.jsessionidRoute()).isEqualTo(SessionCookies.route(ids.jsessionid()));
        } else {
            assertThat(ids.jsessionidRoute()).isNull();
        }
        if (ids.sapExtSid() != null) {
            assertThat(isSessionId(ids.sapExtSid())).as("sap-ext-sid %s", ids.sapExtSid()).isTrue();
        }
        assertThat(ids.sapContextServer() == null).isEqualTo(ids.sapContextId() == null);
        if (ids.sapContextId() != null) {
            assertThat(ids.sapContextServer()).isNotEmpty();
            assertThat(ids.sapContextId()).contains(":" + ids.sapContextServer() + ":");
            assertThat(ids.sapContextId().chars().allMatch(c -> c > 0x20 && c < 0x7F)).isTrue();
        }
        assertThat(ids.saplbCookies()).hasSizeLessThanOrEqualTo(SessionCookies.MAX_SAPLB_COOKIES);
        for (SaplbCookie saplb : ids.saplbCookies()) {
            assertThat(saplb.group()).isNotEmpty();
            assertThat(saplb.instance()).isNotEmpty().doesNotContain("(", ")");
            assertThat(saplb.node()).doesNotContain("(", ")");
            assertThat(saplb.value()).isEqualTo("(" + saplb.instance() + ")" + saplb.node());
        }
        assertThat(ids.isEmpty()).isEqualTo(ids.equals(SessionIdentifiers.NONE));
        ids.saplbMatch(lbId -> lbId.length() % 2 == 0);
        ids.saplbMatch("PORTAL", lbId -> true);
    }

    @Property(tries = 1500)
    void aWellFormedJsessionidAmongOtherCookiesIsFound(@ForAll("sessionIds") String id,
                                                      @ForAll("otherCookies") List<String> before,
                                                      @ForAll("otherCookies") List<String> after,
                                                      @ForAll("separators") String separator) {
        SessionIdentifiers ids = SessionCookies.parse(header(before, "JSESSIONID=" + id, after, separator));

        assertThat(ids.jsessionid()).isEqualTo(id);
        assertThat(ids.sessionTableKey()).isEqualTo(id);
        assertThat(ids.jsessionidRoute()).isEqualTo(SessionCookies.route(id));
    }

    @Property(tries = 1000)
    void aWellFormedSapExtSidAmongOtherCookiesIsFound(@ForAll("sessionIds") String id,
                                                     @ForAll("otherCookies") List<String> before,
                                                     @ForAll("otherCookies") List<String> after,
                                                     @ForAll("separators") String separator) {
        SessionIdentifiers ids = SessionCookies.parse(header(before, "sap-ext-sid=\"" + id + "\"", after, separator));

        assertThat(ids.sapExtSid()).isEqualTo(id);
    }

    @Property(tries = 1000)
    void aWellFormedSapContextidAmongOtherCookiesIsFound(@ForAll("serverNames") String server,
                                                        @ForAll("serverNames") String sid,
                                                        @ForAll("otherCookies") List<String> before,
                                                        @ForAll("otherCookies") List<String> after,
                                                        @ForAll("separators") String separator) {
        String contextId = sid + ":ANON:" + server + ":42-NEW";
        String encoded = contextId.replace(":", "%3A");

        SessionIdentifiers ids = SessionCookies.parse(header(before, "sap-contextid=" + encoded, after, separator));

        assertThat(ids.sapContextServer()).isEqualTo(server);
        assertThat(ids.sapContextId()).isEqualTo(contextId);
    }

    @Property(tries = 1000)
    void aWellFormedSaplbCookieAmongOtherCookiesIsFound(@ForAll("serverNames") String instance,
                                                       @ForAll("serverNames") String node,
                                                       @ForAll("otherCookies") List<String> before,
                                                       @ForAll("otherCookies") List<String> after,
                                                       @ForAll("separators") String separator) {
        SessionIdentifiers ids = SessionCookies.parse(
                header(before, "saplb_*=(" + instance + ")" + node, after, separator));

        assertThat(ids.saplbCookies()).containsExactly(new SaplbCookie("*", "(" + instance + ")" + node, instance, node));
        assertThat(ids.saplbMatch("PORTAL", node::equals)).hasValue(node);
    }

    private static String header(List<String> before, String cookie, List<String> after, String separator) {
        List<String> all = new ArrayList<>(before);
        all.add(cookie);
        all.addAll(after);
        return String.join(separator, all);
    }

    // ---------------------------------------------------------------------------------------------------------
    // The oracle, written from RFC 6265 and the class comment, not from the parser.

    private static boolean isSessionId(String s) {
        if (s.isEmpty() || s.length() > SessionCookies.MAX_SESSION_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x21 || c > 0x7E || c == '"' || c == ',' || c == ';' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    /**
     * Could this cookie pair be read as one of the identifiers the properties look for? Such pairs are kept out
     * of the "other cookies": the first well-formed one wins, so a second well-formed JSESSIONID would hide ours.
     * Generous on purpose: a pair named like an identifier (after trimming blanks) is out unless its value is
     * malformed for sure (empty, or a character outside visible ASCII); the malformed ones the properties want
     * among the others are listed explicitly in {@link #otherCookies()}.
     */
    private static boolean namesAnIdentifier(String pair) {
        int eq = pair.indexOf('=');
        if (eq < 0) {
            return false;
        }
        String name = pair.substring(0, eq).strip();
        String value = pair.substring(eq + 1).strip();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        boolean surelyMalformed = value.isEmpty() || value.chars().anyMatch(c -> c < 0x21 || c > 0x7E);
        return !surelyMalformed && (name.equals("JSESSIONID") || name.equals("sap-ext-sid")
                || name.equals("sap-contextid") || name.startsWith("saplb_"));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Generators.

    @Provide
    Arbitrary<String> hostileHeader() {
        Arbitrary<String> piece = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of(PIECES)),
                Tuple.of(2, Arbitraries.strings().withCharRange('!', '~').ofMaxLength(10)),
                Tuple.of(1, Arbitraries.strings().all().ofMaxLength(6)));
        Arbitrary<String> shortHeader = piece.list().ofMaxSize(30).map(list -> String.join("", list));
        // long headers: many cookies, or one huge value (beyond every length limit)
        Arbitrary<String> manyCookies = Arbitraries.of("a=1", "saplb_*=(J2EE1)n1", "JSESSIONID=", "x", "=y", " ; ")
                .list().ofMinSize(50).ofMaxSize(600).map(list -> String.join(";", list));
        Arbitrary<String> hugeValue = Arbitraries.of("JSESSIONID=", "sap-contextid=", "saplb_*=(", "sap-ext-sid=")
                .flatMap(name -> Arbitraries.strings().withChars("a%3A:()").ofMinLength(200).ofMaxLength(3000)
                        .map(v -> name + v));
        return Arbitraries.frequencyOf(
                Tuple.of(20, shortHeader),
                Tuple.of(1, manyCookies),
                Tuple.of(1, hugeValue),
                Tuple.of(1, Arbitraries.of("", ";", "=", " ", "\"", "JSESSIONID", "JSESSIONID=\"", "sap-contextid=%")));
    }

    @Provide
    Arbitrary<List<String>> hostileHeaders() {
        return hostileHeader().injectNull(0.05).list().ofMinSize(0).ofMaxSize(3);
    }

    /**
     * 1 to 256 cookie-octets, often with a route suffix ({@code abc.node1}). The long ones are built by repetition:
     * generating 256 characters one by one costs jqwik far more than the parser.
     */
    @Provide
    Arbitrary<String> sessionIds() {
        Arbitrary<String> octets = Arbitraries.strings()
                .withChars("!#$%&'()*+-./:<=>?@[]^_`{|}~").alpha().numeric().ofMinLength(1).ofMaxLength(40);
        String allOctets = "!#$%&'()*+-./0123456789:<=>?@ABCXYZ[]^_`abcxyz{|}~";
        Arbitrary<String> long_ = Arbitraries.integers().between(41, SessionCookies.MAX_SESSION_ID_LENGTH)
                .map(n -> allOctets.repeat(n / allOctets.length() + 1).substring(0, n));
        return Arbitraries.frequencyOf(
                Tuple.of(3, octets),
                Tuple.of(2, Combinators.combine(octets, Arbitraries.strings().alpha().numeric().ofMinLength(1)
                        .ofMaxLength(12)).as((id, route) -> id + "." + route)),
                Tuple.of(1, long_));
    }

    /** A server name, instance or SID: non-empty visible ASCII without separators, parentheses or '%'. */
    @Provide
    Arbitrary<String> serverNames() {
        return Arbitraries.strings().alpha().numeric().withChars("_-.").ofMinLength(1).ofMaxLength(20);
    }

    /** Other cookie pairs: ordinary ones, malformed identifiers, garbage; never a ';' (it would end the pair). */
    @Provide
    Arbitrary<List<String>> otherCookies() {
        Arbitrary<String> ordinary = Combinators.combine(
                Arbitraries.strings().alpha().numeric().withChars("-_").ofMinLength(1).ofMaxLength(12),
                Arbitraries.strings().withCharRange('!', '~').ofMaxLength(20))
                .as((name, value) -> name + "=" + value);
        Arbitrary<String> malformedIdentifiers = Arbitraries.of(
                "JSESSIONID=", "JSESSIONID=\"\"", "JSESSIONID=a b", "JSESSIONID=a,b", "JSESSIONID=\"a\\b\"",
                "JSESSIONID=é", "jsessionid=lower", "JSESSIONIDX=x", " JSESSIONID", "sap-contextid=a:b",
                "sap-contextid=%ZZ", "sap-contextid=SID:ANON::1", "sap-contextid=%3A%3A%3A", "sap-ext-sid=",
                "saplb_*=J2EE1)node", "saplb_*=(J2EE1", "saplb_*=()node", "saplb_*=((a)b", "saplb_=(a)b",
                "saplb_*=(a)(b)", "JSESSIONID=" + "x".repeat(SessionCookies.MAX_SESSION_ID_LENGTH + 1));
        Arbitrary<String> garbage = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(PIECES)),
                Tuple.of(1, Arbitraries.strings().all().ofMaxLength(12)))
                .list().ofMaxSize(4).map(list -> String.join("", list));
        return Arbitraries.frequencyOf(
                        Tuple.of(3, ordinary.filter(pair -> !namesAnIdentifier(pair))),
                        Tuple.of(2, malformedIdentifiers),
                        Tuple.of(2, garbage.map(pair -> pair.replace(";", "")).filter(pair -> !namesAnIdentifier(pair))))
                .list().ofMaxSize(12);
    }

    @Provide
    Arbitrary<String> separators() {
        return Arbitraries.of(";", "; ", " ;", ";\t", " ; ", ";;", "; ;");
    }
}
