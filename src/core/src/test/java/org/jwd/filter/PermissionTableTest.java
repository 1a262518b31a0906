package org.jwd.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jwd.config.ConfigException;
import org.jwd.config.KeyReader;
import org.jwd.config.ServerType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PermissionTableTest {
    /** SAP's example table from the documentation of wdisp/permission_table. */
    private static final String SAP_EXAMPLE = """
            # SAP Web Dispatcher test permission table
            P /sap/bc/test.cgi
            D *.cgi # don't allow execution of CGI programs
            P /sap/bc/cachetest
            P /sap/bc/public/*
            P /sap/bc/ping
            D /sap/bc/*
            D *
            """;

    private static PermissionTable parse(String text) throws ConfigException {
        return PermissionTable.parse(text, "ptab.txt", false);
    }

    private static String verdict(PermissionTable table, String path, boolean secure) {
        PermissionTable.Rule rule = table.match(path, ServerType.J2EE);
        return rule == null ? "none" : rule.line() + (rule.permits(secure) ? " permits" : " refuses");
    }

    /** Over plain HTTP. */
    private static String verdict(PermissionTable table, String path, ServerType type) {
        PermissionTable.Rule rule = table.match(path, type);
        return rule == null ? "none" : rule.line() + (rule.permits(false) ? " permits" : " refuses");
    }

    @ParameterizedTest
    @CsvSource({
            "/sap/bc/test.cgi, 2 permits",
            "/sap/bc/other.cgi, 3 refuses",
            "/x.cgi, 3 refuses",
            "/sap/bc/cachetest, 4 permits",
            "/sap/bc/cachetest/more, 7 refuses",
            "/sap/bc/public/a/b, 5 permits",
            "/sap/bc/public/, 5 permits",
            "/sap/bc/public, 7 refuses",
            "/sap/bc/ping, 6 permits",
            "/sap/bc/gui, 7 refuses",
            "/irj/portal, 8 refuses",
            "/, 8 refuses",
    })
    void theFirstMatchingLineOfSapsExampleDecides(String path, String expected) throws Exception {
        assertThat(verdict(parse(SAP_EXAMPLE), path, false)).isEqualTo(expected);
    }

    @Test
    void aPathNoLineMatchesIsPermitted() throws Exception {
        PermissionTable table = parse("D /sap/admin/*\n");

        assertThat(table.match("/irj/portal", ServerType.J2EE)).isNull();
        assertThat(table.isConfigured()).isTrue();
    }

    @Test
    void withoutATableEveryPathIsPermitted() {
        assertThat(PermissionTable.NONE.match("/anything", ServerType.J2EE)).isNull();
        assertThat(PermissionTable.NONE.isConfigured()).isFalse();
    }

    @Test
    void anExactPatternMatchesOnlyThatPath() throws Exception {
        PermissionTable table = parse("D /sap/bc/ping\n");

        assertThat(verdict(table, "/sap/bc/ping", true)).isEqualTo("1 refuses");
        assertThat(verdict(table, "/sap/bc/ping/", true)).isEqualTo("none");
        assertThat(verdict(table, "/sap/bc/pingx", true)).isEqualTo("none");
        assertThat(verdict(table, "/sap/bc/pin", true)).isEqualTo("none");
    }

    @Test
    void wildcardsStandAtTheStartTheEndOrBoth() throws Exception {
        PermissionTable table = parse("""
                D /a/*
                D *.jsp
                D *secret*
                P *
                """);

        assertThat(verdict(table, "/a/", false)).isEqualTo("1 refuses");
        assertThat(verdict(table, "/a/b/c", false)).isEqualTo("1 refuses");
        assertThat(verdict(table, "/a", false)).isEqualTo("4 permits");
        assertThat(verdict(table, "/b/x.jsp", false)).isEqualTo("2 refuses");
        assertThat(verdict(table, "/b/x.jspx", false)).isEqualTo("4 permits");
        assertThat(verdict(table, "/b/topsecret/x", false)).isEqualTo("3 refuses");
        assertThat(verdict(table, "/", false)).isEqualTo("4 permits");
    }

    @Test
    void aSecureLinePermitsOverHttpsAndRefusesOverHttp() throws Exception {
        PermissionTable table = parse("S /sap/bc/gui/*\n");
        PermissionTable.Rule rule = table.match("/sap/bc/gui/sap/its/webgui", ServerType.J2EE);

        assertThat(rule.action()).isEqualTo(PermissionTable.Action.SECURE_ONLY);
        assertThat(rule.permits(true)).isTrue();
        assertThat(rule.permits(false)).isFalse();
        assertThat(rule.refusal(false)).isEqualTo("jwd: this URL is permitted over HTTPS only (permission table, line 1)");
    }

    @Test
    void permitAndDenyDoNotCareForTheConnection() throws Exception {
        PermissionTable table = parse("P /p\nD /d\n");

        assertThat(table.match("/p", ServerType.J2EE).permits(false)).isTrue();
        assertThat(table.match("/p", ServerType.J2EE).permits(true)).isTrue();
        assertThat(table.match("/d", ServerType.J2EE).permits(false)).isFalse();
        assertThat(table.match("/d", ServerType.J2EE).permits(true)).isFalse();
        assertThat(table.match("/d", ServerType.J2EE).refusal(true))
                .isEqualTo("jwd: this URL is not permitted (permission table, line 2)");
    }

    @Test
    void aPatternWhoseLiteralStartsWithAParenthesisIsComparedWithTheMangledSegmentAsSent() throws Exception {
        PermissionTable table = parse("D *(bD1lbg==)*\n");

        assertThat(table.match("/sap/bc/gui/", "/sap(bD1lbg==)/bc/gui/", ServerType.J2EE))
                .extracting(PermissionTable.Rule::line).isEqualTo(1);
        assertThat(table.match("/sap/bc/gui/", "/sap(bD1lZW4=)/bc/gui/", ServerType.J2EE)).isNull();
    }

    @Test
    void onJ2eePathsPatternsAreCaseSensitive() throws Exception {
        PermissionTable table = parse("D /sap/admin/*\n");

        assertThat(table.match("/sap/admin/x", ServerType.J2EE)).isNotNull();
        assertThat(table.match("/SAP/admin/x", ServerType.J2EE)).isNull();
        assertThat(table.match("/sap/Admin/x", ServerType.J2EE)).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/sap/bc/admin/x      | 1 refuses",
            "/SAP/BC/ADMIN/x      | 1 refuses",
            "/sap/bc/Admin/x      | 1 refuses",
            "/sap/bc/gui/start    | 2 refuses",
            "/Sap/Bc/Gui/start    | 2 refuses",
            "/x/INDEX.CGI         | 3 refuses",
            "/sap/bc/MySvc/x      | 4 permits",
            "/sap/bc/mysvc/x      | 5 refuses",
            "/sap/bc/MYSVC/x      | 5 refuses",
    })
    void onAbapPathsPatternsMatchRegardlessOfCaseUnlessWrittenCaseSensitive(String path, String expected)
            throws Exception {
        PermissionTable table = parse("""
                D /sap/bc/admin/*
                S /sap/bc/gui/*
                D *.cgi
                P case:/sap/bc/MySvc/*
                D /sap/bc/*
                """);

        assertThat(verdict(table, path, ServerType.ABAP)).isEqualTo(expected);
    }

    @Test
    void theGlobalKeyMakesJ2eePathsMatchRegardlessOfCaseButNotCaseSensitiveLines() throws Exception {
        PermissionTable table = PermissionTable.parse("D /nwa/*\nD case:/Sld/*\n", "ptab.txt", true);

        assertThat(table.match("/NWA/x", ServerType.J2EE)).extracting(PermissionTable.Rule::line).isEqualTo(1);
        assertThat(table.match("/Sld/x", ServerType.J2EE)).extracting(PermissionTable.Rule::line).isEqualTo(2);
        assertThat(table.match("/SLD/x", ServerType.J2EE)).isNull();
        assertThat(table).hasToString("PermissionTable[ptab.txt, 2 rules, ignoring case on every path]");
    }

    @Test
    void aCaseSensitiveLineKeepsItsTextAndPatternWithoutTheMark() throws Exception {
        PermissionTable.Rule rule = parse("D CASE:/Sld/*   # the SLD service is flagged case-sensitive\n")
                .match("/Sld/x", ServerType.ABAP);

        assertThat(rule.caseSensitive()).isTrue();
        assertThat(rule.pattern()).isEqualTo("/Sld/*");
        assertThat(rule.text()).isEqualTo("D CASE:/Sld/*   # the SLD service is flagged case-sensitive");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/sap/bc/x | /sap/bc/x",
            "/SAP/Bc/X | /sap/bc/x",
            "/CAFÉ     | /café",
            "/ſap      | /sap",
            "/Kelvin | /kelvin",
    })
    void foldingIsTheRuleOfEqualsIgnoreCase(String path, String folded) {
        assertThat(PermissionTable.fold(path)).isEqualTo(folded);
        assertThat(path.equalsIgnoreCase(folded)).isTrue();
    }

    @Test
    void foldingAnAlreadyFoldedPathReturnsItAsIs() {
        String path = "/sap/bc/gui/x";

        assertThat(PermissionTable.fold(path)).isSameAs(path);
    }

    @Test
    void blankLinesCommentsAndTrailingCommentsAreIgnoredAndLinesKeepTheirNumbers() throws Exception {
        PermissionTable table = parse("""

                # a comment
                   \t
                D\t/x   # trailing comment
                  P /y
                """);

        assertThat(table.rules()).hasSize(2);
        PermissionTable.Rule x = table.match("/x", ServerType.J2EE);
        assertThat(x.line()).isEqualTo(4);
        assertThat(x.text()).isEqualTo("D\t/x   # trailing comment");
        assertThat(x.file()).isEqualTo("ptab.txt");
        assertThat(x.toString()).isEqualTo("ptab.txt:4: D\t/x   # trailing comment");
        assertThat(table.match("/y", ServerType.J2EE).line()).isEqualTo(5);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "X /a        | ptab.txt:2: 'X /a': expected P, D or S, a blank and a URL pattern",
            "p /a        | ptab.txt:2: 'p /a': expected P, D or S",
            "PD /a       | ptab.txt:2: 'PD /a': expected P, D or S",
            "P/a         | ptab.txt:2: 'P/a': expected P, D or S",
            "D           | ptab.txt:2: 'D': the URL pattern is missing: expected P, D or S",
            "D /a/*/b    | ptab.txt:2: 'D /a/*/b': '*' stands in the middle of '/a/*/b': expected it only at the start or the end",
            "D /a*b      | ptab.txt:2: 'D /a*b': '*' stands in the middle",
            "D a/b       | ptab.txt:2: 'D a/b': the pattern 'a/b' must start with '/' or '*'",
            "D /a /b     | ptab.txt:2: 'D /a /b': expected one URL pattern, then nothing but a # comment",
            "D case:     | ptab.txt:2: 'D case:': the URL pattern after 'case:' is missing",
            "D case:a/b  | ptab.txt:2: 'D case:a/b': the pattern 'a/b' must start with '/' or '*'",
            "D icase:/a  | ptab.txt:2: 'D icase:/a': the pattern 'icase:/a' must start with '/' or '*'",
    })
    void aMalformedLineIsNamedWithFileLineAndWhatIsExpected(String line, String message) {
        assertThatThrownBy(() -> parse("P /ok\n" + line + "\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void everyMalformedLineIsReportedAtOnce() {
        assertThatThrownBy(() -> parse("X /a\nP /ok\nD /a*b\n"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                        .hasSize(2)
                        .satisfies(p -> assertThat(p.get(0)).startsWith("ptab.txt:1: "))
                        .satisfies(p -> assertThat(p.get(1)).startsWith("ptab.txt:3: ")));
    }

    @Test
    void loadsAFileAndNamesAMissingOne(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ptab.txt");
        Files.writeString(file, "D /x\n");

        assertThat(PermissionTable.load(file, "name", false).match("/x", ServerType.J2EE).file()).isEqualTo("name");
        assertThatThrownBy(() -> PermissionTable.load(dir.resolve("nope.txt"), "nope.txt", false))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(dir.resolve("nope.txt") + " does not exist");
    }

    @Test
    void aMissingTableIsNamedUnderItsKeyAndLeavesNoTable(@TempDir Path dir) {
        KeyReader keys = KeyReader.parse("wdisp/permission_table=nope.txt\n", "t.properties", dir);

        assertThat(PermissionTable.read(keys)).isSameAs(PermissionTable.NONE);
        assertThatThrownBy(keys::check)
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("t.properties:1: wdisp/permission_table = 'nope.txt': permission table ");
    }

    @Test
    void aFileThatIsNoTextCannotBeRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ptab.bin");
        Files.write(file, new byte[] {'D', ' ', '/', (byte) 0xC3, (byte) 0x28});

        assertThatThrownBy(() -> PermissionTable.load(file, "ptab.bin", false))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("cannot be read: expected UTF-8 text");
    }

    @Test
    void aDirectoryCannotBeRead(@TempDir Path dir) {
        assertThatThrownBy(() -> PermissionTable.load(dir, "dir", false))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(dir + " cannot be read");
    }
}
