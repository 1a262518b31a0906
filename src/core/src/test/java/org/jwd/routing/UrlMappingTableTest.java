package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.jwd.filter.PermissionTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UrlMappingTableTest {

    /** {@code entries} is a space-separated list; an empty {@code match} means the path is not ABAP. */
    @ParameterizedTest(name = "with [{0}] {1} is covered by {2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            /A/                               | /A/B/page.htm         | /A/
            /A/ /A/B/                         | /A/B/page.htm         | /A/B/
            /A/                               | /A                    | /A/
            /A/                               | /A/                   | /A/
            /A/                               | /AB/page.htm          | -
            /A/B/                             | /A/page.htm           | -
            /sap/bc/gui/                      | /sap/bc/gui           | /sap/bc/gui/
            /sap/bc/gui/                      | /sap/bc/gui/sdn/x     | /sap/bc/gui/
            /sap/bc/gui/                      | /sap/bc/guix          | -
            /sap/bc/gui/                      | /sap/bc/              | -
            /logon/                           | /logonx/              | -
            /logon/                           | /logonx               | -
            /logon/                           | /logon/x              | /logon/
            /logon                            | /logon/x              | /logon/
            /logon                            | /logonx               | -
            /sap/bc/                          | /SAP/BC/x             | /sap/bc/
            /sap/bc/                          | /sap/BC/x             | /sap/bc/
            /SAP/BC/                          | /sap/bc/x             | /SAP/BC/
            case:/sap/bc/                     | /SAP/BC/x             | -
            CASE:/sap/bc/                     | /sap/bc/x             | case:/sap/bc/
            icase:/sap/bc/                    | /SAP/BC/x             | /sap/bc/
            ICASE:/sap/bc/                    | /Sap/Bc               | /sap/bc/
            /straße/                          | /STRASSE/x            | -
            /café/                            | /CAFÉ/x               | /café/
            /sap/ /sap/bc/ /sap/bc/bsp/       | /sap/bc/bsp/sap/x.htm | /sap/bc/bsp/
            /sap/ /sap/bc/ /sap/bc/bsp/       | /sap/bc/webdynpro/x   | /sap/bc/
            /sap/ case:/sap/bc/               | /sap/BC/x             | /sap/
            /sap/bc/ case:/sap/bc/            | /sap/bc/x             | case:/sap/bc/
            /sap/bc/ case:/sap/bc/            | /sap/BC/x             | /sap/bc/
            /%73ap/bc/                        | /sap/bc/x             | /sap/bc/
            /sap//bc/./x/../                  | /sap/bc/x             | /sap/bc/
            /caf%C3%A9/                       | /café/menu            | /café/
            /a/b/c/d/e/f/                     | /a/b/c                | -
            """)
    void aPathIsAbapWhenAnEntryIsAPrefixOfThePathPlusSlash(String entries, String path, String expected) {
        UrlMappingTable table = UrlMappingTable.parse(Arrays.asList(entries.split(" ")));

        UrlPrefix match = table.match(path);

        assertThat(match == null ? null : match.toString()).isEqualTo(expected);
        assertThat(table.isAbap(path)).isEqualTo(expected != null);
    }

    @ParameterizedTest(name = "{0} is refused")
    @CsvSource(delimiter = '|', textBlock = """
            sap/bc/          | expected a path starting with '/'
            icase:sap/bc/    | expected a path starting with '/'
            ''               | expected a path starting with '/'
            /sap/../../x/    | escapes the root
            /sap/%2e%2e/     | encoded dot segment
            /sap/%zz/        | invalid percent-encoding
            """)
    void anInvalidEntryIsRefusedNamingIt(String entry, String message) {
        assertThatThrownBy(() -> UrlMappingTable.parse(List.of(entry)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("URL prefix '" + entry + "'")
                .hasMessageContaining(message);
    }

    @Test
    void theUrlFilterFoldsEveryCharacterAsPrefixesAreMatched() {
        // the filter reads an ABAP path regardless of case; it must call the same paths one as this table does
        for (char c = 0; c < Character.MAX_VALUE; c++) {
            assertThat(PermissionTable.fold(String.valueOf(c)).charAt(0))
                    .as("U+%04X", (int) c).isEqualTo(UrlPrefix.fold(c));
        }
    }

    @Test
    void mergingKeepsEachPrefixOnceInTheOrderGiven() {
        UrlMappingTable file = UrlMappingTable.parse(List.of("/sap/bc/", "/logon/"));
        UrlMappingTable loaded = UrlMappingTable.parse(List.of("/sap/bc", "case:/sap/public/", "/logon/"));

        UrlMappingTable merged = file.merge(loaded);

        assertThat(merged.entries()).extracting(UrlPrefix::toString)
                .containsExactly("/sap/bc/", "/logon/", "case:/sap/public/");
        assertThat(merged).isEqualTo(UrlMappingTable.parse(List.of("case:/sap/public/", "/logon/", "/sap/bc/")));
        assertThat(merged).hasToString("UrlMappingTable(3 entries: /sap/bc/, /logon/, case:/sap/public/)");
        assertThat(file.merge(UrlMappingTable.EMPTY)).isSameAs(file);
        assertThat(UrlMappingTable.EMPTY.merge(loaded)).isSameAs(loaded);
    }

    @Test
    void anEmptyTableCoversNothing() {
        assertThat(UrlMappingTable.EMPTY.match("/sap/bc/x")).isNull();
        assertThat(UrlMappingTable.EMPTY.size()).isZero();
    }

    @ParameterizedTest(name = "the entry {0} is refused")
    @ValueSource(strings = {"/", "icase:/", "ICASE:/", "//", "/./", "/sap/..", "/sap(bD1l)/.."})
    void anEntryCoveringEveryUrlIsRefusedNamingIt(String entry) {
        assertThatThrownBy(() -> UrlMappingTable.parse(List.of("/sap/bc/", entry)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("URL prefix '/' refused: it covers every URL, so every request would go to the"
                        + " ABAP servers");
    }

    @Test
    void theIndexAgreesWithTheRuleAsWrittenOnRandomTablesAndPaths() {
        Random random = new Random(42);
        String[] names = {"a", "b", "A", "B", "sap", "SAP", "bc", "ä", "Ä", "x1", "é", "É"};
        for (int round = 0; round < 200; round++) {
            List<String> entries = new ArrayList<>();
            for (int i = 0, n = 1 + random.nextInt(40); i < n; i++) {
                entries.add((random.nextInt(3) == 0 ? "case:" : "") + randomPath(random, names) + "/");
            }
            UrlMappingTable table = UrlMappingTable.parse(entries);
            for (int i = 0; i < 200; i++) {
                String path = randomPath(random, names) + (random.nextBoolean() ? "/" : "");
                assertThat(table.match(path)).as("%s in %s", path, entries)
                        .isEqualTo(longestByTheRule(table.entries(), path));
            }
        }
    }

    /**
     * The index finds a candidate by its hash, then compares it character by character: {@code /x/Aa/} and
     * {@code /x/BB/} have the same {@link String#hashCode()}, and so have the folded {@code /x/a~/} and
     * {@code /x/b_/}, yet neither entry covers the other path.
     */
    @ParameterizedTest(name = "with [{0}] {1} is covered by {2}")
    @CsvSource(delimiter = '|', textBlock = """
            /x/ case:/x/Aa/                   | /x/BB/page.htm        | /x/
            /x/ case:/x/Aa/                   | /x/BB                 | /x/
            /x/ case:/x/Aa/                   | /x/Aa/page.htm        | case:/x/Aa/
            /x/ /x/a~/                        | /x/b_/page.htm        | /x/
            /x/ /x/a~/                        | /x/B_                 | /x/
            /x/ /x/a~/                        | /x/A~/page.htm        | /x/a~/
            """)
    void anEntryDoesNotCoverAPathWhoseSegmentsHaveTheSameHashButOtherCharacters(String entries, String path,
                                                                                String expected) {
        assertThat("/x/Aa/".hashCode()).isEqualTo("/x/BB/".hashCode());
        assertThat("/x/a~/".hashCode()).isEqualTo("/x/b_/".hashCode());

        UrlMappingTable table = UrlMappingTable.parse(Arrays.asList(entries.split(" ")));

        assertThat(table.match(path)).hasToString(expected);
    }

    @Test
    void aTableOfThreeHundredEntriesFindsTheLongestCoveringEntry() {
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            entries.add("/sap/bc/app" + i + "/");
        }
        entries.add("/sap/bc/app7/deep/");
        UrlMappingTable table = UrlMappingTable.parse(entries);

        assertThat(table.match("/sap/bc/app7/deep/x.htm")).hasToString("/sap/bc/app7/deep/");
        assertThat(table.match("/sap/bc/app299")).hasToString("/sap/bc/app299/");
        assertThat(table.match("/sap/bc/app300/x")).isNull();
    }

    private static String randomPath(Random random, String[] names) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
            sb.append('/').append(names[random.nextInt(names.length)]);
        }
        return sb.toString();
    }

    /**
     * The rule, naively: the longest entry that is a prefix of path + "/"; at equal length a case-sensitive
     * entry, else the first given.
     */
    private static UrlPrefix longestByTheRule(List<UrlPrefix> entries, String path) {
        String candidate = path.endsWith("/") ? path : path + "/";
        UrlPrefix best = null;
        for (UrlPrefix e : entries) {
            boolean covers = e.caseSensitive() ? candidate.startsWith(e.prefix())
                    : candidate.length() >= e.prefix().length()
                    && candidate.substring(0, e.prefix().length()).equalsIgnoreCase(e.prefix());
            if (covers && (best == null || e.prefix().length() > best.prefix().length()
                    || e.prefix().length() == best.prefix().length() && e.caseSensitive() && !best.caseSensitive())) {
                best = e;
            }
        }
        return best;
    }
}
