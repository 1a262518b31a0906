package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link IcrUrlPrefixParser}, the one reader of SAP's URL mapping table, over the lines of SAP's pages: each row names
 * the page it comes from ("Server Groups in the Internet Communication Framework" for icr_urlprefix, Workload
 * Distribution's "Configuring the SAP Web Dispatcher" for urlinfo.txt).
 */
class IcrUrlPrefixParserTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm | PREFIX=/sap/bc/&CASE=&VHOST=*.*;                                  | /sap/bc/ abap             | -
            help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm | PREFIX=/sap/bc/&GROUP=CRM&CASE=&VHOST=*.*;&STACK=ABAP             | /sap/bc/ group CRM abap   | -
            help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm | PREFIX=/sap/bc/&GROUP=&CASE=X&VHOST=*.*;&STACK=ABAP               | case:/sap/bc/ abap        | -
            help.sap.com/saphelp_sm71_sp13/helpdata/en/87/252c4142aef623e10000000a155106/content.htm     | PREFIX=/irj~za/&GROUP=za&CASE=&VHOST=*.*;&STACK=J2EE              | /irj~za/ group za j2ee    | -
            help.sap.com/saphelp_sm71_sp13/helpdata/en/87/252c4142aef623e10000000a155106/content.htm     | version 1.0                                                       | -                         | -
            help.sap.com/saphelp_sm71_sp13/helpdata/en/87/252c4142aef623e10000000a155106/content.htm     | PREFIX=/irj~za/&GROUP=za&CASE=&VHOST=*.*;&STACK=J2EE&LATER=1      | /irj~za/ group za j2ee    | -
            help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm | PREFIX=/sap/bc/&STACK=ODATA                                       | /sap/bc/ abap             | STACK='ODATA' is neither ABAP nor J2EE
            help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm | PREFIX=/&CASE=&VHOST=*.*;                                         | / abap                    | -
            help.sap.com/saphelp_snc700_ehp01/helpdata/en/48/99cd9e7f020e27e10000000a421937/content.htm | GROUP=G&CASE=                                                     | -                         | has no PREFIX=
            """)
    void aLineIsReadAsSapWritesIt(String page, String line, String expected, String problem) {
        IcrUrlPrefixParser.Result result = IcrUrlPrefixParser.parse(line + "\r\n");

        assertThat(result.entries()).extracting(IcrUrlPrefixParser.Entry::toString)
                .isEqualTo(expected == null ? java.util.List.of() : java.util.List.of(expected));
        if (problem == null) {
            assertThat(result.problems()).isEmpty();
        } else {
            assertThat(result.problems()).singleElement().asString().contains(problem);
        }
    }
}
