package org.jwd.systems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jwd.systems.Props.problems;
import static org.jwd.systems.Props.systems;

import java.net.URI;

import org.jwd.routing.UrlPrefix;
import org.jwd.tls.SslEncrypt;
import org.junit.jupiter.api.Test;

class SystemsTest {

    @Test
    void readsEverySubparameterOfAnEntry() throws Exception {
        Systems systems = systems("wdisp/system_0",
                "SID=ERP, SRCSRV=*:8443;10.0.0.1:8080, SRCURL=/sap/;case:/Irj/, SRCVHOST=erp.example.com;ERP.example.org:443,"
                        + " SSL_ENCRYPT=1,");

        SystemEntry erp = systems.system("ERP");
        assertThat(erp.key()).isEqualTo("wdisp/system_0");
        assertThat(erp.accessPoints()).containsExactly(new AccessPoint("*", 8443), new AccessPoint("10.0.0.1", 8080));
        assertThat(erp.urlPrefixes()).containsExactly(new UrlPrefix("/sap/", false), new UrlPrefix("/Irj/", true));
        assertThat(erp.virtualHosts()).containsExactly(new VirtualHost("erp.example.com", VirtualHost.ANY_PORT),
                new VirtualHost("erp.example.org", 443));
        assertThat(erp.sslEncrypt()).isEqualTo(SslEncrypt.ALWAYS);
        assertThat(erp.externalServers()).isEmpty();
        assertThat(erp).hasToString("wdisp/system_0 = SID=ERP, SRCSRV=*:8443;10.0.0.1:8080, SRCURL=/sap/;case:/Irj/,"
                + " SRCVHOST=erp.example.com;erp.example.org:443, SSL_ENCRYPT=1");
    }

    @Test
    void readsSubparameterNamesRegardlessOfCaseAndAnExternalServerList() throws Exception {
        Systems systems = systems("wdisp/system_3",
                "sid=EXT, srcurl=/shop, extsrv=http://shop1.example:8080;HTTPS://shop2.example:8443/, sticky=TRUE");

        SystemEntry ext = systems.system("EXT");
        assertThat(ext.externalServers()).containsExactly(URI.create("http://shop1.example:8080"),
                URI.create("https://shop2.example:8443"));
        assertThat(ext.sticky()).isTrue();
        assertThat(ext.urlPrefixes()).containsExactly(new UrlPrefix("/shop/", false));
    }

    @Test
    void ordersEntriesByTheirNumberWithGapsAllowed() throws Exception {
        Systems systems = systems(
                "wdisp/system_10", "SID=C10, SRCURL=/c/",
                "wdisp/system_2", "SID=B02, SRCURL=/b/",
                "wdisp/system_0", "SID=A00, SRCURL=/a/");

        assertThat(systems.entries()).extracting(SystemEntry::sid).containsExactly("A00", "B02", "C10");
        assertThat(systems.isImplicit()).isFalse();
    }

    @Test
    void withoutEntriesThereIsOneImplicitSystem() throws Exception {
        Systems systems = systems("server.a.url", "http://127.0.0.1:8081", "server.a.type", "j2ee",
                "icf.url_prefixes", "/sap/");

        assertThat(systems.isImplicit()).isTrue();
        assertThat(systems.entries()).containsExactly(SystemEntry.implicit());
        assertThat(systems).hasToString("one implicit system (no wdisp/system_<xx>)");
        assertThat(SystemEntry.implicit()).hasToString("the implicit system (no wdisp/system_<xx>)");
    }

    @Test
    void readsTheConflictResolutionAndTheDefaultSystem() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/", "wdisp/system_1", "SID=PRT, SRCURL=/irj/",
                "wdisp/system_conflict_resolution", "1", "jwd.default_system", "PRT");

        assertThat(systems.conflictResolution()).isEqualTo(ConflictResolution.FIRST_MATCH);
        assertThat(systems.defaultSystem().sid()).isEqualTo("PRT");
        assertThat(systems.conflictResolution()).hasToString("wdisp/system_conflict_resolution=1");
    }

    @Test
    void theConflictResolutionIsZeroByDefault() throws Exception {
        assertThat(systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/").conflictResolution())
                .isEqualTo(ConflictResolution.REJECT);
    }

    @Test
    void namesEveryProblemOfAnEntryWithKeyValueAndWhatIsExpected() {
        String value = "SID=erp1, SRCSRV=erp.invalid:8080;*:99999, SRCURL=sap, SRCVHOST=bad_host, SSL_ENCRYPT=3,"
                + " STICKY=true";
        String where = "wdisp/system_0 = '" + value + "': ";

        assertThat(problems("wdisp/system_0", value)).containsExactly(
                where + "SID 'erp1': expected three capital letters or digits starting with a letter (ERP, PR1)",
                // a name that resolves to nothing (.invalid never does, RFC 6761)
                where + "SRCSRV item 'erp.invalid:8080': the host 'erp.invalid' does not resolve to an address (names"
                        + " are resolved when the configuration is read; expected a name of this machine, an IP"
                        + " address or *)",
                where + "SRCSRV item '*:99999': expected <host>:<port>, the host * (any address of this machine), an IP"
                        + " address or a host name, the port 1 to 65535 or * (any)",
                where + "SRCURL item 'sap': expected a path starting with '/' (or case:/ or icase:/)",
                where + "SRCVHOST item 'bad_host': expected a host name or IP address, optionally with :<port>"
                        + " (1 to 65535)",
                where + "SSL_ENCRYPT '3': expected 0 (plain HTTP to the servers), 1 (HTTPS) or 2 (the client's"
                        + " protocol)",
                where + "STICKY 'true': expected only with EXTSRV (a system's own servers keep their sessions by the"
                        + " session table and saplb_* cookies)");
    }

    @Test
    void refusesAnEntryWithoutSidOrCriteria() {
        assertThat(problems("wdisp/system_0", "SRCURL=/sap/")).containsExactly(
                "wdisp/system_0 = 'SRCURL=/sap/': SID is missing: expected SID=<three capital letters or digits"
                        + " starting with a letter (ERP, PR1)>");
        assertThat(problems("wdisp/system_0", "SID=ERP")).containsExactly(
                "wdisp/system_0 = 'SID=ERP': expected at least one of SRCSRV, SRCURL and SRCVHOST: they decide which"
                        + " requests go to ERP");
    }

    @Test
    void refusesSapsServerSourcesUnsupportedUnknownRepeatedAndEmptySubparameters() {
        String value = "SID=ERP, SCSHOST=ms.example, RUNLEVEL=running, SRCURLS=/x/, SRCURL=/a/, SRCURL=/b/, SRCVHOST=,"
                + " junk";
        String where = "wdisp/system_0 = '" + value + "': ";

        assertThat(problems("wdisp/system_0", value)).containsExactly(
                where + "SCSHOST is a way of SAP's to find the system's servers that jwd does not follow: expected"
                        + " MSHOST with MSPORT or MSSPORT (the message server), SILOC, the servers as"
                        + " system.<SID>.server.<id>.* keys, or EXTSRV for a non-SAP web server",
                where + "RUNLEVEL is not supported by jwd: expected one of SID, SRCSRV, SRCURL, SRCVHOST, SSL_ENCRYPT,"
                        + " EXTSRV, STICKY, MSHOST, MSPORT, MSSPORT, SILOC",
                where + "unknown subparameter 'SRCURLS': expected one of SID, SRCSRV, SRCURL, SRCVHOST, SSL_ENCRYPT,"
                        + " EXTSRV, STICKY, MSHOST, MSPORT, MSSPORT, SILOC",
                where + "SRCURL is given twice: expected it once (list items separated by ';')",
                where + "SRCVHOST is empty: expected a value",
                where + "'junk': expected NAME=value (subparameters separated by ',', list items by ';')");
    }

    @Test
    void refusesBadExternalServersAndStickyValues() {
        String value = "SID=EXT, SRCURL=/x/, EXTSRV=ftp://a.example:21;http://b.example;http://c.example:80/path,"
                + " STICKY=yes";
        String where = "wdisp/system_0 = '" + value + "': ";

        assertThat(problems("wdisp/system_0", value)).containsExactly(
                where + "EXTSRV item 'ftp://a.example:21': expected http://host:port or https://host:port",
                where + "EXTSRV item 'http://b.example': expected http://host:port or https://host:port",
                where + "EXTSRV item 'http://c.example:80/path': expected http://host:port or https://host:port",
                where + "STICKY 'yes': expected true or false");
    }

    @Test
    void anExternalServerOnPortOneIsTakenAndStickyFalseIsNotSticky() throws Exception {
        SystemEntry ext = systems("wdisp/system_0", "SID=EXT, SRCURL=/x/, EXTSRV=http://a.example:1, STICKY=false")
                .system("EXT");

        assertThat(ext.externalServers()).containsExactly(URI.create("http://a.example:1"));
        assertThat(ext.sticky()).isFalse();
    }

    @Test
    void refusesASubparameterWithoutANameAndAListOfNoItems() {
        String value = "SID=ERP, SRCURL=/a/, =x, SRCVHOST=;";
        String where = "wdisp/system_0 = '" + value + "': ";

        assertThat(problems("wdisp/system_0", value)).containsExactly(
                where + "'=x': expected NAME=value (subparameters separated by ',', list items by ';')",
                where + "SRCVHOST ';': expected at least one item, items separated by ';'");
    }

    @Test
    void refusesBadEntryKeysAnUnknownDefaultAndABadConflictResolution() {
        assertThat(problems(
                "wdisp/system_01", "SID=ERP, SRCURL=/a/",
                "wdisp/system_x", "SID=ERP, SRCURL=/b/",
                "wdisp/system_0", "SID=ERP, SRCURL=/c/",
                "jwd.default_system", "PRT",
                "wdisp/system_conflict_resolution", "2")).containsExactly(
                "wdisp/system_01 = 'SID=ERP, SRCURL=/a/': expected wdisp/system_<xx>, <xx> a number without a leading 0"
                        + " (wdisp/system_0, wdisp/system_1, ...)",
                "wdisp/system_x = 'SID=ERP, SRCURL=/b/': expected wdisp/system_<xx>, <xx> a number without a leading 0"
                        + " (wdisp/system_0, wdisp/system_1, ...)",
                "wdisp/system_conflict_resolution = '2': expected 0 (systems that meet the same request are an error)"
                        + " or 1 (the first of them in entry order)",
                "jwd.default_system = 'PRT': expected the SID of a wdisp/system_<xx> entry: one of ERP");
    }

    @Test
    void laterEntriesOfASidAddWaysToReachItAndNeverOverlapIt() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=PRT, SRCSRV=*:8080", "wdisp/system_1", "SID=ERP, SRCURL=/sap/",
                "wdisp/system_2", "SID=ERP, SRCSRV=*:8081", "wdisp/system_3", "SID=ERP, SRCSRV=*:8081, SRCURL=/sap/");

        assertThat(systems.entries()).extracting(SystemEntry::key)
                .containsExactly("wdisp/system_0", "wdisp/system_1", "wdisp/system_2", "wdisp/system_3");
        assertThat(systems.systems()).extracting(SystemEntry::key).containsExactly("wdisp/system_0", "wdisp/system_1");
        assertThat(systems.system("ERP").key()).isEqualTo("wdisp/system_1");
        assertThat(systems.overlaps()).isEmpty();
    }

    @Test
    void onlyTheFirstEntryOfASidDescribesTheSystem() {
        assertThat(problems("wdisp/system_0", "SID=ERP, SRCURL=/sap/",
                "wdisp/system_1", "SID=ERP, SRCSRV=*:8081, SSL_ENCRYPT=1")).containsExactly(
                "wdisp/system_1 = 'SID=ERP, SRCSRV=*:8081, SSL_ENCRYPT=1': wdisp/system_0 is the first entry of ERP and"
                        + " describes the system: expected later entries of ERP to give only SID, SRCSRV, SRCURL and"
                        + " SRCVHOST (more ways to reach it)");
    }

    @Test
    void aDefaultSystemWithoutEntriesIsAnError() {
        assertThat(problems("jwd.default_system", "ERP")).containsExactly(
                "jwd.default_system = 'ERP': expected the SID of a wdisp/system_<xx> entry (there is none)");
    }
    @Test
    void aServerSourceIsWrittenAsTheSubparametersItWasReadFrom() throws Exception {
        assertThat(systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/, MSHOST=erpms, MSPORT=8101").system("ERP"))
                .hasToString("wdisp/system_0 = SID=ERP, MSHOST=erpms, MSPORT=8101, SRCURL=/sap/");
        assertThat(systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/, MSHOST=erpms, MSSPORT=44301").system("ERP")
                .serverSource()).hasToString("MSHOST=erpms, MSSPORT=44301");
        assertThat(systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/, MSHOST=erpms, MSPORT=8101, MSSPORT=44301")
                .system("ERP").serverSource()).hasToString("MSHOST=erpms, MSPORT=8101, MSSPORT=44301");
        assertThat(systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/, SILOC=file:///etc/jwd/erp-servers.txt")
                .system("ERP").serverSource()).hasToString("SILOC=file:///etc/jwd/erp-servers.txt");
    }

    @Test
    void messageServerPortsFrom1To65535AreTakenAndOthersRefused() throws Exception {
        ServerSource ends = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/, MSHOST=erpms, MSPORT=1, MSSPORT=65535")
                .system("ERP").serverSource();
        assertThat(ends.msPort()).isEqualTo(1);
        assertThat(ends.msSPort()).isEqualTo(65535);

        String value = "SID=ERP, SRCURL=/sap/, MSHOST=erpms, MSPORT=0, MSSPORT=65536";
        assertThat(problems("wdisp/system_0", value)).contains(
                "wdisp/system_0 = '" + value + "': MSPORT '0': expected a port number (1-65535)",
                "wdisp/system_0 = '" + value + "': MSSPORT '65536': expected a port number (1-65535)");
        assertThat(problems("wdisp/system_0", "SID=ERP, SRCURL=/sap/, MSHOST=erpms, MSPORT=http")).contains(
                "wdisp/system_0 = 'SID=ERP, SRCURL=/sap/, MSHOST=erpms, MSPORT=http': MSPORT 'http': expected a port"
                        + " number (1-65535)");
    }

    @Test
    void aBadConflictResolutionIsReportedWithTheOverlapsThatAreThenRefused() {
        assertThat(problems("wdisp/system_0", "SID=ERP, SRCURL=/sap/", "wdisp/system_1", "SID=GWY, SRCURL=/sap/",
                "wdisp/system_conflict_resolution", "yes")).containsExactly(
                "wdisp/system_conflict_resolution = 'yes': expected 0 (systems that meet the same request are an error)"
                        + " or 1 (the first of them in entry order)",
                "wdisp/system_0 (ERP) and wdisp/system_1 (GWY) overlap: a request with any SRCSRV, any SRCVHOST,"
                        + " SRCURL /sap/ meets both: expected criteria that tell them apart, or"
                        + " wdisp/system_conflict_resolution = 1 (the first in entry order takes such requests)");
    }

    @Test
    void anAccessPointInBracketsThatIsNoIpv6AddressIsRefused() {
        String value = "SID=ERP, SRCSRV=[1:2:3]:8080";

        assertThat(problems("wdisp/system_0", value)).containsExactly("wdisp/system_0 = '" + value + "': SRCSRV item"
                + " '[1:2:3]:8080': expected <host>:<port>, the host * (any address of this machine), an IP address or"
                + " a host name, the port 1 to 65535 or * (any)");
    }
}
