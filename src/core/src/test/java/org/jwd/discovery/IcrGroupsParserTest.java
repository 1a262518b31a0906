package org.jwd.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link IcrGroupsParser} over SAP's examples ({@link SapExamples}), each naming its page. */
class IcrGroupsParserTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm, CRLF | crlf
            help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm, LF   | lf
            """)
    void readsTheInstancesAndTheGroupsOfTheIcf(String page, String form) throws InfoFormatException {
        String body = form.equals("lf") ? SapExamples.lf(SapExamples.GROUPS) : SapExamples.GROUPS;

        IcrGroups groups = IcrGroupsParser.parse(body);

        assertThat(groups.instances()).containsExactly("ls0042_ERP_00", "ls0043_ERP_01");
        assertThat(groups.groups()).isEqualTo(Map.of("CRMGRP", List.of("ls0043_ERP_01"),
                "SPACE", List.of("ls0042_ERP_00", "ls0043_ERP_01")));
        assertThat(groups.problems()).isEmpty();
    }

    @Test
    void readsWorkloadDistributionsIcrgroupsTxt() throws InfoFormatException {
        // WORKLOAD_PAGE: J2EE plus the dispatcher's cluster id, then <zonealias>:J2EE<cluster id>,...
        IcrGroups groups = IcrGroupsParser.parse(SapExamples.JAVA_GROUPS);

        assertThat(groups.instances()).containsExactly("J2EE6906720");
        assertThat(groups.groups()).containsOnlyKeys("za", "zb");
    }

    @Test
    void aGroupLineWithoutMembersOrNameIsReportedAndSkipped() throws InfoFormatException {
        IcrGroups groups = IcrGroupsParser.parse("version 1.0\nA:\n:x\nB: x , ,y\nC:x\nC:z,x\n");

        assertThat(groups.groups()).isEqualTo(Map.of("B", List.of("x", "y"), "C", List.of("x", "z")));
        assertThat(groups.problems()).hasSize(2).allSatisfy(p -> assertThat(p).contains("skipped"));
    }

    @Test
    void anHtmlPageIsNoGroupList() {
        assertThatThrownBy(() -> IcrGroupsParser.parse("<html>401</html>")).isInstanceOf(InfoFormatException.class)
                .hasMessageContaining("not a group list");
    }
}
