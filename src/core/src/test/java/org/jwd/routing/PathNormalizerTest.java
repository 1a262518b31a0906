package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.jwd.affinity.PathParameter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathNormalizerTest {

    @ParameterizedTest(name = "{0} is matched as {1}")
    @CsvSource(delimiter = '|', textBlock = """
            /                                   | /
            /index.html                         | /index.html
            /sap/bc/gui/                        | /sap/bc/gui/
            /a/./b                              | /a/b
            /a/b/..                             | /a/
            /a/b/.                              | /a/b/
            /a/..                               | /
            /a/b/../../c                        | /c
            //a///b//                           | /a/b/
            /irj/../sap/bc/x                    | /sap/bc/x
            /%73ap/bc/x                         | /sap/bc/x
            /a/%252e%252e/b                     | /a/%2e%2e/b
            /a/%25                              | /a/%
            /a%20b/c                            | /a b/c
            /a/.b/c.d                           | /a/.b/c.d
            /caf%C3%A9/%e2%82%ac                | /café/€
            /a/%F0%9F%98%80                     | /a/😀
            /a/%3F%23%5B%5D                     | /a/?#[]
            /a/b;jsessionid=ABC.node1           | /a/b
            /app/;jsessionid=ABC                | /app/
            /;jsessionid=ABC                    | /
            /a;x=1;y;;z=/b                      | /a/b
            /a;x=%41%2C/b                       | /a/b
            /a;x%3D1=2/b                        | /a/b
            /a;x=1/../b;y=2                     | /b
            /a/;x=1/b                           | /a/b
            /~user/a-b_c.d!$&'()*+,=:@          | /~user/a-b_c.d!$&'()*+,=:@
            /1/2/3/4/5/6/7/8/9/10/11/12/%31%33/../x;p=1 | /1/2/3/4/5/6/7/8/9/10/11/12/x
            /1;a=1/2/3/4/5/6/7/8/9/10/../../../../../../../../../../b;c=2 | /b
            # BSP In-Depth: URL Mangling (SAP Community): /sap(bD1lbiZjPTAwMQ==)/... carries l=en&c=001
            /sap(bD1lbiZjPTAwMQ==)/bc/bsp/x     | /sap/bc/bsp/x
            /sap(bD1lbiZjPTAwMQ==);jsessionid=1/bc/bsp/x | /sap/bc/bsp/x
            /zalias(bD1kZSZjPTAwMA==)/default.htm | /zalias/default.htm
            /sap/bc/bsp/sap(x)/it00             | /sap/bc/bsp/sap/it00
            /sap%28bD1l%29/bc/x                 | /sap/bc/x
            /sap()/bc/x                         | /sap/bc/x
            /sap(not%20base64!)/bc/x            | /sap/bc/x
            /(x)/bc                             | /(x)/bc
            /x(a)y/bc                           | /x(a)y/bc
            # ABAP Development Tools' namespaced objects, OData keys: an encoded slash splits no segment
            /sap/bc/adt/oo/classes/%2Fdmo%2Fcl_flight/source/main | /sap/bc/adt/oo/classes/%2Fdmo%2Fcl_flight/source/main
            /sap/opu/odata/sap/ZSRV/EMPLOYEES('A%2FB') | /sap/opu/odata/sap/ZSRV/EMPLOYEES
            /irj/..%2fsap/x                     | /irj/..%2Fsap/x
            /a%3Bb/c                            | /a;b/c
            """)
    void aPathIsMatchedDecodedOnceAndResolvedAndForwardedAsSent(String raw, String path) throws BadPathException {
        NormalizedPath n = PathNormalizer.normalize(raw);

        assertThat(n.path()).isEqualTo(path);
        assertThat(n.forwardPath()).isEqualTo(raw);
    }

    @ParameterizedTest(name = "{0}: literal {1}, parts {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            /sap(bD1lbiZjPTAwMQ==)/bc/bsp/x     | /sap(bD1lbiZjPTAwMQ==)/bc/bsp/x | bD1lbiZjPTAwMQ==
            /sap(a)/bc/bsp/sap(b)/it00          | /sap(a)/bc/bsp/sap(b)/it00      | a b
            /sap(a)/../x(b)/y                   | /x(b)/y                         | a b
            /x/EMPLOYEES('A%2FB')               | /x/EMPLOYEES('A%2FB')           | 'A%2FB'
            """)
    void aMangledSegmentKeepsItsPartAndItsLiteralForm(String raw, String literal, String parts)
            throws BadPathException {
        NormalizedPath n = PathNormalizer.normalize(raw);

        assertThat(n.literalPath()).isEqualTo(literal);
        assertThat(n.mangledParts()).containsExactly(parts.split(" "));
    }

    /** A server that decodes before it splits reads %2F as a separator and %3B as the start of a parameter. */
    @ParameterizedTest(name = "{0} read decoded first: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            /sap/bc%2Fadmin/x                   | /sap/bc/admin/x
            /sap/bc%2fadmin/x                   | /sap/bc/admin/x
            /nwa%3Bx/y                          | /nwa/y
            /irj/..%2fnwa/x                     | /nwa/x
            /sap(bD1l)/bc%2Fadmin/x             | /sap/bc/admin/x
            """)
    void aPathThatEncodesASlashOrASemicolonIsAlsoReadDecodedFirst(String raw, String decodedFirst)
            throws BadPathException {
        assertThat(PathNormalizer.normalize(raw).decodedFirst().path()).isEqualTo(decodedFirst);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/a/b", "/a%20b", "/a%252Fb", "/a;x=1/b"})
    void aPathThatEncodesNeitherHasNoOtherReading(String raw) throws BadPathException {
        assertThat(PathNormalizer.normalize(raw).decodedFirst()).isNull();
    }

    static Stream<Arguments> badPaths() {
        return Stream.of(
                Arguments.of("", "empty path"),
                Arguments.of(null, "empty path"),
                Arguments.of("sap/bc/", "does not start with '/'"),
                Arguments.of("http://host/sap/bc/", "does not start with '/'"),
                Arguments.of("/..", "escapes the root"),
                Arguments.of("/../sap/bc/x", "escapes the root"),
                Arguments.of("/a/../..", "escapes the root"),
                Arguments.of("/a/../../b", "escapes the root"),
                Arguments.of("/%2e%2e/a", "encoded dot segment '%2e%2e'"),
                Arguments.of("/a/%2e%2E/b", "encoded dot segment"),
                Arguments.of("/a/.%2e/b", "encoded dot segment"),
                Arguments.of("/a/%2e/b", "encoded dot segment"),
                Arguments.of("/..;x=y/a", "dot segment with parameters"),
                Arguments.of("/irj/..;x=y/sap/bc", "dot segment with parameters"),
                Arguments.of("/irj/.;x=y/sap", "dot segment with parameters"),
                Arguments.of("/a//../b", "'..' after an empty segment"),
                Arguments.of("/a/b//../../c", "'..' after an empty segment"),
                Arguments.of("/a%2F..%2F..%2Fb", "read as a server that decodes %2F and %3B before it splits the"
                        + " path reads it, the path escapes the root"),
                Arguments.of("/irj/x/..%3b/..%3b/nwa", "decodes %2F and %3B before it splits the path reads it, the"
                        + " path has a dot segment with parameters"),
                Arguments.of("/irj/..%3B/nwa/x", "dot segment with parameters"),
                Arguments.of("/a/%2e%2e%2F../b", "the path segment '..%2F..' ends with a dot"),
                Arguments.of("/nwa./x", "the path segment 'nwa.' ends with a dot"),
                Arguments.of("/nwa.", "the path segment 'nwa.' ends with a dot"),
                Arguments.of("/nwa%2E/x", "the path segment 'nwa.' ends with a dot"),
                Arguments.of("/sap/bc/admin.;x=1/y", "the path segment 'admin.' ends with a dot"),
                Arguments.of("/a/.../b", "the path segment '...' ends with a dot"),
                Arguments.of("/a/..%20/b", "the path segment '.. ' ends with a space"),
                Arguments.of("/nwa%20/x", "the path segment 'nwa ' ends with a space"),
                Arguments.of("/nwa.%20./x", "ends with a dot"),
                Arguments.of("/nwa.(bD1l)/x", "the path segment 'nwa.' ends with a dot"),
                Arguments.of("/nwa/..(x)/y", "the path segment '..' ends with a dot"),
                Arguments.of("/nwa%2F./x", "the path segment 'nwa%2F.' ends with a dot"),
                Arguments.of("/nwa.%3Bx/y", "read as a server that decodes %2F and %3B before it splits the path"
                        + " reads it, the path segment 'nwa.' ends with a dot"),
                Arguments.of("/a/..%5c..%5cb", "encoded backslash"),
                Arguments.of("/a/%5C", "encoded backslash"),
                Arguments.of("/a\\b", "backslash"),
                Arguments.of("/a/..\\..\\b", "backslash"),
                Arguments.of("/a%00.htm", "encoded NUL"),
                Arguments.of("/a\u0000.htm", "NUL character"),
                Arguments.of("/a\tb", "control character"),
                Arguments.of("/a\r\nSet-Cookie: x", "control character"),
                Arguments.of("/a\u007f", "control character"),
                Arguments.of("/a\u0085", "control character"),
                Arguments.of("/a%0d%0aX:y", "encoded control character"),
                Arguments.of("/a%7f", "encoded control character"),
                Arguments.of("/a%c2%85", "encoded control character"),
                Arguments.of("/a;x=%0a", "encoded control character"),
                Arguments.of("/a%", "invalid percent-encoding"),
                Arguments.of("/a%4", "invalid percent-encoding"),
                Arguments.of("/a%4/b", "invalid percent-encoding"),
                Arguments.of("/a%zz", "invalid percent-encoding"),
                Arguments.of("/a%%41", "invalid percent-encoding"),
                Arguments.of("/a%\uff11\uff11", "invalid percent-encoding"),
                Arguments.of("/%c0%af", "not valid UTF-8"),
                Arguments.of("/a/%c0%ae%c0%ae/b", "not valid UTF-8"),
                Arguments.of("/%e0%80%af", "not valid UTF-8"),
                Arguments.of("/%f0%80%80%af", "not valid UTF-8"),
                Arguments.of("/%ed%a0%80", "not valid UTF-8"),
                Arguments.of("/%f4%90%80%80", "not valid UTF-8"),
                Arguments.of("/%c3", "not valid UTF-8"),
                Arguments.of("/%c3/%a9", "not valid UTF-8"),
                Arguments.of("/%a9", "not valid UTF-8"),
                Arguments.of("/%ff", "not valid UTF-8"),
                Arguments.of("/a?b=c", "without query"),
                Arguments.of("/a#frag", "without query"),
                Arguments.of("/caf\u00e9", "a character outside ASCII"),
                Arguments.of("/a\ud800b", "a character outside ASCII"),
                Arguments.of("/a\udc00", "a character outside ASCII"),
                Arguments.of("/a b", "the character ' ': expected it percent-encoded (%20)"),
                Arguments.of("/a|b", "the character '|'"),
                Arguments.of("/a/\"q\"", "the character '\"'"),
                Arguments.of("/a[1]", "the character '['"),
                Arguments.of("/<x>", "the character '<'"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("badPaths")
    void aHostilePathIsRefusedWithAMessageSayingWhy(String raw, String expected) {
        assertThatThrownBy(() -> PathNormalizer.normalize(raw))
                .isInstanceOf(BadPathException.class)
                .hasMessageContaining(expected);
    }

    @Test
    void theMessageOfARefusedPathCannotForgeALogLine() {
        assertThatThrownBy(() -> PathNormalizer.normalize("/a\r\nINFO forged"))
                .isInstanceOf(BadPathException.class)
                .hasMessageNotContaining("\r")
                .hasMessageNotContaining("\n")
                .hasMessageContaining("\\u000d\\u000a");
    }

    @Test
    void theMessageOfARefusedPathShowsSpacesAsTheyAreAndTheDeleteCharacterEscaped() {
        assertThatThrownBy(() -> PathNormalizer.normalize("/a b\u007f"))
                .isInstanceOf(BadPathException.class)
                .hasMessageEndingWith(": '/a b\\u007f'");
    }

    @Test
    void aMissingPathIsRefusedNamedNull() {
        assertThatThrownBy(() -> PathNormalizer.normalize(null))
                .isInstanceOf(BadPathException.class)
                .hasMessage("empty path: expected one starting with '/': null");
    }

    @ParameterizedTest(name = "{0}: {1} = {2}")
    @CsvSource(delimiter = '|', textBlock = """
            /a;jsessionid=ABC/b                        | jsessionid  | ABC
            /a;JSESSIONID=ABC/b                        | jsessionid  | ABC
            /a;jsessionid=ABC/b                        | JSessionId  | ABC
            /a;jsessionid=OLD/b;jsessionid=NEW         | jsessionid  | NEW
            /a;jsessionid=OLD;jsessionid=NEW/b         | jsessionid  | NEW
            /sap/bc/x;sap-ext-sid=A%2Bb%3D             | sap-ext-sid | A+b=
            /sap/bc/x;sap-ext-sid=one;jsessionid=two   | sap-ext-sid | one
            /a;flag/b                                  | flag        | ''
            /a;x=1/b                                   | jsessionid  |
            /a;jsessionid=SENT/../b                    | jsessionid  | SENT
            /sap/;sap-ext-sid=E1/foo/bar               | sap-ext-sid | E1
            /app/;jsessionid=ABC                       | jsessionid  | ABC
            /a/b                                       | jsessionid  |
            """)
    void aPathParameterIsTheLastOneOfThatNameIgnoringCase(String raw, String name, String value)
            throws BadPathException {
        assertThat(PathNormalizer.normalize(raw).parameter(name)).isEqualTo(value);
    }

    @Test
    void emptyPathParametersAreSkippedAndAValueWithoutANameIsKept() throws BadPathException {
        assertThat(PathNormalizer.normalize("/a;;=;=x;flag/b").parameters())
                .containsExactly(new PathParameter("", "x"), new PathParameter("flag", ""));
    }

    @ParameterizedTest(name = "{0} is root: {1}")
    @CsvSource({
            "/, true",
            "/index.html, true",
            "/;jsessionid=1, true",
            "/sap(bD1lbiZjPTAwMQ==), true",
            "/a/.., true",
            "//index.html, true",
            "/a/, false",
            "/a/b, false",
            "/sap/bc/gui, false",
    })
    void aRootPathHasASingleSlash(String raw, boolean root) throws BadPathException {
        assertThat(PathNormalizer.normalize(raw).isRoot()).isEqualTo(root);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("manyPaths")
    void aServerReadingThePathAsSentSeesThePathThatWasMatched(String raw) throws BadPathException {
        NormalizedPath n = PathNormalizer.normalize(raw);

        assertThat(n.forwardPath()).isSameAs(raw);
        assertThat(serverView(raw)).isEqualTo(n.path());
        assertThat(n.path()).startsWith("/").doesNotContain("//", "\\", "\0")
                .doesNotContain("/./", "/../").doesNotEndWith("/.").doesNotEndWith("/..");
        assertThat(PathNormalizer.normalize(raw)).isEqualTo(n);
    }

    @Test
    void randomPathsAreEitherRefusedOrReadAsAServerReadsThem() {
        Random random = new Random(20240611);
        String[] pieces = {"/", "/", "/", "a", "sap", "B", "..", ".", "%2e", "%2E", "%2e%2e", ";", ";x=y",
                ";jsessionid=S1", "=", "%25", "%252e", "%20", "%3b", "%3B", "%3d", "é", "%C3%A9", "%c3", "%41", "~",
                "(", ")", "(bD1l)", "%", "%2f", "%2F", "%5c", "\\", "%00", "+", "&", "'", " ", "%e2%82%ac", "😀",
                "[", "%7E"};
        int accepted = 0;
        for (int i = 0; i < 30_000; i++) {
            StringBuilder sb = new StringBuilder("/");
            int length = 1 + random.nextInt(12);
            for (int k = 0; k < length; k++) {
                sb.append(pieces[random.nextInt(pieces.length)]);
            }
            String raw = sb.toString();
            NormalizedPath n;
            try {
                n = PathNormalizer.normalize(raw);
            } catch (BadPathException e) {
                continue;
            }
            accepted++;
            assertThat(n.forwardPath()).as(raw).isSameAs(raw);
            assertThat(serverView(raw)).as(raw).isEqualTo(n.path());
            String decodedFirst = PathNormalizer.decodedFirst(raw);
            if (decodedFirst != null) {
                assertThat(serverView(decodedFirst)).as(raw).isEqualTo(n.decodedFirst().path());
            }
        }
        assertThat(accepted).as("enough paths survive to make the test meaningful").isGreaterThan(3_000);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/sap/bc/ui5_ui5/ui2/ushell/shells/abap/FioriLaunchpad.html", "/sap/bc/gui/", "/",
            "/a.b/c"})
    void aCanonicalPathIsReturnedAsItWasGiven(String raw) throws BadPathException {
        NormalizedPath n = PathNormalizer.normalize(raw);

        assertThat(n.path()).isSameAs(raw);
        assertThat(n.forwardPath()).isSameAs(raw);
        assertThat(n.parameters()).isEmpty();
    }

    @ParameterizedTest(name = "{0} is not {1}")
    @CsvSource(delimiter = '|', textBlock = """
            /a/b                                | /a/c
            /a/b                                | /a/b/
            /a%62                               | /ab
            /a;x=1/b                            | /a;x=2/b
            /sap(x)/b                           | /sap(y)/b
            """)
    void pathsMatchedOrSentDifferentlyAreNotEqual(String one, String other) throws BadPathException {
        assertThat(PathNormalizer.normalize(one)).isNotEqualTo(PathNormalizer.normalize(other))
                .isNotEqualTo(one);
    }

    @Test
    void aNormalizedPathSaysHowItWasSentWhenThatDiffers() throws BadPathException {
        assertThat(PathNormalizer.normalize("/a%20b;jsessionid=1"))
                .hasToString("/a b (sent as /a%20b;jsessionid=1)");
        assertThat(PathNormalizer.normalize("/a/b")).hasToString("/a/b");
    }

    static Stream<String> manyPaths() {
        List<String> paths = new ArrayList<>(List.of(
                "/", "/index.html", "/a/./b", "/a/b/..", "//a///b//", "/%73ap/bc/x",
                "/a/%252e%252e/b", "/a/%25", "/a%20b/c", "/a/.b/c.d", "/caf%C3%A9/%e2%82%ac",
                "/a/%F0%9F%98%80", "/a/%3F%23%5B%5D", "/a/b;jsessionid=ABC.node1", "/app/;jsessionid=ABC",
                "/;jsessionid=1", "/a;x=1;y;;z=/b", "/a;x=%41%2C/b", "/a;x%3D1=2/b", "/a;x=1/../b;y=2",
                "/a/;x=1/b", "/sap(bD1lbiZjPTAwMQ==)/bc/bsp/sap/x/default.htm", "/sap(a)/../x(b)/y",
                "/a;=v/b", "/a;x==y/b", "/%41a;=", "/a;=;=x", "/sap/;sap-ext-sid=E1/foo/bar",
                "/%3d/%40/%3a", "/1/2/3/4/5/6/7/8/9/10/11/12/%31%33/../x;p=1", "//a/../b",
                "/sap/bc/adt/oo/classes/%2Fdmo%2Fcl_flight/source/main", "/x/EMPLOYEES('A%2FB')", "/a%3Bb/c"));
        return paths.stream();
    }

    /**
     * How a server reads a path as sent: split on '/', cut each segment at its first ';', decode once (a decoded '/'
     * written {@code %2F}), read {@code name(...)} as {@code name}, resolve dot segments as RFC 3986 section 5.2.4
     * does (empty segments kept), then collapse empty segments. Deliberately independent of the normalizer's code.
     */
    private static String serverView(String raw) {
        List<String> out = new ArrayList<>();
        String[] segments = raw.substring(1).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            int semicolon = segment.indexOf(';');
            String name = percentDecode(semicolon < 0 ? segment : segment.substring(0, semicolon));
            int open = name.indexOf('(');
            if (name.endsWith(")") && open > 0) {
                name = name.substring(0, open);
            }
            boolean last = i == segments.length - 1;
            if (name.equals("..")) {
                if (!out.isEmpty()) {
                    out.remove(out.size() - 1);
                }
                if (last) {
                    out.add("");
                }
            } else if (name.equals(".")) {
                if (last) {
                    out.add("");
                }
            } else {
                out.add(name);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < out.size(); i++) {
            if (!out.get(i).isEmpty() || i == out.size() - 1) {
                sb.append('/').append(out.get(i));
            }
        }
        return sb.length() == 0 ? "/" : sb.toString();
    }

    private static String percentDecode(String s) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                bytes.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        return bytes.toString(StandardCharsets.UTF_8).replace("/", "%2F");
    }
}
