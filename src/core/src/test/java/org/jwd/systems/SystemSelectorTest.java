package org.jwd.systems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jwd.systems.Props.systems;

import org.jwd.routing.PathNormalizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SystemSelectorTest {

    private static Selection select(Systems systems, String localAddress, int port, String host, String path)
            throws Exception {
        return new SystemSelector(systems).select(
                new SelectionRequest(localAddress, port, host, false, PathNormalizer.normalize(path)));
    }

    private static Selection select(Systems systems, int port, String host, String path) throws Exception {
        return select(systems, "127.0.0.1", port, host, path);
    }

    @Test
    void selectsByUrlPrefixRegardlessOfCaseAsTheIcfDoes() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/", "wdisp/system_1", "SID=PRT, SRCURL=/irj/");

        assertThat(select(systems, 8080, "jwd.example", "/sap/bc/gui").explanation())
                .isEqualTo("system ERP: SRCURL /sap/ matched");
        assertThat(select(systems, 8080, "jwd.example", "/SAP/BC/gui").system().sid()).isEqualTo("ERP");
        assertThat(select(systems, 8080, "jwd.example", "/irj").explanation()).isEqualTo("system PRT: SRCURL /irj/ matched");
        assertThat(select(systems, 8080, "jwd.example", "/irjx").found()).isFalse();
    }

    @Test
    void aCaseSensitivePrefixMatchesOnlyItsOwnCase() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=case:/Sap/");

        assertThat(select(systems, 8080, "h", "/Sap/x").found()).isTrue();
        assertThat(select(systems, 8080, "h", "/sap/x").found()).isFalse();
    }

    @Test
    void theLongestUrlPrefixWinsAcrossSystems() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/",
                "wdisp/system_1", "SID=GWY, SRCURL=/sap/opu/odata/");

        assertThat(select(systems, 8080, "h", "/sap/opu/odata/svc").explanation())
                .isEqualTo("system GWY: SRCURL /sap/opu/odata/ matched");
        assertThat(select(systems, 8080, "h", "/sap/opu/other").explanation())
                .isEqualTo("system ERP: SRCURL /sap/ matched");
    }

    @Test
    void selectsByTheAccessPointAPortOrAnAddressAndPort() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=PRT, SRCSRV=*:8080",
                "wdisp/system_1", "SID=ERP, SRCSRV=10.0.0.1:8081;[::1]:8081");

        assertThat(select(systems, 8080, "h", "/x").explanation()).isEqualTo("system PRT: SRCSRV *:8080 matched");
        assertThat(select(systems, "10.0.0.1", 8081, "h", "/x").explanation())
                .isEqualTo("system ERP: SRCSRV 10.0.0.1:8081 matched");
        assertThat(select(systems, "0:0:0:0:0:0:0:1", 8081, "h", "/x").explanation())
                .isEqualTo("system ERP: SRCSRV [0:0:0:0:0:0:0:1]:8081 matched");
        assertThat(select(systems, "[::1]", 8081, "h", "/x").system().sid()).isEqualTo("ERP");
        assertThat(select(systems, "10.0.0.2", 8081, "h", "/x").found()).isFalse();
    }

    /**
     * SAP's syntax {@code SRCSRV=<src-host>:<source-ports>} (help.sap.com, {@code wdisp/system_<xx>}), with
     * {@code SRCSRV=*:*} as in the Web Dispatcher profile of SAP's X.509 logon guides ("Enable certificate based
     * logon - 5 Configure SAP Web Dispatcher"): any port, and host names as well as addresses.
     */
    @ParameterizedTest(name = "SRCSRV={0}, connection to {1}:{2} -> {3}")
    @CsvSource(delimiter = '|', value = {
        "*:*            | 127.0.0.1 | 8080 | true  | SRCSRV *:* matched",
        "*:*            | 10.0.0.1  | 1    | true  | SRCSRV *:* matched",
        "localhost:8080 | 127.0.0.1 | 8080 | true  | SRCSRV localhost:8080 matched",
        "localhost:8080 | 127.0.0.1 | 8081 | false | ",
        "localhost:*    | 127.0.0.1 | 9999 | true  | SRCSRV localhost:* matched",
        "localhost:*    | 10.0.0.9  | 9999 | false | ",
        "10.0.0.1:*     | 10.0.0.1  | 443  | true  | SRCSRV 10.0.0.1:* matched",
    })
    void srcsrvTakesAnyPortAndHostNamesAsSapWritesThem(String srcsrv, String address, int port, boolean found,
                                                       String why) throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCSRV=" + srcsrv);

        Selection selection = select(systems, address, port, "h", "/x");

        assertThat(selection.found()).isEqualTo(found);
        if (found) {
            assertThat(selection.explanation()).isEqualTo("system ERP: " + why);
        }
    }

    @Test
    void selectsByTheHostHeaderWithTheSchemesPortWhenItHasNone() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCVHOST=erp.example.com",
                "wdisp/system_1", "SID=PRT, SRCVHOST=portal.example.com:443");
        SystemSelector selector = new SystemSelector(systems);

        assertThat(select(systems, 8080, "ERP.Example.com.:8080", "/x").explanation())
                .isEqualTo("system ERP: SRCVHOST erp.example.com matched");
        assertThat(selector.select(new SelectionRequest("127.0.0.1", 8443, "portal.example.com", true,
                PathNormalizer.normalize("/x"))).explanation()).isEqualTo("system PRT: SRCVHOST portal.example.com:443 matched");
        assertThat(selector.select(new SelectionRequest("127.0.0.1", 8080, "portal.example.com", false,
                PathNormalizer.normalize("/x"))).found()).isFalse();
        assertThat(select(systems, 8080, null, "/x").found()).isFalse();
        assertThat(select(systems, 8080, "erp.example.com:notaport", "/x").found()).isFalse();
    }

    @Test
    void everyCriterionOfAnEntryMustBeMet() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=GWY, SRCSRV=*:443, SRCVHOST=gw.example, SRCURL=/sap/opu/odata/");

        assertThat(select(systems, 443, "gw.example", "/sap/opu/odata/x").explanation())
                .isEqualTo("system GWY: SRCSRV *:443, SRCVHOST gw.example and SRCURL /sap/opu/odata/ matched");
        assertThat(select(systems, 8443, "gw.example", "/sap/opu/odata/x").found()).isFalse();
        assertThat(select(systems, 443, "other.example", "/sap/opu/odata/x").found()).isFalse();
        assertThat(select(systems, 443, "gw.example", "/sap/bc/x").found()).isFalse();
    }

    @Test
    void aLongerPrefixWinsOverAnEntryWithoutPrefixesOnTheSamePort() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=PRT, SRCSRV=*:8080", "wdisp/system_1", "SID=ERP, SRCURL=/sap/");

        assertThat(select(systems, 8080, "h", "/sap/bc/x").system().sid()).isEqualTo("ERP");
        assertThat(select(systems, 8080, "h", "/irj/portal").system().sid()).isEqualTo("PRT");
    }

    @Test
    void aSystemWithTwoEntriesIsReachedByEither() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=PRT, SRCSRV=*:8080", "wdisp/system_1", "SID=ERP, SRCURL=/sap/",
                "wdisp/system_2", "SID=ERP, SRCSRV=*:8081");

        assertThat(select(systems, 8080, "h", "/sap/bc/x").explanation()).isEqualTo("system ERP: SRCURL /sap/ matched");
        assertThat(select(systems, 8081, "h", "/irj/x").explanation()).isEqualTo("system ERP: SRCSRV *:8081 matched");
        assertThat(select(systems, 8081, "h", "/sap/x").system()).isSameAs(systems.system("ERP"));
        assertThat(select(systems, 8080, "h", "/irj/x").system().sid()).isEqualTo("PRT");
    }

    @Test
    void withResolutionOneTheFirstOfEquallyMatchingEntriesInEntryOrderWins() throws Exception {
        Systems systems = systems("wdisp/system_5", "SID=QAS, SRCURL=/sap/", "wdisp/system_2", "SID=ERP, SRCURL=/sap/",
                "wdisp/system_conflict_resolution", "1");

        assertThat(select(systems, 8080, "h", "/sap/x").explanation()).isEqualTo(
                "system ERP: SRCURL /sap/ matched (first in entry order before QAS, wdisp/system_conflict_resolution=1)");
    }

    @Test
    void aRequestNoSystemMatchesGetsNoneWithHostPortAndPath() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/");

        Selection none = select(systems, 8080, "jwd.example:8080", "/irj/portal");

        assertThat(none.found()).isFalse();
        assertThat(none.system()).isNull();
        assertThat(none.explanation()).isEqualTo("no system for host 'jwd.example:8080', port 8080, path '/irj/portal':"
                + " no wdisp/system_<xx> matched and no jwd.default_system is configured");
    }

    @Test
    void theHostOfANoSystemAnswerCannotForgeALineOrAPage() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/");

        assertThat(select(systems, 8080, "a\r\nX: 'y'", "/x").explanation())
                .startsWith("no system for host 'a\\u000d\\u000aX: \\u0027y\\u0027', port 8080");
        assertThat(select(systems, 8080, "h".repeat(300), "/x").explanation())
                .contains("'" + "h".repeat(200) + "...'");
    }

    @Test
    void aRequestNoSystemMatchesGoesToTheDefaultSystem() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/", "wdisp/system_1", "SID=PRT, SRCURL=/irj/",
                "jwd.default_system", "PRT");

        Selection selection = select(systems, 8080, "jwd.example", "/other");

        assertThat(selection.system().sid()).isEqualTo("PRT");
        assertThat(selection.explanation()).isEqualTo("system PRT: no wdisp/system_<xx> matched host 'jwd.example',"
                + " port 8080, path '/other', jwd.default_system=PRT");
    }

    @Test
    void withoutEntriesEveryRequestGoesToTheImplicitSystem() throws Exception {
        Selection selection = select(Systems.implicit(), 8080, null, "/anything");

        assertThat(selection.system()).isSameAs(SystemEntry.implicit());
        assertThat(selection.explanation()).isEqualTo("the only system: no wdisp/system_<xx> is configured");
    }

    @Test
    void aSystemNamedByTheRequestTakesItInAnyCaseAndAnUnknownOneNamesTheSystemsThereAre() throws Exception {
        SystemSelector selector = new SystemSelector(systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/",
                "wdisp/system_1", "SID=PRT, SRCURL=/irj/"));

        assertThat(selector.selectNamed("prt", "x-sap-webdisp-target-sid").explanation())
                .isEqualTo("system PRT: named by x-sap-webdisp-target-sid");
        assertThat(selector.selectNamed("prt", "x-sap-webdisp-target-sid").system().sid()).isEqualTo("PRT");
        Selection unknown = selector.selectNamed("QAS", "the rule");
        assertThat(unknown.found()).isFalse();
        assertThat(unknown.explanation()).isEqualTo("no system 'QAS', which the rule names: expected the SID of a"
                + " wdisp/system_<xx> entry: one of ERP, PRT");
    }

    @Test
    void withoutSystemEntriesNoSystemCanBeNamed() {
        Selection none = new SystemSelector(Systems.implicit()).selectNamed("ERP", "the rule");

        assertThat(none.found()).isFalse();
        assertThat(none.explanation()).endsWith("entry (there is none)");
    }
    @Test
    void aPathThatIsThePrefixItselfIsCoveredByIt() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/");

        assertThat(select(systems, 8080, "h", "/sap/").explanation()).isEqualTo("system ERP: SRCURL /sap/ matched");
        assertThat(select(systems, 8080, "h", "/sap").explanation()).isEqualTo("system ERP: SRCURL /sap/ matched");
    }

    @Test
    void theLongestOfAnEntrysPrefixesCoveringThePathIsTheOneNamed() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=GWY, SRCURL=/sap/;/sap/opu/odata/;/sap/opu/");

        assertThat(select(systems, 8080, "h", "/sap/opu/odata/svc").explanation())
                .isEqualTo("system GWY: SRCURL /sap/opu/odata/ matched");
        assertThat(select(systems, 8080, "h", "/sap/opu/rest").explanation())
                .isEqualTo("system GWY: SRCURL /sap/opu/ matched");
    }

    @Test
    void entriesTiedBelowTheBestMatchAreNotNamedInItsExplanation() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=PRT, SRCURL=/", "wdisp/system_1", "SID=QAS, SRCURL=/",
                "wdisp/system_2", "SID=ERP, SRCURL=/sap/", "wdisp/system_conflict_resolution", "1");

        assertThat(select(systems, 8080, "h", "/sap/x").explanation()).isEqualTo("system ERP: SRCURL /sap/ matched");
        assertThat(select(systems, 8080, "h", "/irj/x").explanation()).isEqualTo(
                "system PRT: SRCURL / matched (first in entry order before QAS, wdisp/system_conflict_resolution=1)");
    }
}
