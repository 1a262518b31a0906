package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class AdminJsonTest {
    @Test
    void escapesStringsSoThatTheyCannotCloseAScriptElement() {
        assertThat(AdminJson.write("a\"b\\c\nd\r\te</script>\u0001\b\u2028\u2029ä"))
                .isEqualTo("\"a\\\"b\\\\c\\nd\\r\\te\\u003c/script>\\u0001\\u0008\\u2028\\u2029ä\"");
    }

    @Test
    void writesWholeDecimalsWithoutAFractionAndNonNumbersAsNull() {
        assertThat(AdminJson.write(Arrays.asList(2.0, 0.5, -3.0, 1e15, Double.NaN, Double.NEGATIVE_INFINITY, 7L,
                null))).isEqualTo("[2,0.5,-3,1.0E15,null,null,7,null]");
        assertThat(AdminJson.write(new GroupView.Member("a", 2, 1000.0, 0, 5, "up", "http://h:1")))
                .as("a primitive double component too")
                .isEqualTo("{\"id\":\"a\",\"capacity\":2,\"value\":1000,\"in_flight\":0,\"served\":5,\"state\":\"up\","
                        + "\"url\":\"http://h:1\"}");
    }

    @Test
    void leavesOutOnlyTheFieldsDeclaredAsOptional() {
        assertThat(AdminJson.write(new ErrorView("no server x"))).isEqualTo("{\"error\":\"no server x\"}");
        assertThat(AdminJson.write(new ErrorView("invalid", List.of("a = '': expected b"))))
                .isEqualTo("{\"error\":\"invalid\",\"problems\":[\"a = '': expected b\"]}");
        assertThat(AdminJson.write(new ExplainView.Permission(null, "permitted")))
                .isEqualTo("{\"rule\":null,\"verdict\":\"permitted\"}");
    }

    @Test
    void readsAnObjectKeepingItsOrderAndTypes() {
        assertThat(AdminJson.readUntrusted(" { \"b\" : [ \"\\u0041\\t\\/\" , 1e3, 2 ], \"a\": null } ").toString())
                .isEqualTo("{\"b\":[\"A\\t/\",1000.0,2],\"a\":null}");
    }

    @Test
    void refusesMalformedTextNamingWhereAndWhy() {
        for (String bad : new String[] {"{", "{\"a\"}", "{\"a\":1,}", "[1 2]", "\"open", "tru", "{} x", "01",
                "{a:1}", "\"\\x\"", "{\"a\":1} {\"b\":2}", "// note\n{}", "{\"a\":NaN}"}) {
            assertThatThrownBy(() -> AdminJson.readUntrusted(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("invalid JSON at line ");
        }
        assertThatThrownBy(() -> AdminJson.readUntrusted("{\"url\":\"http://h:1\",\n\"a\":1}x"))
                .hasMessageStartingWith("invalid JSON at line 2, column 7: ");
        for (String empty : new String[] {"", "  \n"}) {
            assertThatThrownBy(() -> AdminJson.readUntrusted(empty))
                    .hasMessage("invalid JSON: a value was expected, the body is empty");
        }
    }

    @Test
    void refusesAKeyGivenTwice() {
        String twice = "{\"url\":\"http://a:1\",\"type\":\"j2ee\",\"url\":\"http://b:1\"}";
        assertThatThrownBy(() -> AdminJson.readUntrusted(twice)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid JSON at line 1, column 40: Duplicate field 'url'");
    }

    @Test
    void refusesDeepNestingLongNumbersAndLongDocuments() {
        assertThat(AdminJson.readUntrusted("[".repeat(AdminJson.MAX_DEPTH) + "]".repeat(AdminJson.MAX_DEPTH))
                .isArray()).isTrue();
        assertThatThrownBy(() -> AdminJson.readUntrusted("[".repeat(AdminJson.MAX_DEPTH + 1)
                + "]".repeat(AdminJson.MAX_DEPTH + 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nesting depth");
        assertThatThrownBy(() -> AdminJson.readUntrusted("{\"capacity\":" + "9".repeat(40) + "}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Number value length");
        String padded = "{\"url\":\"" + "x".repeat(AdminJson.MAX_DOCUMENT) + "\"}";
        assertThatThrownBy(() -> AdminJson.readUntrusted(padded))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Document length");
    }
}
