package org.jwd.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jwd.config.ConfigException;
import org.jwd.config.ServerType;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SAP's authentication handler as SAP documents it ("icm/HTTP/auth_&lt;xx&gt;", help.sap.com
 * 48/3edf38c10272d2e10000000a42189c: {@code PREFIX}, {@code PERMFILE}, {@code AUTHFILE}, {@code FILTER},
 * {@code CASE}, FALSE by default), over jwd's URL filter.
 */
class AuthHandlersTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";

    @TempDir
    Path dir;

    @BeforeEach
    void permissionFiles() throws Exception {
        Files.writeString(dir.resolve("perm.txt"), """
                # SAP's columns: P|D|S, URL, user, client IP, server IP
                D /sap/bc/admin/* * * *
                S /sap/bc/secure/*   *  *  *   # HTTPS only
                P /sap/*
                """);
        Files.writeString(dir.resolve("ops.txt"), "D /sap/ops/*\n");
    }

    private AuthHandlers load(String lines) throws Exception {
        Path file = dir.resolve("sapwebdisp.pfl");
        Files.writeString(file, A + lines);
        return ConfigReader.load(file).section(AuthHandlers.class);
    }

    private List<String> problems(String lines) {
        return catchThrowableOfType(ConfigException.class, () -> load(lines)).problems().stream()
                .map(p -> p.replace(dir + "/", "")).toList();
    }

    @Test
    void aPermissionFileInSapsSyntaxDeniesBelowItsPrefixRegardlessOfCaseByDefault() throws Exception {
        AuthHandlers handlers = load("icm/HTTP/auth_0 = PREFIX=/sap/, PERMFILE=perm.txt\n");

        assertThat(handlers.match("/SAP/BC/Admin/users", "/SAP/BC/Admin/users", ServerType.J2EE, false))
                .satisfies(rule -> assertThat(rule.permits(false)).isFalse())
                .extracting(PermissionTable.Rule::line).isEqualTo(2);
        assertThat(handlers.match("/sap/bc/secure/x", "/sap/bc/secure/x", ServerType.ABAP, false).permits(false))
                .isFalse();
        assertThat(handlers.match("/sap/bc/secure/x", "/sap/bc/secure/x", ServerType.ABAP, true).permits(true))
                .isTrue();
        assertThat(handlers.match("/sap/public/x", "/sap/public/x", ServerType.ABAP, false).permits(false)).isTrue();
        assertThat(handlers.match("/irj/portal", "/irj/portal", ServerType.J2EE, false)).as("not below PREFIX")
                .isNull();
    }

    @Test
    void caseTrueMatchesJavaPathsAndThePrefixAsWritten() throws Exception {
        AuthHandlers handlers = load("icm/HTTP/auth_0 = PREFIX=/sap/, PERMFILE=perm.txt, CASE=TRUE\n");

        assertThat(handlers.match("/sap/BC/ADMIN/x", "/sap/BC/ADMIN/x", ServerType.J2EE, false).permits(false))
                .as("a Java path as written: no D line matches, P /sap/* does").isTrue();
        assertThat(handlers.match("/sap/BC/ADMIN/x", "/sap/BC/ADMIN/x", ServerType.ABAP, false).permits(false))
                .as("an ABAP path regardless of case, as the ICF reads it").isFalse();
        assertThat(handlers.match("/SAP/bc/admin/x", "/SAP/bc/admin/x", ServerType.J2EE, false)).isNull();
    }

    @Test
    void severalHandlersApplyInTheOrderOfTheirNumbersEachMustLetAPathPass() throws Exception {
        AuthHandlers handlers = load("icm/HTTP/auth_2 = PREFIX=/sap/, PERMFILE=perm.txt\n"
                + "icm/HTTP/auth_0 = PREFIX=/sap/ops/, PERMFILE=ops.txt\n");

        assertThat(handlers.handlers()).extracting(AuthHandlers.Handler::key)
                .containsExactly("icm/HTTP/auth_0", "icm/HTTP/auth_2");
        assertThat(handlers.match("/sap/ops/x", "/sap/ops/x", ServerType.ABAP, false))
                .extracting(PermissionTable.Rule::file).isEqualTo("ops.txt");
        assertThat(handlers.match("/sap/bc/admin/x", "/sap/bc/admin/x", ServerType.ABAP, false))
                .extracting(PermissionTable.Rule::file).isEqualTo("perm.txt");
    }

    @Test
    void filterZeroIsTakenWithoutSapsPatternSearch() throws Exception {
        assertThat(load("icm/HTTP/auth_0 = PREFIX=/, PERMFILE=perm.txt, FILTER=0\n").handlers()).hasSize(1);
    }

    @Test
    void whatJwdCannotHonourIsRefusedSayingWhatToWriteInstead() throws Exception {
        Files.writeString(dir.resolve("users.txt"), "D /sap/bc/* admins * *\n");

        assertThat(problems("icm/HTTP/auth_0 = PREFIX=/, PERMFILE=perm.txt, AUTHFILE=icmauth.txt\n"
                + "icm/HTTP/auth_1 = PREFIX=/, PERMFILE=perm.txt, FILTER=SAP\n"
                + "icm/HTTP/auth_2 = PREFIX=/, PERMFILE=users.txt\n"
                + "icm/HTTP/auth_3 = PREFIX=/\n")).containsExactly(
                "sapwebdisp.pfl:3: icm/HTTP/auth_0: AUTHFILE is refused (a security setting jwd cannot honour: SAP"
                        + " does not document the password hash of its authentication file): let the servers"
                        + " authenticate that prefix, or deny it with D lines of the PERMFILE",
                "sapwebdisp.pfl:4: icm/HTTP/auth_1: FILTER=SAP is refused (SAP's pattern search uses patterns SAP"
                        + " does not publish): jwd refuses paths servers would read two ways (400) and matches the"
                        + " PERMFILE on the decoded and the encoded reading; for patterns of your own write"
                        + " RegForbiddenUrl lines of an action file (icm/HTTP/mod_<xx>); remove FILTER or write"
                        + " FILTER=0",
                "users.txt:1: 'D /sap/bc/* admins * *': jwd matches URLs only: expected '*' for the user, client"
                        + " and server columns (restrict clients with CLIENTHOST of icm/HTTP/admin_<xx>, or in front"
                        + " of jwd)",
                "sapwebdisp.pfl:6: icm/HTTP/auth_3: PERMFILE is missing: expected PERMFILE=<permission file> (without"
                        + " it the handler would do nothing in jwd)");
    }

    @Test
    void refusesMalformedHandlersNamingTheKeyAndWhatIsExpected() {
        assertThat(problems("icm/HTTP/auth_01 = PREFIX=/, PERMFILE=perm.txt\n"
                + "icm/HTTP/auth_1 = PREFIX=sap, PERMFILE=perm.txt\n"
                + "icm/HTTP/auth_2 = PREFIX=/, PERMFILE=perm.txt, CASE=maybe\n"
                + "icm/HTTP/auth_3 = PREFIX=/, PERMFILE=perm.txt, TYPE=x\n"
                + "icm/HTTP/auth_4 = PREFIX=/, PERMFILE=missing.txt\n"
                + "icm/HTTP/auth_5 = PREFIX=/, PERMFILE=perm.txt, CASE\n")).containsExactly(
                "sapwebdisp.pfl:3: icm/HTTP/auth_01: expected icm/HTTP/auth_<xx>, <xx> a number without a leading 0",
                "sapwebdisp.pfl:4: icm/HTTP/auth_1: PREFIX = 'sap': expected a URL prefix starting with '/'",
                "sapwebdisp.pfl:5: icm/HTTP/auth_2: CASE = 'maybe': expected TRUE or FALSE",
                "sapwebdisp.pfl:6: icm/HTTP/auth_3 = 'PREFIX=/, PERMFILE=perm.txt, TYPE=x': expected PREFIX=<URL"
                        + " prefix>, PERMFILE=<permission file>[, CASE=TRUE|FALSE]; 'TYPE=x' is no sub-parameter jwd"
                        + " knows",
                "sapwebdisp.pfl:7: icm/HTTP/auth_4: PERMFILE missing.txt cannot be read"
                        + " (java.nio.file.NoSuchFileException: missing.txt): expected a permission file of P/D/S"
                        + " lines",
                "sapwebdisp.pfl:8: icm/HTTP/auth_5 = 'PREFIX=/, PERMFILE=perm.txt, CASE': expected PREFIX=<URL"
                        + " prefix>, PERMFILE=<permission file>[, CASE=TRUE|FALSE]; 'CASE' is not NAME=value");
    }

    @Test
    void aPermissionFileAppliesOnlyBelowItsHandlersPrefix() throws Exception {
        AuthHandlers handlers = load("icm/HTTP/auth_0 = PREFIX=/irj/, PERMFILE=perm.txt\n");

        assertThat(handlers.isConfigured()).isTrue();
        assertThat(handlers.match("/sap/bc/admin/x", "/sap/bc/admin/x", ServerType.ABAP, false))
                .as("D /sap/bc/admin/* lies outside PREFIX=/irj/").isNull();
        assertThat(load("").isConfigured()).isFalse();
        assertThat(AuthHandlers.NONE.isConfigured()).isFalse();
    }
}
