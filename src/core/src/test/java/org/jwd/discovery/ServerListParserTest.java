package org.jwd.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ServerListParser} over the examples of SAP's pages ({@link SapExamples}), each row naming its page. */
class ServerListParserTest {
    static Stream<Arguments> forms() {
        return Stream.of(
                Arguments.of(SapExamples.SERVER_LIST_PAGE + ": CRLF and tabs, as the message server writes it",
                        UnaryOperator.<String>identity()),
                Arguments.of(SapExamples.SERVER_LIST_PAGE + ": LF", (UnaryOperator<String>) SapExamples::lf),
                Arguments.of(SapExamples.SERVER_LIST_PAGE + ": spaces", (UnaryOperator<String>) SapExamples::spaces),
                Arguments.of(SapExamples.SERVER_LIST_PAGE + ": LF and spaces",
                        (UnaryOperator<String>) b -> SapExamples.spaces(SapExamples.lf(b))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forms")
    void readsTheInstancesTheirRowsAndCapacitiesInEveryForm(String page, UnaryOperator<String> form)
            throws InfoFormatException {
        ServerList list = ServerListParser.parse(form.apply(SapExamples.SERVER_LIST));

        assertThat(list.version()).isEqualTo("1.2");
        assertThat(list.problems()).isEmpty();
        assertThat(list.instances()).extracting(ServerList.Instance::name)
                .containsExactly("ls0042_ERP_00", "ls0043_ERP_01", "J2EE6906720");
        ServerList.Instance first = list.instances().get(0);
        assertThat(first.rows()).extracting(ServerList.Row::toString).containsExactly(
                "DIAG ls0042.example.com 3200 LB=8", "RFC ls0042.example.com 3300",
                "HTTP ls0042.example.com 8000", "HTTPS ls0042.example.com 44300",
                "HTTPS ls0042.example.com 44300 VHOST=0");
        assertThat(first.row("DIAG").lb()).isEqualTo(8);
        assertThat(first.hasAbap()).isTrue();
        assertThat(first.hasJava()).isFalse();
        ServerList.Instance java = list.instances().get(2);
        assertThat(java.hasAbap()).isFalse();
        assertThat(java.hasJava()).isTrue();
        assertThat(java.row("J2EE").lb()).isEqualTo(3);
    }

    @Test
    void aDualStackInstanceHasBothStacks() throws InfoFormatException {
        // RETRIEVAL_PAGE: "a dual-stack instance has an ABAP capacity and a Java capacity"
        ServerList.Instance dual = ServerListParser.parse(SapExamples.DUAL_STACK).instances().get(0);

        assertThat(dual.hasAbap()).isTrue();
        assertThat(dual.hasJava()).isTrue();
        assertThat(dual.row("DIAG").lb()).isEqualTo(10);
        assertThat(dual.row("J2EE").lb()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            an unknown protocol row is skipped (help.sap.com/saphelp_crm60/helpdata/en/1f/63af32f15e7d479227a9528c5def2a/content.htm) | VMC\\th\\t1\\tx                | -
            a later protocol in lower case is skipped too                          | gopher\\th\\t70                | -
            a port that is no number                                               | HTTP\\th\\teighty\\t            | port 'eighty' of HTTP is not a port number
            a port out of range                                                    | HTTP\\th\\t70000\\t             | port '70000' of HTTP is not a port number
            a row cut short (a truncated list)                                     | HTTP\\th                        | is cut short
            """)
    void aRowThatCannotBeReadIsReportedOrSkippedAndTheOthersStay(String what, String row, String problem)
            throws InfoFormatException {
        String body = "version 1.2\r\nls1_ERP_00\r\nDIAG\th\t3200\tLB=2\r\nHTTP\th\t8000\t\r\n"
                + row.replace("\\t", "\t") + "\r\n";

        ServerList list = ServerListParser.parse(body);

        assertThat(list.instances()).singleElement().satisfies(i -> assertThat(i.rows()).hasSize(2));
        if (problem == null) {
            assertThat(list.problems()).isEmpty();
        } else {
            assertThat(list.problems()).singleElement().asString().contains("instance ls1_ERP_00", problem);
        }
    }

    @Test
    void anInstanceNamedTwiceKeepsTheFirstAndSaysSo() throws InfoFormatException {
        ServerList list = ServerListParser.parse("version 1.2\nls1_ERP_00\nHTTP h1 8000\n\nls1_ERP_00\nHTTP h2 8000\n");

        assertThat(list.instances()).singleElement().satisfies(i -> assertThat(i.row("HTTP").host()).isEqualTo("h1"));
        assertThat(list.problems()).containsExactly("instance ls1_ERP_00 is listed twice: the second is left out");
    }

    @Test
    void aListCutAfterAnInstanceNameLeavesThatInstanceOutAndSaysSo() throws InfoFormatException {
        ServerList list = ServerListParser.parse("version 1.2\r\nls1_ERP_00\r\nHTTP\th\t8000\t\r\n\r\nls2_ERP_01");

        assertThat(list.instances()).extracting(ServerList.Instance::name).containsExactly("ls1_ERP_00");
        assertThat(list.problems()).singleElement().asString().contains("instance ls2_ERP_01 has no row");
    }

    @Test
    void aListOfNoInstanceIsAListOfNoInstance() throws InfoFormatException {
        assertThat(ServerListParser.parse("version 1.2\r\n").instances()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            an HTML page (the message server's browser view)    | <html><head><title>Message Server</title>  | an HTML page, not a server list
            a log-on page in plain text                          | Please log on                              | the first line is 'Please log on', expected 'version 1.2'
            nothing                                              | ''                                         | an empty answer
            """)
    void aBodyThatIsNoServerListIsRefusedWithTheParsersOwnException(String what, String body, String message) {
        assertThatThrownBy(() -> ServerListParser.parse(body)).isInstanceOf(InfoFormatException.class)
                .hasMessageContaining(message);
    }

    @Test
    void lbIsReadFromTheDescriptionWhereverItStands() {
        assertThat(List.of("LB=3", "VHOST=0 LB=3", "LB=3,VHOST=0", "SLB=3", "").stream()
                .map(d -> new ServerList.Row("DIAG", "h", 1, d).lb()).toList())
                .containsExactly(3, 3, 3, null, null);
    }
}
