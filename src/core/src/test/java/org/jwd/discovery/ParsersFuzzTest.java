package org.jwd.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jwd.properties.RandomInput;
import org.jwd.properties.Tries;
import org.jwd.routing.IcrUrlPrefixParser;
import org.junit.jupiter.api.Test;

/**
 * The three parsers over random mutations of real answers (SAP's examples, {@link SapExamples}): bytes dropped,
 * doubled, swapped, replaced by separators, controls and non-ASCII, lines cut, bodies truncated. Whatever comes in,
 * a parser answers a value or its own {@link InfoFormatException}, never another exception; and the view builder
 * likewise ({@code -Djwd.seed=N} for other inputs).
 */
class ParsersFuzzTest {
    private static final List<String> REAL = List.of(SapExamples.SERVER_LIST, SapExamples.DUAL_STACK,
            SapExamples.URL_PREFIXES, SapExamples.GROUPS, SapExamples.JAVA_URL_PREFIXES, SapExamples.JAVA_GROUPS);
    private static final String[] SPLICES = {"\t", " ", "\r\n", "\n", "\r", "", "=", "&", ":", ",", "LB=", "LB=-1",
            "LB=99999999999", "PREFIX=", "PREFIX=/", "version 1.2", "version 9.9", "\u0000", "\u00e9", "\ud800", "%",
            "%2e%2e", "..", "/", "HTTP", "DIAG", "J2EE", "65536", "-1", "[::1]", "host name"};

    static String mutated(RandomInput in) {
        StringBuilder body = new StringBuilder(in.pick(REAL));
        int mutations = in.between(1, 12);
        for (int m = 0; m < mutations && body.length() > 0; m++) {
            int at = in.between(0, body.length() - 1);
            int len = Math.min(body.length() - at, in.between(0, 20));
            switch (in.weighted(3, 3, 2, 1, 1)) {
                case 0 -> body.replace(at, at + len, in.pick(SPLICES));
                case 1 -> body.insert(at, in.pick(SPLICES));
                case 2 -> body.delete(at, at + len);
                case 3 -> body.setLength(at);
                default -> body.insert(at, in.anyChars(8));
            }
        }
        return body.toString();
    }

    @Test
    void noMutationOfARealAnswerMakesAParserThrowAnythingButItsOwnException() {
        ViewBuilder builder = new ViewBuilder(DiscoveryConfig.NONE);
        Tries.forAllStrings(3000, ParsersFuzzTest::mutated, body -> {
            try {
                ServerListParser.parse(body);
            } catch (InfoFormatException e) {
                assertThat(e.getMessage()).isNotBlank();
            }
            try {
                IcrGroupsParser.parse(body);
            } catch (InfoFormatException e) {
                assertThat(e.getMessage()).isNotBlank();
            }
            IcrUrlPrefixParser.parse(body);
            try {
                builder.build("-", new Answers(body, body, body, body, body, "s", null, 1));
            } catch (InfoFormatException e) {
                assertThat(e.getMessage()).isNotBlank();
            }
        });
    }
}
