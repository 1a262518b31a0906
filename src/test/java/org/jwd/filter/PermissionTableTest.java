package org.jwd.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jwd.config.ConfigException;
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
        return PermissionTable.parse(text, "ptab.txt");
    }

    private static String verdict(PermissionTable table, String path, boolean secure) {
        PermissionTable.Rule rule = table.match(path);
        return rule == null ? "none" : rule.line() + (rule.permits(secure) ? " permits" : " refuses");
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

        assertThat(table.match("/irj/portal")).isNull();
        assertThat(table.isConfigured()).isTrue();
    }

    @Test
    void withoutATableEveryPathIsPermitted() {
        assertThat(PermissionTable.NONE.match("/anything")).isNull();
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
        PermissionTable.Rule rule = table.match("/sap/bc/gui/sap/its/webgui");

        assertThat(rule.action()).isEqualTo(PermissionTable.Action.SECURE_ONLY);
        assertThat(rule.permits(true)).isTrue();
        assertThat(rule.permits(false)).isFalse();
        assertThat(rule.refusal(false)).isEqualTo("jwd: this URL is permitted over HTTPS only (permission table, line 1)");
    }

    @Test
    void permitAndDenyDoNotCareForTheConnection() throws Exception {
        PermissionTable table = parse("P /p\nD /d\n");

        assertThat(table.match("/p").permits(false)).isTrue();
        assertThat(table.match("/p").permits(true)).isTrue();
        assertThat(table.match("/d").permits(false)).isFalse();
        assertThat(table.match("/d").permits(true)).isFalse();
        assertThat(table.match("/d").refusal(true)).isEqualTo("jwd: this URL is not permitted (permission table, line 2)");
    }

    @Test
    void patternsAreCaseSensitive() throws Exception {
        PermissionTable table = parse("D /sap/admin/*\n");

        assertThat(table.match("/sap/admin/x")).isNotNull();
        assertThat(table.match("/SAP/admin/x")).isNull();
        assertThat(table.match("/sap/Admin/x")).isNull();
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
        PermissionTable.Rule x = table.match("/x");
        assertThat(x.line()).isEqualTo(4);
        assertThat(x.text()).isEqualTo("D\t/x   # trailing comment");
        assertThat(x.file()).isEqualTo("ptab.txt");
        assertThat(x.toString()).isEqualTo("ptab.txt:4: D\t/x   # trailing comment");
        assertThat(table.match("/y").line()).isEqualTo(5);
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

        assertThat(PermissionTable.load(file, "name").match("/x").file()).isEqualTo("name");
        assertThatThrownBy(() -> PermissionTable.load(dir.resolve("nope.txt"), "nope.txt"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(dir.resolve("nope.txt") + " does not exist");
    }

    @Test
    void aFileThatIsNoTextCannotBeRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ptab.bin");
        Files.write(file, new byte[] {'D', ' ', '/', (byte) 0xC3, (byte) 0x28});

        assertThatThrownBy(() -> PermissionTable.load(file, "ptab.bin"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("cannot be read: expected UTF-8 text");
    }

    @Test
    void aDirectoryCannotBeRead(@TempDir Path dir) {
        assertThatThrownBy(() -> PermissionTable.load(dir, "dir"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(dir + " cannot be read");
    }
}
