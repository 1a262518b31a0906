package org.jwd.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerState;
import org.jwd.config.ServerType;
import org.jwd.routing.UrlPrefix;
import org.junit.jupiter.api.Test;

/** What {@link ViewBuilder} decides from SAP's answers: servers, capacities, stacks, groups, the URL mapping. */
class ViewBuilderTest {
    private static Answers answers(String list, String urlMap, String groups, String javaMap, String javaGroups) {
        return new Answers(list, urlMap, groups, javaMap, javaGroups, "http://ms:8101/msgserver/text/logon", null, 1);
    }

    private static ViewBuilder builder(ServerOverride... overrides) {
        return new ViewBuilder(new DiscoveryConfig(List.of(), Locations.DEFAULT, Duration.ofSeconds(25),
                Duration.ofSeconds(5), List.of(overrides), null));
    }

    @Test
    void abapAndJavaInstancesBecomeServersWithTheListsCapacitiesGroupsAndPrefixes() throws InfoFormatException {
        SystemView view = builder().build("-", answers(SapExamples.SERVER_LIST, SapExamples.URL_PREFIXES,
                SapExamples.GROUPS, SapExamples.JAVA_URL_PREFIXES, SapExamples.JAVA_GROUPS)).view();

        assertThat(view.servers()).extracting(ServerConfig::toString).containsExactly(
                "ls0042_ERP_00(abap http://ls0042.example.com:8000 capacity 8)",
                "ls0043_ERP_01(abap http://ls0043.example.com:8001 capacity 4)",
                "J2EE6906720(j2ee http://ls0044.example.com:50000 capacity 3)");
        ServerConfig first = view.servers().get(0);
        assertThat(first.httpsUrl()).hasToString("https://ls0042.example.com:44300");
        assertThat(first.name()).isEqualTo("ls0042_ERP_00");
        assertThat(first.healthPath()).isEqualTo(ServerConfig.ABAP_PING_PATH);
        assertThat(view.servers().get(1).logonGroups()).isEqualTo(Set.of("CRMGRP"));
        assertThat(view.servers().get(2).logonGroups()).isEqualTo(Set.of("za", "zb"));
        assertThat(view.logonGroups()).extracting(LogonGroupConfig::toString).containsExactly(
                "logon group CRMGRP (type B, prefixes [/sap/crm/])",
                "logon group za (type B, prefixes [/irj~za/])",
                "logon group zb (type B, prefixes [/irj~zb/])");
        assertThat(view.abapPrefixes()).extracting(UrlPrefix::toString)
                .containsExactly("/sap/bc/", "/sap/public/", "/sap/crm/");
    }

    @Test
    void aDualStackInstanceIsAnAbapServerAndAJavaServerOfOneSapName() throws InfoFormatException {
        SystemView view = builder().build("-", answers(SapExamples.DUAL_STACK, null, null, null, null)).view();

        assertThat(view.servers()).extracting(ServerConfig::id, ServerConfig::type, ServerConfig::capacity,
                        ServerConfig::name)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ls0050_PI1_00", ServerType.ABAP, 10,
                                "ls0050_PI1_00"),
                        org.assertj.core.groups.Tuple.tuple("ls0050_PI1_00-j2ee", ServerType.J2EE, 2,
                                "ls0050_PI1_00"));
        assertThat(view.servers().get(1).url()).hasToString("http://ls0050:50000");
    }

    @Test
    void wdispServerSetsCapacitiesAndDrainsAnInactiveInstance() throws InfoFormatException {
        SystemView view = builder(new ServerOverride("wdisp/server_0", "ls0050_PI1_00", 3, 7, false))
                .build("-", answers(SapExamples.DUAL_STACK, null, null, null, null)).view();

        assertThat(view.servers()).extracting(ServerConfig::capacity).containsExactly(3, 7);
        assertThat(view.servers()).extracting(ServerConfig::state)
                .containsOnly(ServerState.DRAINED);
    }

    @Test
    void anInstanceWithoutAnHttpRowIsLeftOutAndNamed() throws InfoFormatException {
        ViewBuilder.Built built = builder().build("-", answers("version 1.2\nls1_ERP_00\nDIAG h 3200 LB=2\n\n"
                + "ls2_ERP_01\nDIAG h2 3201 LB=2\nHTTP h2 8001\n", null, null, null, null));

        assertThat(built.view().servers()).extracting(ServerConfig::id).containsExactly("ls2_ERP_01");
        assertThat(built.problems()).containsExactly("instance ls1_ERP_00 has no HTTP or HTTPS row for its ABAP stack:"
                + " it serves no HTTP, left out");
    }

    @Test
    void aRootPrefixIsLeftOutWithAProblemAndTheOtherLinesStay() throws InfoFormatException {
        ViewBuilder.Built built = builder().build("-", answers(SapExamples.SERVER_LIST,
                "version 1.0\nPREFIX=/&CASE=&VHOST=*.*;\nPREFIX=/sap/bc/&CASE=\n", null, null, null));

        assertThat(built.view().abapPrefixes()).extracting(UrlPrefix::toString).containsExactly("/sap/bc/");
        assertThat(built.problems()).containsExactly("URL mapping table: PREFIX=/ would take every URL: left out");
    }

    @Test
    void aListWithoutInstancesIsNoViewAtAll() {
        assertThatThrownBy(() -> builder().build("-", answers("version 1.2\r\n", null, null, null, null)))
                .isInstanceOf(InfoFormatException.class).hasMessageContaining("names no instance");
    }

    @Test
    void anInstanceNameBecomesAServerIdOfTheCharactersAnIdMayHave() {
        assertThat(ViewBuilder.idOf("ls0042.example.com_ERP_00")).isEqualTo("ls0042-example-com_ERP_00");
    }
}
