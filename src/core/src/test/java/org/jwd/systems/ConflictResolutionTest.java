package org.jwd.systems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jwd.systems.Props.problems;
import static org.jwd.systems.Props.systems;

import org.junit.jupiter.api.Test;

class ConflictResolutionTest {
    private static final String TELL_APART = ": expected criteria that tell them apart, or"
            + " wdisp/system_conflict_resolution = 1 (the first in entry order takes such requests)";

    @Test
    void theSameUrlPrefixInTwoSystemsIsAnErrorNamingBothEntriesAndThePrefix() {
        assertThat(problems("wdisp/system_0", "SID=ERP, SRCURL=/sap/;/erp/", "wdisp/system_1", "SID=GWY, SRCURL=/SAP")).containsExactly(
                "wdisp/system_0 (ERP) and wdisp/system_1 (GWY) overlap: a request with any SRCSRV, any SRCVHOST,"
                        + " SRCURL /sap/ meets both" + TELL_APART);
    }

    @Test
    void nestedUrlPrefixesAreNoOverlap() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/", "wdisp/system_1",
                "SID=GWY, SRCURL=/sap/opu/odata/");

        assertThat(systems.overlaps()).isEmpty();
    }

    @Test
    void caseSensitivePrefixesThatDifferInCaseAreNoOverlapButOneCaseInsensitiveIs() throws Exception {
        assertThat(systems("wdisp/system_0", "SID=ERP, SRCURL=case:/Sap/", "wdisp/system_1", "SID=GWY, SRCURL=case:/sap/")
                .overlaps()).isEmpty();
        assertThat(problems("wdisp/system_0", "SID=ERP, SRCURL=case:/Sap/", "wdisp/system_1", "SID=GWY, SRCURL=/sap/"))
                .containsExactly("wdisp/system_0 (ERP) and wdisp/system_1 (GWY) overlap: a request with any SRCSRV,"
                        + " any SRCVHOST, SRCURL case:/Sap/ meets both" + TELL_APART);
    }

    @Test
    void aWildcardAccessPointOverlapsAnAddressOnTheSamePort() {
        assertThat(problems("wdisp/system_0", "SID=ERP, SRCSRV=*:8080", "wdisp/system_1", "SID=PRT, SRCSRV=10.0.0.1:8080"))
                .containsExactly("wdisp/system_0 (ERP) and wdisp/system_1 (PRT) overlap: a request with SRCSRV"
                        + " 10.0.0.1:8080, any SRCVHOST, any SRCURL meets both" + TELL_APART);
    }

    @Test
    void anyPortOverlapsEveryPortAndAHostNameTheAddressItResolvesTo() throws Exception {
        assertThat(problems("wdisp/system_0", "SID=ERP, SRCSRV=*:*", "wdisp/system_1", "SID=PRT, SRCSRV=*:8080"))
                .containsExactly("wdisp/system_0 (ERP) and wdisp/system_1 (PRT) overlap: a request with SRCSRV"
                        + " *:8080, any SRCVHOST, any SRCURL meets both" + TELL_APART);
        assertThat(problems("wdisp/system_0", "SID=ERP, SRCSRV=localhost:*", "wdisp/system_1",
                "SID=PRT, SRCSRV=127.0.0.1:8080")).containsExactly("wdisp/system_0 (ERP) and wdisp/system_1 (PRT)"
                        + " overlap: a request with SRCSRV localhost:8080, any SRCVHOST, any SRCURL meets both"
                        + TELL_APART);
        assertThat(systems("wdisp/system_0", "SID=ERP, SRCSRV=localhost:*", "wdisp/system_1",
                "SID=PRT, SRCSRV=10.0.0.1:8080").overlaps()).isEmpty();
    }

    @Test
    void accessPointsOnOtherPortsOrAddressesAreNoOverlap() throws Exception {
        assertThat(systems("wdisp/system_0", "SID=ERP, SRCSRV=*:8080", "wdisp/system_1", "SID=PRT, SRCSRV=*:8081",
                "wdisp/system_2", "SID=GWY, SRCSRV=10.0.0.1:8082", "wdisp/system_3", "SID=ABC, SRCSRV=10.0.0.2:8082")
                .overlaps()).isEmpty();
    }

    @Test
    void aVirtualHostWithoutPortOverlapsTheSameNameWithAPortRegardlessOfCase() {
        assertThat(problems("wdisp/system_0", "SID=ERP, SRCVHOST=erp.example.com",
                "wdisp/system_1", "SID=PRT, SRCVHOST=ERP.example.com.:443")).containsExactly(
                "wdisp/system_0 (ERP) and wdisp/system_1 (PRT) overlap: a request with any SRCSRV, SRCVHOST"
                        + " erp.example.com:443, any SRCURL meets both" + TELL_APART);
    }

    @Test
    void aSystemWithoutUrlPrefixesOverlapsAnotherOnTheSameAccessPointOnlyAtTheRootPrefix() throws Exception {
        // PRT takes every path on 8080 except /sap/..., which ERP's longer prefix takes: no tie
        assertThat(systems("wdisp/system_0", "SID=PRT, SRCSRV=*:8080", "wdisp/system_1", "SID=ERP, SRCURL=/sap/")
                .overlaps()).isEmpty();
        assertThat(problems("wdisp/system_0", "SID=PRT, SRCSRV=*:8080", "wdisp/system_1", "SID=ERP, SRCURL=/")).containsExactly(
                "wdisp/system_0 (PRT) and wdisp/system_1 (ERP) overlap: a request with SRCSRV *:8080, any SRCVHOST,"
                        + " SRCURL / meets both" + TELL_APART);
    }

    @Test
    void criteriaThatTellSystemsApartInOneDimensionAreNoOverlap() throws Exception {
        // the same prefix, but on different ports
        assertThat(systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/, SRCSRV=*:8080",
                "wdisp/system_1", "SID=QAS, SRCURL=/sap/, SRCSRV=*:8081").overlaps()).isEmpty();
        // the same prefix, but for different virtual hosts
        assertThat(systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/, SRCVHOST=erp.example",
                "wdisp/system_1", "SID=QAS, SRCURL=/sap/, SRCVHOST=qas.example").overlaps()).isEmpty();
    }

    @Test
    void everyOverlappingPairIsReported() {
        assertThat(problems("wdisp/system_0", "SID=AAA, SRCURL=/x/", "wdisp/system_1", "SID=BBB, SRCURL=/x/",
                "wdisp/system_2", "SID=CCC, SRCURL=/x/")).containsExactly(
                "wdisp/system_0 (AAA) and wdisp/system_1 (BBB) overlap: a request with any SRCSRV, any SRCVHOST,"
                        + " SRCURL /x/ meets both" + TELL_APART,
                "wdisp/system_0 (AAA) and wdisp/system_2 (CCC) overlap: a request with any SRCSRV, any SRCVHOST,"
                        + " SRCURL /x/ meets both" + TELL_APART,
                "wdisp/system_1 (BBB) and wdisp/system_2 (CCC) overlap: a request with any SRCSRV, any SRCVHOST,"
                        + " SRCURL /x/ meets both" + TELL_APART);
    }

    @Test
    void withResolutionOneOverlapsAreAcceptedAndKeptForAWarning() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/", "wdisp/system_1", "SID=GWY, SRCURL=/sap/",
                "wdisp/system_conflict_resolution", "1");

        assertThat(systems.overlaps()).singleElement().hasToString(
                "wdisp/system_0 (ERP) and wdisp/system_1 (GWY) overlap: a request with any SRCSRV, any SRCVHOST,"
                        + " SRCURL /sap/ meets both");
    }
    @Test
    void aVirtualHostOfOneEntryOverlapsAnEntryWithoutVirtualHosts() {
        assertThat(problems("wdisp/system_0", "SID=ERP, SRCURL=/sap/", "wdisp/system_1",
                "SID=PRT, SRCURL=/sap/, SRCVHOST=portal.example")).containsExactly(
                "wdisp/system_0 (ERP) and wdisp/system_1 (PRT) overlap: a request with any SRCSRV, SRCVHOST"
                        + " portal.example, SRCURL /sap/ meets both" + TELL_APART);
    }
}
