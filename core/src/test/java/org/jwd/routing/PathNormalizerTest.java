package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class PathNormalizerTest {

    @ParameterizedTest(name = "{0} is matched as {1} and forwarded as {2}")
    @CsvSource(delimiter = '|', textBlock = """
            /                                   | /                       | /
            /index.html                         | /index.html             | /index.html
            /sap/bc/gui/                        | /sap/bc/gui/            | /sap/bc/gui/
            /sap(bD1lbiZjPTAwMQ==)/bc/bsp/x     | /sap(bD1lbiZjPTAwMQ==)/bc/bsp/x | /sap(bD1lbiZjPTAwMQ==)/bc/bsp/x
            /a/./b                              | /a/b                    | /a/b
            /a/b/..                             | /a/                     | /a/
            /a/b/.                              | /a/b/                   | /a/b/
            /a/..                               | /                       | /
            /a/b/../../c                        | /c                      | /c
            //a///b//                           | /a/b/                   | /a/b/
            /irj/../sap/bc/x                    | /sap/bc/x               | /sap/bc/x
            /irj/..;x=y/sap/bc                  | /sap/bc                 | /sap/bc
            /irj/.;x=y/sap                      | /irj/sap                | /irj/sap
            /%73ap/bc/x                         | /sap/bc/x               | /sap/bc/x
            /a/%2e%2E/b                         | /b                      | /b
            /a/.%2e/b                           | /b                      | /b
            /a/%2e/b                            | /a/b                    | /a/b
            /a/%252e%252e/b                     | /a/%2e%2e/b             | /a/%252e%252e/b
            /a/%25                              | /a/%                    | /a/%25
            /a%20b/c                            | /a b/c                  | /a%20b/c
            /a/.b/c.d                           | /a/.b/c.d               | /a/.b/c.d
            /caf%C3%A9/%e2%82%ac                | /café/€                 | /caf%C3%A9/%E2%82%AC
            /café                               | /café                   | /caf%C3%A9
            /a/%F0%9F%98%80                     | /a/😀                   | /a/%F0%9F%98%80
            /a/%3F%23%5B%5D                     | /a/?#[]                 | /a/%3F%23%5B%5D
            /a/b;jsessionid=ABC.node1           | /a/b                    | /a/b;jsessionid=ABC.node1
            /app/;jsessionid=ABC                | /app/                   | /app/;jsessionid=ABC
            /;jsessionid=ABC                    | /                       | /;jsessionid=ABC
            /a;x=1;y;;z=/b                      | /a/b                    | /a;x=1;y;z/b
            /a;x=%41%2C/b                       | /a/b                    | /a;x=A,/b
            /a;x%3D1=2/b                        | /a/b                    | /a;x%3D1=2/b
            /a;x=1/../b;y=2                     | /b                      | /b;y=2
            /a/;x=1/b                           | /a/b                    | /a/b
            /~user/a-b_c.d!$&'()*+,=:@          | /~user/a-b_c.d!$&'()*+,=:@ | /~user/a-b_c.d!$&'()*+,=:@
            /1/2/3/4/5/6/7/8/9/10/11/12/%31%33/../x;p=1 | /1/2/3/4/5/6/7/8/9/10/11/12/x | /1/2/3/4/5/6/7/8/9/10/11/12/x;p=1
            /1;a=1/2/3/4/5/6/7/8/9/10/../../../../../../../../../%2E%2E/b;c=2 | /b | /b;c=2
            """)
    void aPathIsDecodedOnceResolvedAndReEncodedCanonically(String raw, String path, String forward)
            throws BadPathException {
        NormalizedPath n = PathNormalizer.normalize(raw);

        assertThat(n.path()).isEqualTo(path);
        assertThat(n.forwardPath()).isEqualTo(forward);
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
                Arguments.of("/%2e%2e/a", "escapes the root"),
                Arguments.of("/..;x=y/a", "escapes the root"),
                Arguments.of("/irj/..%2fsap/x", "encoded slash"),
                Arguments.of("/IRJ/..%2Fsap/x", "encoded slash"),
                Arguments.of("/a%2fb", "encoded slash"),
                Arguments.of("/nwa%3bx/y", "encoded semicolon (%3B)"),
                Arguments.of("/nwa%3B/x", "encoded semicolon (%3B)"),
                Arguments.of("/sap/bc/admin%3b/x", "encoded semicolon (%3B)"),
                Arguments.of("/irj/x/..%3b/..%3b/nwa", "encoded semicolon (%3B)"),
                Arguments.of("/irj/..%3B/nwa/x", "encoded semicolon (%3B)"),
                Arguments.of("/a;x=%3b", "encoded semicolon (%3B)"),
                Arguments.of("/nwa./x", "the path segment 'nwa.' ends with a dot"),
                Arguments.of("/nwa.", "the path segment 'nwa.' ends with a dot"),
                Arguments.of("/nwa%2E/x", "the path segment 'nwa.' ends with a dot"),
                Arguments.of("/sap/bc/admin.;x=1/y", "the path segment 'admin.' ends with a dot"),
                Arguments.of("/a/.../b", "the path segment '...' ends with a dot"),
                Arguments.of("/a/..%20/b", "the path segment '.. ' ends with a space"),
                Arguments.of("/nwa%20/x", "the path segment 'nwa ' ends with a space"),
                Arguments.of("/nwa.%20./x", "ends with a dot"),
                Arguments.of("/a;x=%2f", "encoded slash"),
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
                Arguments.of("/a\ud800b", "unpaired surrogate"),
                Arguments.of("/a\udc00", "unpaired surrogate"));
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
            /a;jsessionid=GONE/../b                    | jsessionid  |
            /app/;jsessionid=ABC                       | jsessionid  | ABC
            /a/b                                       | jsessionid  |
            """)
    void aPathParameterIsTheLastOneOfThatNameIgnoringCase(String raw, String name, String value)
            throws BadPathException {
        assertThat(PathNormalizer.normalize(raw).parameter(name)).isEqualTo(value);
    }

    @ParameterizedTest(name = "{0} is root: {1}")
    @CsvSource({
            "/, true",
            "/index.html, true",
            "/;jsessionid=1, true",
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
    void normalizingTheForwardPathAgainGivesTheSameResult(String raw) throws BadPathException {
        NormalizedPath once = PathNormalizer.normalize(raw);

        assertThat(PathNormalizer.normalize(once.forwardPath())).isEqualTo(once);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("manyPaths")
    void aServerDecodingTheForwardPathOnceSeesExactlyThePathThatWasRouted(String raw) throws BadPathException {
        NormalizedPath n = PathNormalizer.normalize(raw);

        assertThat(n.forwardPath()).matches("(/([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-F]{2})*)+");
        assertThat(serverView(n.forwardPath())).isEqualTo(n.path());
        assertThat(n.path()).startsWith("/").doesNotContain("//", "\\", "\0")
                .doesNotContain("/./", "/../").doesNotEndWith("/.").doesNotEndWith("/..");
    }

    @Test
    void randomPathsAreEitherRefusedOrNormalizedIdempotentlyAndFaithfully() {
        Random random = new Random(20240611);
        String[] pieces = {"/", "/", "/", "a", "sap", "B", "..", ".", "%2e", "%2E", "%2e%2e", ";", ";x=y",
                ";jsessionid=S1", "=", "%25", "%252e", "%20", "%3b", "%3B", "%3d", "é", "%C3%A9", "%c3", "%41", "~",
                "(", ")", "%", "%2f", "%5c", "\\", "%00", "+", "&", "'", " ", "%e2%82%ac", "😀", "[", "%7E"};
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
            try {
                assertThat(PathNormalizer.normalize(n.forwardPath())).as(raw).isEqualTo(n);
            } catch (BadPathException e) {
                throw new AssertionError("forward path of " + raw + " was refused: " + e.getMessage(), e);
            }
            assertThat(serverView(n.forwardPath())).as(raw).isEqualTo(n.path());
        }
        assertThat(accepted).as("enough paths survive to make the test meaningful").isGreaterThan(3_000);
    }

    @Test
    void aCanonicalPathIsReturnedAsItWasGiven() throws BadPathException {
        String raw = "/sap/bc/ui5_ui5/ui2/ushell/shells/abap/FioriLaunchpad.html";

        NormalizedPath n = PathNormalizer.normalize(raw);

        assertThat(n.path()).isSameAs(raw);
        assertThat(n.forwardPath()).isSameAs(raw);
        assertThat(n.parameters()).isEmpty();
    }

    @Test
    void aNormalizedPathSaysWhereItIsForwardedWhenThatDiffers() throws BadPathException {
        assertThat(PathNormalizer.normalize("/a%20b;jsessionid=1"))
                .hasToString("/a b (forwarded as /a%20b;jsessionid=1)");
        assertThat(PathNormalizer.normalize("/a/b")).hasToString("/a/b");
    }

    static Stream<String> manyPaths() {
        List<String> paths = new ArrayList<>(List.of(
                "/", "/index.html", "/a/./b", "/a/b/..", "//a///b//", "/irj/..;x=y/sap/bc", "/%73ap/bc/x",
                "/a/%252e%252e/b", "/a/%25", "/a%20b/c", "/a/.b/c.d", "/caf%C3%A9/%e2%82%ac", "/café",
                "/a/%F0%9F%98%80", "/a/%3F%23%5B%5D", "/a/b;jsessionid=ABC.node1", "/app/;jsessionid=ABC",
                "/;jsessionid=1", "/a;x=1;y;;z=/b", "/a;x=%41%2C/b", "/a;x%3D1=2/b", "/a;x=1/../b;y=2",
                "/a/;x=1/b", "/a b/\"q\"/<x>|{y}^`", "/sap(bD1lbiZjPTAwMQ==)/bc/bsp/sap/x/default.htm",
                "/a;=v/b", "/a;x==y/b", "/x/%2e/%2e%2e/y/..", "/%41a;=", "/a;=;=x", "/x/%2e%2e;a=b/y",
                "/%3d/%40/%3a", "/1/2/3/4/5/6/7/8/9/10/11/12/%31%33/../x;p=1"));
        return paths.stream();
    }

    /**
     * What a server does with a forwarded path: split on '/', cut each segment at its first ';', decode
     * once. Deliberately independent of the normalizer's code.
     */
    private static String serverView(String forwardPath) {
        StringBuilder sb = new StringBuilder();
        for (String segment : forwardPath.substring(1).split("/", -1)) {
            int semicolon = segment.indexOf(';');
            String name = semicolon < 0 ? segment : segment.substring(0, semicolon);
            sb.append('/').append(percentDecode(name));
        }
        return sb.toString();
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
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
