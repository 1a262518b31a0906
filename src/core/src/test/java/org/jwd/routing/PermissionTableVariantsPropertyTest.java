package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.jwd.runtime.Bootstrap;
import org.jwd.runtime.Dispatcher;
import org.jwd.filter.PermissionTable;
import org.jwd.properties.RandomInput;
import org.jwd.properties.Tries;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;

/**
 * Every deny and {@code S} line of the shipped {@code config/permission_table.txt}, written the ways a server
 * behind may read as that same path, is refused over plain HTTP and reaches no server (issue 17, and the URL forms
 * of issue 32: mangled segments, path parameters, encoded slashes).
 *
 * <p>A try takes one such line, makes a path it refuses (the canonical path: {@code *} filled in), and writes it
 * as a variant: characters percent-encoded (hex digits of either case); path parameters ({@code ;p=1},
 * {@code ;jsessionid=..}, {@code ;sap-ext-sid=..}); mangled segments ({@code sap(bD1l...)}, as the ICF reads them);
 * dot and empty segments; and, where the server reads case-insensitively (an ABAP path, or every path with
 * {@code jwd.permission_table_ignore_case}), letters in another case. Those must get the 403 of the line that
 * refuses the canonical path. Some variants are that same path only to a server that decodes before it splits the
 * path: an encoded '/' between two segments ({@code /sap/bc%2Fadmin/x}), an encoded {@code ;} ({@code /nwa%3Bx/y}
 * to a server that decodes, then strips parameters): those must get 403 too (by whichever line refuses them first).
 * Others are ambiguous: a {@code ..%3B} segment, a segment ending with a dot or a space (a Windows host drops
 * them): those must get 400.
 */
class PermissionTableVariantsPropertyTest {
    private static final Path CONFIG = Path.of(System.getProperty("jwd.projectDir", "..")).resolve("config").toAbsolutePath();
    private static final String LANDSCAPE = """
            server.j.url=http://127.0.0.1:9001
            server.j.type=j2ee
            server.b.url=http://127.0.0.1:9002
            server.b.https_url=https://127.0.0.1:9443
            server.b.type=abap
            icf.url_prefixes=/sap/
            wdisp/permission_table=permission_table.txt
            """;
    private static final String SEGMENT_CHARS = "abcxyz";

    /**
     * The line that refuses {@code canonical}; {@code raw} is what the client sends; 400 or 403 expected, and with
     * 403 whether by that same line ({@code sameLine}) or by any.
     */
    record Variant(String line, String canonical, String raw, int expectedStatus, boolean sameLine) {
    }

    @Test
    void everyVariantOfARefusedPathIsRefusedOverHttp() throws Exception {
        try (Bootstrap boot = Bootstrap.build(ConfigReader.parse(LANDSCAPE, "test.properties", CONFIG), null)) {
            assertEveryVariantIsRefused(boot.dispatcher(), false);
        }
    }

    @Test
    void withTheIgnoreCaseKeyEveryCaseVariantOfAJ2eePathIsRefusedToo() throws Exception {
        try (Bootstrap boot = Bootstrap.build(ConfigReader.parse(
                LANDSCAPE + "jwd.permission_table_ignore_case=true\n", "test.properties", CONFIG), null)) {
            assertEveryVariantIsRefused(boot.dispatcher(), true);
        }
    }

    private static void assertEveryVariantIsRefused(Dispatcher dispatcher, boolean ignoreCase) {
        Router router = dispatcher.state().router();
        List<PermissionTable.Rule> refusing = router.permissionTable().rules().stream()
                .filter(rule -> !rule.permits(false)).toList();
        assertThat(refusing).as("the shipped table's D and S lines").hasSizeGreaterThanOrEqualTo(6);

        Tries.forAll(3000, random -> variant(random, random.pick(refusing), ignoreCase), variant -> {
            RoutingDecision canonical = router.route(get(variant.canonical()));
            RoutingDecision decision = router.route(get(variant.raw()));

            assertThat(canonical.errorStatus()).as("the canonical path %s", variant.canonical()).isEqualTo(403);
            assertThat(decision.server()).as("%s reached a server", Tries.quote(variant)).isNull();
            assertThat(decision.errorStatus()).as("%s: %s", Tries.quote(variant), decision.errorMessage())
                    .isEqualTo(variant.expectedStatus());
            if (variant.sameLine()) {
                assertThat(decision.reason()).as(Tries.quote(variant)).isEqualTo(canonical.reason());
            }
        });
        for (String id : List.of("j", "b")) {
            assertThat(dispatcher.state().topology().server(id).served()).as("requests served by " + id).isZero();
        }
    }

    private static RoutingRequest get(String rawPath) {
        return RoutingRequest.of("GET", rawPath, null, List.of(), false);
    }

    /** A path the rule refuses (its wildcards filled in so that no earlier line permits it), then a variant. */
    static Variant variant(RandomInput random, PermissionTable.Rule rule, boolean ignoreCase) {
        String canonical = (rule.anyStart() ? random.pick("/a", "/x/y", "/sap/bc/y", "/webdynpro/a/b", "/nwa/z")
                : "") + rule.literal() + (rule.anyEnd() ? random.pick("", "x", "x/y", "start", "sap/its/webgui") : "");
        // the URL mapping table has /sap/: those paths are ABAP, read regardless of case by the ICF
        boolean foldsCase = ignoreCase || canonical.regionMatches(true, 0, "/sap/", 0, 5);
        Written written = new Written();
        String[] segments = canonical.substring(1).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            written.before(random);
            // an encoded slash instead of this segment's '/': one segment to jwd, two to a server decoding first
            written.raw.append(i > 0 && !segment.isEmpty() && !segments[i - 1].isEmpty() && random.chance(0.08)
                    ? written.decodedFirst(random.pick("%2F", "%2f")) : "/");
            for (char c : segment.toCharArray()) {
                char w = foldsCase && Character.isLetter(c) && random.chance(0.4) ? flipCase(c) : c;
                if (random.chance(0.2)) {
                    String hex = String.format(Locale.ROOT, "%%%02X", (int) w);
                    written.raw.append(random.chance(0.5) ? hex.toLowerCase(Locale.ROOT) : hex);
                } else {
                    written.raw.append(w);
                }
            }
            if (!segment.isEmpty()) {
                written.after(random);
            }
        }
        return new Variant(rule.toString(), canonical, written.raw.toString(), written.ambiguous ? 400 : 403,
                !written.ambiguous && !written.decodedFirst);
    }

    /** A variant as it is written, and what its writing makes of it. */
    private static final class Written {
        final StringBuilder raw = new StringBuilder();
        /** Some server reads it as another path than the canonical one: refused as such (400). */
        boolean ambiguous;
        /** Only a server that decodes before it splits reads it as the canonical path: refused by some line. */
        boolean decodedFirst;

        String decodedFirst(String text) {
            decodedFirst = true;
            return text;
        }

        /** Dot and empty segments before a segment. */
        void before(RandomInput random) {
            switch (random.weighted(10, 1, 1, 1, 1)) {
                case 1 -> raw.append("/.");
                case 2 -> raw.append('/').append(random.chars(SEGMENT_CHARS, 1, 4)).append("/..");
                case 3 -> raw.append('/');
                case 4 -> {
                    // /q/..%3B/nwa: a server that decodes, strips ";..." and then resolves reads /nwa
                    raw.append('/').append(random.chars(SEGMENT_CHARS, 1, 4)).append("/..")
                            .append(random.pick("%3B", "%3b")).append(random.chars(SEGMENT_CHARS, 0, 2));
                    ambiguous = true;
                }
                default -> {
                }
            }
        }

        /** Parameters, a mangled part, or an ending some server reads otherwise, after a segment's name. */
        void after(RandomInput random) {
            switch (random.weighted(12, 2, 1, 1, 1, 1, 1)) {
                case 1 -> raw.append(random.pick(";p=1", ";jsessionid=S1", ";x", ";sap-ext-sid=E1", ";saplb_*=(J2EE1)2"));
                case 2 -> {
                    // /nwa%3Bx/y: a server that decodes, then strips ";x", reads /nwa/y
                    raw.append(decodedFirst(random.pick("%3B", "%3b"))).append(random.chars(SEGMENT_CHARS, 0, 3));
                }
                case 3 -> {
                    // /nwa./x, /nwa%20/x: a Windows host drops trailing dots and spaces
                    raw.append(random.pick(".", "%2E", "%2e", "%20", ".%20", "..", "%20."));
                    ambiguous = true;
                }
                case 4 -> raw.append(random.pick(";p=1", ";x")).append(decodedFirst(random.pick("%3B", "%3b")))
                        .append('y');
                case 5 -> raw.append(random.pick("(bD1lbiZjPTAwMQ==)", "(cz1TSUQlM2FBTk9O)", "()", "(x%20y)",
                        "%28bD1l%29", "(not*base64)"));
                case 6 -> raw.append(random.pick("(bD1l)", "()")).append(random.pick(";jsessionid=S1", ";p=1"));
                default -> {
                }
            }
        }
    }

    private static char flipCase(char c) {
        return Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
    }
}
