package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class AdminEntryTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";

    private static List<AdminEntry> entries(String text) throws ConfigException {
        return SectionFixture.read(A + text, Path.of(""), (keys, core) -> AdminEntry.readAll(keys));
    }

    private static List<String> problems(String text) {
        return catchThrowableOfType(ConfigException.class, () -> entries(text)).problems();
    }

    @Test
    void withoutAnEntryTheAdministrationIsAtJwdAdminOnEveryListenerForEveryClient() throws Exception {
        List<AdminEntry> entries = entries("");

        assertThat(entries).containsExactly(AdminEntry.DEFAULT);
        assertThat(AdminEntry.DEFAULT.prefix()).isEqualTo("/jwd/admin");
        assertThat(AdminEntry.DEFAULT.servesListener("10.0.0.1", 8080)).isTrue();
        assertThat(AdminEntry.DEFAULT.servesClient("203.0.113.9")).isTrue();
    }

    @Test
    void readsSapsSyntaxPortsHostsAndClientsAsListsWithSemicolons() throws Exception {
        AdminEntry e = entries("icm/HTTP/admin_0 = PREFIX=/sap/wdisp/admin/, PORT=8090;8091, HOST=127.0.0.1,"
                + " CLIENTHOST=10.0.0.0/8;::1\n").get(0);

        assertThat(e.prefix()).isEqualTo("/sap/wdisp/admin");
        assertThat(e.ports()).containsExactly(8090, 8091);
        assertThat(e.key()).isEqualTo("icm/HTTP/admin_0");
        assertThat(e.servesListener("127.0.0.1", 8091)).isTrue();
        assertThat(e.servesListener("127.0.0.1", 8080)).as("another port").isFalse();
        assertThat(e.servesListener("10.0.0.5", 8090)).as("another local address").isFalse();
        assertThat(e.servesClient("10.200.3.4")).isTrue();
        assertThat(e.servesClient("::1")).isTrue();
        assertThat(e.servesClient("[::1]")).isTrue();
        assertThat(e.servesClient("192.168.1.1")).isFalse();
        assertThat(e.servesClient("localhost")).as("no name is resolved").isFalse();
        assertThat(e).hasToString("icm/HTTP/admin_0[PREFIX=/sap/wdisp/admin, PORT=8090;8091, HOST=127.0.0.1,"
                + " CLIENTHOST=10.0.0.0/8;::1]");
    }

    @Test
    void localhostIsTheLoopbackOfBothFamiliesAndTheWildcardsEveryAddress() throws Exception {
        AdminEntry loopback = entries("icm/HTTP/admin_0=PORT=8090, HOST=localhost\n").get(0);
        AdminEntry every = entries("icm/HTTP/admin_0=PORT=8090, HOST=0.0.0.0\n").get(0);

        assertThat(loopback.prefix()).isEqualTo("/jwd/admin");
        assertThat(loopback.servesListener("127.0.0.1", 8090)).isTrue();
        assertThat(loopback.servesListener("0:0:0:0:0:0:0:1", 8090)).isTrue();
        assertThat(loopback.servesListener("10.1.1.1", 8090)).isFalse();
        assertThat(every.servesListener("10.1.1.1", 8090)).isTrue();
        assertThat(every.hosts().entries()).containsExactly("0.0.0.0/0");
    }

    @Test
    void theFirstAndTheLastPortAndABracketedIpv6HostAreTaken() throws Exception {
        AdminEntry e = entries("icm/HTTP/admin_0=PORT=1;65535, HOST=[::1]\n").get(0);

        assertThat(e.ports()).containsExactly(1, 65535);
        assertThat(e.servesListener("::1", 65535)).isTrue();
        assertThat(e.servesListener("127.0.0.1", 1)).isFalse();
        assertThat(problems("icm/HTTP/admin_0=PORT=65536\n")).singleElement().asString()
                .contains("PORT item '65536': expected a port number from 1 to 65535");
    }

    @Test
    void severalEntriesEachServeTheirOwnPrefixInTheOrderOfTheirNumbers() throws Exception {
        List<AdminEntry> entries = entries("icm/HTTP/admin_2=PREFIX=/ops, PORT=9000\n"
                + "icm/HTTP/admin_0=PREFIX=/jwd/admin, CLIENTHOST=127.0.0.1\n");

        assertThat(entries).extracting(AdminEntry::number).containsExactly(0, 2);
        assertThat(entries).extracting(AdminEntry::prefix).containsExactly("/jwd/admin", "/ops");
    }

    @Test
    void refusesWhatJwdCannotHonourNamingTheSubParameterAndWhy() {
        assertThat(problems("icm/HTTP/admin_0=PREFIX=/sap/admin, ALLOWPUB=TRUE\n")).containsExactly(
                "icm/HTTP/admin_0: ALLOWPUB is not read by jwd: jwd serves no public administration pages; leave"
                        + " ALLOWPUB out");
    }

    /** "Starting the SAP Web Dispatcher with the Bootstrap Option" writes this line; "Creating Administration Users". */
    @Test
    void takesSapsBootstrapLineItsDocrootAndAuthfileReadNotUsedTheirReferencesUnresolved() throws Exception {
        AdminEntry e = entries("icm/HTTP/admin_0 = PREFIX=/sap/wdisp/admin,DOCROOT=$(DIR_DATA)$(DIR_SEP)icmandir,"
                + "AUTHFILE=$(icm/authfile)\n").get(0);

        assertThat(e.prefix()).isEqualTo("/sap/wdisp/admin");
        assertThat(e.notUsed(false)).isEqualTo("icm/HTTP/admin_0: DOCROOT=$(DIR_DATA)$(DIR_SEP)icmandir read, not"
                + " used: jwd's page is part of its WAR; AUTHFILE=$(icm/authfile) read, not used: SAP documents the"
                + " lines of its authentication file (icmauth.txt: user:hash:group:subject) but not their password"
                + " hash, so its users cannot log in to jwd; write admin.user = <name> and admin.password_hash ="
                + " <bin/jwd hash-password's output> for a user of group admin, admin.users.<name>.password_hash and"
                + " admin.users.<name>.role = monitor for the others (until then /sap/wdisp/admin answers 401 to"
                + " everyone)");
        assertThat(e.notUsed(true)).doesNotContain("401");
        assertThat(entries("icm/HTTP/admin_0 = PREFIX=/ops\n").get(0).notUsed(false)).isNull();
    }

    @Test
    void theUsedSubParametersReferencesAreResolved() throws Exception {
        AdminEntry e = entries("_ADMIN = /sap/wdisp/admin\nicm/HTTP/admin_0 = PREFIX=$(_ADMIN),AUTHFILE=icmauth.txt\n")
                .get(0);

        assertThat(e.prefix()).isEqualTo("/sap/wdisp/admin");
    }

    @Test
    void namesEveryBadValue() {
        assertThat(problems("icm/HTTP/admin_0=PREFIX=/, PORT=80a;0, HOST=adminhost, CLIENTHOST=10.0.0.0/33;corp,"
                + " COLOR=blue\nicm/HTTP/admin_01=PORT=1\n")).containsExactlyInAnyOrder(
                "icm/HTTP/admin_0 = 'PREFIX=/, PORT=80a;0, HOST=adminhost, CLIENTHOST=10.0.0.0/33;corp, COLOR=blue':"
                        + " 'COLOR=blue' is no known sub-parameter; expected NAME=value for NAME in [PREFIX, PORT, HOST,"
                        + " CLIENTHOST, DOCROOT, AUTHFILE]",
                "icm/HTTP/admin_0: PREFIX = '/': expected a URL path below '/' (/jwd/admin, /sap/wdisp/admin),"
                        + " without '*', '.' segments or /jwd/health",
                "icm/HTTP/admin_0: PORT item '80a': expected a port number from 1 to 65535",
                "icm/HTTP/admin_0: PORT item '0': expected a port number from 1 to 65535",
                "icm/HTTP/admin_0: HOST item 'adminhost': expected an IP address of this machine, or localhost; jwd"
                        + " resolves no host names",
                "icm/HTTP/admin_0: CLIENTHOST item '10.0.0.0/33': expected an IP address or a CIDR range (127.0.0.1,"
                        + " 10.0.0.0/8, ::1, fd00::/8); jwd resolves no host names",
                "icm/HTTP/admin_0: CLIENTHOST item 'corp': expected an IP address or a CIDR range (127.0.0.1,"
                        + " 10.0.0.0/8, ::1, fd00::/8); jwd resolves no host names",
                "icm/HTTP/admin_01: expected icm/HTTP/admin_<xx>, <xx> a number without a leading 0");
    }
    @Test
    void aSubParameterGivenTwiceIsNamed() {
        assertThat(problems("icm/HTTP/admin_0=PORT=8090,PREFIX=/a,PREFIX=/b\n"))
                .containsExactly("icm/HTTP/admin_0: PREFIX appears twice");
    }
}
