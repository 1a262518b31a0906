package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.properties.RandomInput;
import org.jwd.properties.Tries;
import org.jwd.topology.Topology;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link PathNormalizer} on generated paths: whatever comes in, the answer is a normalized path or
 * a {@link BadPathException}, never another exception; a normalized path never leaves the root; the path is
 * forwarded as sent; and percent-encoding characters of a path does not change where it goes.
 *
 * <p>The generators favour what breaks normalizers: dot segments written raw and encoded, empty segments, path
 * parameters, encoded separators, broken escapes, overlong UTF-8, NUL and control characters, surrogates, and
 * very long paths. Each property runs on seeded random inputs ({@link Tries}: {@code -Djwd.seed=N} for others).
 */
class PathNormalizerPropertyTest {

    /** Pieces a hostile path is made of; any of them may follow any other. */
    private static final String[] PIECES = {
            "/", "/", "/", "//", ".", "..", "/..", "/../", "/./", "%2e", "%2E", "%2e%2e", ".%2E", "%2e.",
            "%252e%252e", ";", ";jsessionid=ABC.node1", ";x=1", "..;x=y", ";=", ";;", "=", "%", "%4", "%zz", "%G0",
            "%2F", "%2f", "%5C", "%5c", "%00", "%01", "%1f", "%7F", "%7f", "%25", "%3B", "%3b", "%3F", "%23",
            "%C3%A9", "%c3%a9", "%C3", "%A9", "%c0%af", "%c0%ae", "%e0%80%ae", "%ed%a0%80", "%F0%9F%98%80",
            "%f4%90%80%80", "%ff", "%C2%85", "%C2%A0", "\u0000", "\u0001", "\t", "\n", "\r", "\u007f", "\u0085",
            "\\", "?", "#", " ", "é", "€", "\uD83D\uDE00", "\uD800", "\uDC00", "\uFFFF", "\uFEFF", "sap", "bc", "irj",
            "a", "B", "~", "!$&'()*+,=:@", "(bD1lbiZjPTAwMQ==)"};

    @Test
    void aPathIsNormalizedOrRefusedWithBadPathExceptionOnly() {
        Tries.forAllStrings(2500, PathNormalizerPropertyTest::hostilePath, raw -> {
            try {
                NormalizedPath normalized = PathNormalizer.normalize(raw);
                assertStaysBelowTheRoot(raw, normalized);
            } catch (BadPathException e) {
                assertThat(e.rawPath()).isEqualTo(raw);
                assertThat(e.getMessage()).isNotBlank();
            }
        });
    }

    @Test
    void aPathIsForwardedAsSentAndReadTheSameEachTime() {
        Tries.forAllStrings(2500, PathNormalizerPropertyTest::hostilePath, Tries.checked(raw -> {
            NormalizedPath once;
            try {
                once = PathNormalizer.normalize(raw);
            } catch (BadPathException refused) {
                return;
            }
            NormalizedPath twice = PathNormalizer.normalize(raw);

            assertThat(once.forwardPath()).as("the forward path of %s", Tries.quote(raw)).isSameAs(raw);
            assertThat(twice).as("normalize(%s) twice", Tries.quote(raw)).isEqualTo(once);
            assertThat(twice.parameters()).isEqualTo(once.parameters());
        }));
    }

    /** A plain path and, per character, whether and how to encode it ({@link #encodeSome}). */
    record PlainPath(String plain, List<Integer> choices) {
    }

    @Test
    void percentEncodingSomeCharactersChangesNeitherThePathNorItsGroup() throws ConfigException {
        GroupResolver resolver = resolver();
        Tries.forAll(2000, random -> new PlainPath(plainPath(random), encodingChoices(random)), input -> {
            String encoded = encodeSome(input.plain(), input.choices());

            Object plainOutcome = outcome(resolver, input.plain());
            Object encodedOutcome = outcome(resolver, encoded);

            assertThat(encodedOutcome).as("%s encoded as %s", Tries.quote(input.plain()), Tries.quote(encoded))
                    .isEqualTo(plainOutcome);
        });
    }

    /** Where it goes (type, rule, prefix, group) and the normalized path; or the refusal, for '..' above the root. */
    private static Object outcome(GroupResolver resolver, String raw) {
        try {
            NormalizedPath normalized = PathNormalizer.normalize(raw);
            Classification c = resolver.classify(normalized, false);
            return Arrays.asList(normalized.path(), normalized.literalPath(), normalized.parameters(),
                    normalized.mangledParts(), c.type(), c.rule(), c.matchedPrefix(), c.groupName(), c.errorStatus());
        } catch (BadPathException e) {
            return "refused";
        }
    }

    /** Plain checks, failing with the path: AssertJ per segment would cost more than the normalizer. */
    private static void assertStaysBelowTheRoot(String raw, NormalizedPath normalized) {
        String path = normalized.path();
        String forward = normalized.forwardPath();
        String problem = null;
        if (!path.startsWith("/") || path.contains("//")) {
            problem = "path does not start with one '/' or has an empty segment";
        } else if (hasDotSegment(path, false)) {
            problem = "path has a '.' or '..' segment";
        } else if (path.chars().anyMatch(Character::isISOControl)) {
            problem = "path has a control character";
        } else if (!forward.equals(raw)) {
            problem = "the forward path is not the path as sent";
        } else if (!forward.chars().allMatch(c -> c > 0x20 && c < 0x7F && "\\\"<>^`{|}[] ".indexOf(c) < 0)) {
            problem = "the path as sent has a character outside RFC 3986's pchar, '/' and '%'";
        }
        if (problem != null) {
            throw new AssertionError(problem + ": " + BadPathException.quote(raw) + " -> " + normalized);
        }
    }

    /** Does a segment (its name, before ';' when {@code parameters}) read '.' or '..'? */
    private static boolean hasDotSegment(String path, boolean parameters) {
        int start = 1;
        while (start <= path.length()) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            int nameEnd = start;
            while (nameEnd < end && !(parameters && path.charAt(nameEnd) == ';')) {
                nameEnd++;
            }
            String name = path.substring(start, nameEnd);
            if (name.equals(".") || name.equals("..")) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /**
     * Mostly short paths of {@link #PIECES}, word-like segments, arbitrary characters and '%' escapes, with or
     * without a leading '/'; now and then a long one: a short path repeated up to 2,000 times (the parser's segment
     * stack grows), or one segment of 1,000 to 20,000 characters; and the smallest odd paths.
     */
    static String hostilePath(RandomInput random) {
        return switch (random.weighted(30, 4, 1, 1, 1)) {
            case 0 -> {
                String p = shortPath(random);
                yield p.startsWith("/") ? p : "/" + p;
            }
            case 1 -> shortPath(random);
            case 2 -> ("/" + shortPath(random)).repeat(random.between(50, 2000));
            case 3 -> {
                String s = random.chars("ab%.;", 1, 8);
                yield "/" + s.repeat(random.between(1000, 20000) / s.length() + 1);
            }
            default -> random.pick("", "/", "//", "/..", "/%2e%2e", "/.", "..", "a", "/%", "/%2", "/;");
        };
    }

    private static String shortPath(RandomInput random) {
        return random.joined(0, 24, "", () -> switch (random.weighted(6, 2, 1, 1)) {
            case 0 -> random.pick(PIECES);
            case 1 -> random.chars(RandomInput.ALPHANUMERIC + "-._~", 1, 8);
            case 2 -> random.anyChars(6);
            default -> percentEscape(random);
        });
    }

    /** A '%' escape of any byte, hex digits of either case. */
    private static String percentEscape(RandomInput random) {
        String hex = String.format(Locale.ROOT, "%%%02x", random.between(0, 255));
        return random.chance(0.5) ? hex.toUpperCase(Locale.ROOT) : hex;
    }

    /**
     * Paths a browser could send unencoded: segments of the mapping table's words (in both cases), dot segments,
     * mangled segments and pchars. No '%' (it would have to be written {@code %25} and is then not the same
     * character), no space, non-ASCII, '?', '#', '\' or control characters (refused raw: a browser encodes them).
     */
    static String plainPath(RandomInput random) {
        return "/" + random.joined(1, 8, "/", () -> random.weighted(8, 3) == 0
                ? random.pick("sap", "SAP", "bc", "BC", "gui", "public", "Public", "A", "a", "irj", "portal", "fin",
                        "x", "page.htm", "..", ".", "", "a;b=c", ";jsessionid=1", "sap(bD1lbiZjPTAwMQ==)",
                        "EMPLOYEES('A')")
                : random.chars(RandomInput.ALPHANUMERIC + "-._~!$&'()*+,=:@", 1, 10));
    }

    /** Per character of the plain path: encode it (odd) or not (even); upper or lower-case hex (the bit 2). */
    static List<Integer> encodingChoices(RandomInput random) {
        return random.listOf(0, 120, () -> random.between(0, 7));
    }

    /**
     * Percent-encodes the characters {@code choices} picks, as UTF-8, except '/', ';' and '=', which are read
     * before decoding (segment, parameter and parameter value separators: encoding them changes the path's meaning),
     * and the dots of a dot segment (encoded, it is refused, as PathNormalizer documents).
     */
    static String encodeSome(String plain, List<Integer> choices) {
        StringBuilder sb = new StringBuilder();
        int k = 0;
        for (int i = 0; i < plain.length(); ) {
            int cp = plain.codePointAt(i);
            int choice = k < choices.size() ? choices.get(k) : 0;
            k++;
            String ch = new String(Character.toChars(cp));
            if ((choice & 1) == 1 && cp != '/' && cp != ';' && cp != '=' && !inDotSegment(plain, i)) {
                for (byte b : ch.getBytes(StandardCharsets.UTF_8)) {
                    String hex = String.format(Locale.ROOT, "%%%02X", b & 0xFF);
                    sb.append((choice & 2) == 2 ? hex.toLowerCase(Locale.ROOT) : hex);
                }
            } else {
                sb.append(ch);
            }
            i += Character.charCount(cp);
        }
        return sb.toString();
    }

    /** Whether position i of the path lies in a segment whose name is '.' or '..'. */
    private static boolean inDotSegment(String path, int i) {
        int start = path.lastIndexOf('/', i) + 1;
        int end = path.indexOf('/', i);
        String segment = path.substring(start, end < 0 ? path.length() : end);
        int semicolon = segment.indexOf(';');
        String name = semicolon < 0 ? segment : segment.substring(0, semicolon);
        return name.equals(".") || name.equals("..");
    }

    private static GroupResolver resolver;

    /** ICF prefixes, an {@code icase:} entry, logon groups: built once, the properties only read it. */
    private static synchronized GroupResolver resolver() throws ConfigException {
        if (resolver == null) {
            DispatcherConfig config = ConfigReader.parse("""
                    server.a1.url = http://abap1:8000
                    server.a1.type = abap
                    server.a2.url = http://abap2:8000
                    server.a2.type = abap
                    server.a2.logon_groups = FIN
                    server.j1.url = http://java1:50000
                    server.j1.type = j2ee
                    server.j1.logon_groups = PORTAL
                    server.j2.url = http://java2:50000
                    server.j2.type = j2ee
                    icf.url_prefixes = /sap/bc/, /sap/bc/gui/, /A/, /irj/portal/fin/, /x%20y/, /%C3%A9/
                    logon_group.PORTAL.url_prefixes = /irj, /irj/portal/
                    logon_group.FIN.url_prefixes = /sap/bc/fin/, /irj/portal/fin, /fin/
                    """, "properties");
            List<String> icase = new ArrayList<>(List.of("icase:/sap/public/", "icase:/Portal/€/"));
            UrlMappingTable table = UrlMappingTable.parse(config.urlMapping().urlPrefixes()).merge(UrlMappingTable.parse(icase));
            resolver = new GroupResolver(config, Topology.of(config), () -> table);
        }
        return resolver;
    }
}
