package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void writesValuesInOrder() {
        Object value = Json.obj("id", "a", "n", 3, "x", 0.5, "whole", 2.0, "ok", true, "none", null,
                "list", List.of(1, "two"));

        assertThat(Json.write(value))
                .isEqualTo("{\"id\":\"a\",\"n\":3,\"x\":0.5,\"whole\":2,\"ok\":true,\"none\":null,\"list\":[1,\"two\"]}");
    }

    @Test
    void escapesStringsSoThatTheyCannotCloseAScriptElement() {
        assertThat(Json.write("a\"b\\c\nd</script>\u0001")).isEqualTo("\"a\\\"b\\\\c\\nd\\u003c/script>\\u0001\"");
    }

    @Test
    void readsBackWhatItWrites() {
        Map<String, Object> value = Json.obj("s", "ä\"\n<", "n", -12L, "d", 1.5, "b", false, "z", null,
                "l", Arrays.asList(1L, "x", null), "o", Json.obj("k", "v"));

        assertThat(Json.parse(Json.write(value))).isEqualTo(value);
    }

    @Test
    void readsEscapesAndWhitespace() {
        assertThat(Json.parse(" { \"a\" : [ \"\\u0041\\t\\/\" , 1e3 ] } "))
                .isEqualTo(Json.obj("a", List.of("A\t/", 1000.0)));
    }

    @Test
    void refusesMalformedText() {
        for (String bad : new String[] {"", "{", "{\"a\"}", "{\"a\":1,}", "[1 2]", "\"open", "tru", "{} x", "01x",
                "{a:1}", "\"\\x\""}) {
            assertThatThrownBy(() -> Json.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void refusesDeepNesting() {
        assertThatThrownBy(() -> Json.parse("[".repeat(100) + "]".repeat(100)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nested");
    }
}
