package org.jwd.systems;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SelectionTest {

    @Test
    void quotesAClientsTextWithControlNonAsciiQuoteAndBackslashEscaped() {
        assertThat(Selection.quote("a\u001f \u007e\u007f\u00e4'\\"))
                .isEqualTo("'a\\u001f ~\\u007f\\u00e4\\u0027\\u005c'");
        assertThat(Selection.quote(null)).isEqualTo("(none)");
    }

    @Test
    void keeps200CharactersAndMarksWhatItCut() {
        String kept = "h".repeat(200);

        assertThat(Selection.quote(kept)).isEqualTo("'" + kept + "'");
        assertThat(Selection.quote(kept + "x")).isEqualTo("'" + kept + "...'");
    }
}
