package org.jwd.affinity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import org.jwd.properties.RandomInput;
import org.jwd.properties.Tries;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link SessionCookies} (and so of {@link SessionIdentifiers} and {@link SaplbCookie}) on
 * generated {@code Cookie} headers: any header parses without throwing and yields only well-formed identifiers
 * (malformed means absent); a well-formed {@code JSESSIONID}, {@code sap-ext-sid}, {@code sap-contextid} or
 * {@code saplb_*} cookie among arbitrary other cookies is found, whatever surrounds it. Each property runs on
 * seeded random inputs ({@link Tries}: {@code -Djwd.seed=N} for others).
 */
class SessionCookiesPropertyTest {

    /** Pieces of hostile headers, parameters and mangled parts: the special names, separators, quotes, escapes, odd characters. */
    private static final String[] PIECES = {
            "JSESSIONID", "JSESSIONID=", "jsessionid=", "sap-contextid=", "sap-ext-sid=", "saplb_*=", "saplb_=",
            "saplb_PORTAL=", "saplb_", "=", "==", ";", "; ", ";;", " ", "\t", "\"", "\"\"", ",", "\\", "%", "%3A", "%3a",
            "%zz", "%0", "%00", "%20", "%7F", "(", ")", "()", "(J2EE1)", ")(", "(J2EE1)node", ".", ".node1", ":",
            "SID:ANON:", "host_JWD_00", ":1-NEW", "\u0000", "\r\n", "é", "€", "\uD800", "\uFFFF", "abc", "X"};

    /**
     * The {@code Cookie} headers of a request (a list, its elements or both may be null), its path parameters and the
     * parts of its mangled segments.
     */
    record Request(List<String> headers, List<PathParameter> parameters, List<String> mangledParts) {
    }

    private static List<PathParameter> hostileParameters(RandomInput random) {
        List<PathParameter> parameters = new ArrayList<>();
        int n = random.weighted(3, 3, 2, 1);
        for (int i = 0; i < n; i++) {
            String name = random.pick("jsessionid", "JSESSIONID", "sap-ext-sid", "saplb_*", "saplb_PORTAL", "saplb_",
                    "x", "", hostileHeader(random));
            parameters.add(new PathParameter(name, hostileHeader(random)));
        }
        return parameters;
    }

    private static List<String> hostileMangledParts(RandomInput random) {
        List<String> parts = new ArrayList<>();
        int n = random.weighted(3, 2, 1);
        for (int i = 0; i < n; i++) {
            String text = random.chance(0.5) ? hostileHeader(random)
                    : "s=" + hostileHeader(random) + (random.chance(0.5) ? "&l=en" : "");
            String encoded = java.util.Base64.getEncoder().encodeToString(
                    text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            parts.add(random.chance(0.3) ? hostileHeader(random) : encoded.replace('/', '-'));
        }
        return parts;
    }

    @Test
    void anyHeaderParsesWithoutThrowingIntoWellFormedIdentifiers() {
        Tries.forAll(3000, random -> new Request(hostileHeaders(random), hostileParameters(random),
                hostileMangledParts(random)), request -> {
            SessionIdentifiers ids = SessionCookies.parse(request.headers(), request.parameters(),
                    request.mangledParts());

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
            SaplbCookie chosen = ids.saplbFor("PORTAL");
            assertThat(chosen == null || chosen.isAnyGroup() || chosen.group().equals("PORTAL")).isTrue();
        });
    }

    /** A well-formed identifier (one or two parts) between other cookies, pairs joined by {@code separator}. */
    record Among(String id, String id2, List<String> before, List<String> after, String separator) {
    }

    private static Among among(RandomInput random, String id, String id2) {
        return new Among(id, id2, otherCookies(random), otherCookies(random), separator(random));
    }

    @Test
    void aWellFormedJsessionidAmongOtherCookiesIsFound() {
        Tries.forAll(1500, random -> among(random, sessionId(random), null), in -> {
            SessionIdentifiers ids = SessionCookies.parse(header(in.before(), "JSESSIONID=" + in.id(), in.after(),
                    in.separator()));

            assertThat(ids.jsessionid()).isEqualTo(in.id());
            assertThat(ids.jsessionidRoute()).isEqualTo(SessionCookies.route(in.id()));
        });
    }

    @Test
    void aWellFormedSapExtSidAmongOtherCookiesIsFound() {
        Tries.forAll(1000, random -> among(random, sessionId(random), null), in -> {
            SessionIdentifiers ids = SessionCookies.parse(header(in.before(), "sap-ext-sid=\"" + in.id() + "\"",
                    in.after(), in.separator()));

            assertThat(ids.sapExtSid()).isEqualTo(in.id());
        });
    }

    /** {@code id} is the server, {@code id2} the SID. */
    @Test
    void aWellFormedSapContextidAmongOtherCookiesIsFound() {
        Tries.forAll(1000, random -> among(random, serverName(random), serverName(random)), in -> {
            String contextId = in.id2() + ":ANON:" + in.id() + ":42-NEW";
            String encoded = contextId.replace(":", "%3A");

            SessionIdentifiers ids = SessionCookies.parse(header(in.before(), "sap-contextid=" + encoded, in.after(),
                    in.separator()));

            assertThat(ids.sapContextServer()).isEqualTo(in.id());
            assertThat(ids.sapContextId()).isEqualTo(contextId);
        });
    }

    /** {@code id} is the instance, {@code id2} the node. */
    @Test
    void aWellFormedSaplbCookieAmongOtherCookiesIsFound() {
        Tries.forAll(1000, random -> among(random, serverName(random), serverName(random)), in -> {
            String instance = in.id();
            String node = in.id2();

            SessionIdentifiers ids = SessionCookies.parse(
                    header(in.before(), "saplb_*=(" + instance + ")" + node, in.after(), in.separator()));

            assertThat(ids.saplbCookies())
                    .containsExactly(new SaplbCookie("*", "(" + instance + ")" + node, instance, node));
            assertThat(ids.saplbFor("PORTAL").node()).isEqualTo(node);
        });
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
     * among the others are listed explicitly in {@link #otherCookies(RandomInput)}.
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

    /**
     * Mostly a short header of {@link #PIECES}, visible ASCII and arbitrary characters; now and then 50 to 600
     * cookies, one huge value (beyond every length limit), or the smallest odd headers.
     */
    static String hostileHeader(RandomInput random) {
        return switch (random.weighted(20, 1, 1, 1)) {
            case 0 -> random.joined(0, 30, "", () -> switch (random.weighted(6, 2, 1)) {
                case 0 -> random.pick(PIECES);
                case 1 -> random.chars(RandomInput.VISIBLE_ASCII, 0, 10);
                default -> random.anyChars(6);
            });
            case 1 -> random.joined(50, 600, ";",
                    () -> random.pick("a=1", "saplb_*=(J2EE1)n1", "JSESSIONID=", "x", "=y", " ; "));
            case 2 -> random.pick("JSESSIONID=", "sap-contextid=", "saplb_*=(", "sap-ext-sid=")
                    + random.chars("a%3A:()", 200, 3000);
            default -> random.pick("", ";", "=", " ", "\"", "JSESSIONID", "JSESSIONID=\"", "sap-contextid=%");
        };
    }

    /** Up to 3 headers, one in 20 of them {@code null}; one list in 50 is {@code null} itself. */
    static List<String> hostileHeaders(RandomInput random) {
        if (random.chance(0.02)) {
            return null;
        }
        return random.listOf(0, 3, () -> random.chance(0.05) ? null : hostileHeader(random));
    }

    /** 1 to 256 cookie-octets, often with a route suffix ({@code abc.node1}). */
    static String sessionId(RandomInput random) {
        String octets = "!#$%&'()*+-./:<=>?@[]^_`{|}~" + RandomInput.ALPHANUMERIC;
        return switch (random.weighted(3, 2, 1)) {
            case 0 -> random.chars(octets, 1, 40);
            case 1 -> random.chars(octets, 1, 40) + "." + random.chars(RandomInput.ALPHANUMERIC, 1, 12);
            default -> random.chars(octets, 41, SessionCookies.MAX_SESSION_ID_LENGTH);
        };
    }

    /** A server name, instance or SID: non-empty visible ASCII without separators, parentheses or '%'. */
    static String serverName(RandomInput random) {
        return random.chars(RandomInput.ALPHANUMERIC + "_-.", 1, 20);
    }

    private static final String[] MALFORMED_IDENTIFIERS = {
            "JSESSIONID=", "JSESSIONID=\"\"", "JSESSIONID=a b", "JSESSIONID=a,b", "JSESSIONID=\"a\\b\"",
            "JSESSIONID=é", "jsessionid=lower", "JSESSIONIDX=x", " JSESSIONID", "sap-contextid=a:b",
            "sap-contextid=%ZZ", "sap-contextid=SID:ANON::1", "sap-contextid=%3A%3A%3A", "sap-ext-sid=",
            "saplb_*=J2EE1)node", "saplb_*=(J2EE1", "saplb_*=()node", "saplb_*=((a)b", "saplb_=(a)b",
            "saplb_*=(a)(b)", "JSESSIONID=" + "x".repeat(SessionCookies.MAX_SESSION_ID_LENGTH + 1)};

    /**
     * Up to 12 other cookie pairs: ordinary ones, malformed identifiers, garbage. None can be read as an
     * identifier: such ordinary pairs and garbage are drawn again, and garbage has no ';' (it would end the pair).
     */
    static List<String> otherCookies(RandomInput random) {
        return random.listOf(0, 12, () -> switch (random.weighted(3, 2, 2)) {
            case 0 -> draw(() -> random.chars(RandomInput.ALPHANUMERIC + "-_", 1, 12) + "="
                    + random.chars(RandomInput.VISIBLE_ASCII, 0, 20));
            case 1 -> random.pick(MALFORMED_IDENTIFIERS);
            default -> draw(() -> random.joined(0, 4, "", () -> random.weighted(3, 1) == 0
                    ? random.pick(PIECES) : random.anyChars(12)).replace(";", ""));
        });
    }

    /** A pair no part of which (an ordinary value may hold a ';') names an identifier: drawn again until so. */
    private static String draw(Supplier<String> pair) {
        for (int attempt = 0; attempt < 1000; attempt++) {
            String p = pair.get();
            if (Arrays.stream(p.split(";", -1)).noneMatch(SessionCookiesPropertyTest::namesAnIdentifier)) {
                return p;
            }
        }
        throw new AssertionError("no cookie pair without an identifier in 1000 draws");
    }

    static String separator(RandomInput random) {
        return random.pick(";", "; ", " ;", ";\t", " ; ", ";;", "; ;");
    }
}
