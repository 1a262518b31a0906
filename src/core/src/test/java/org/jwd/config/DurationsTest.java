package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void aBareNumberOtherThanZeroNeedsItsUnit() {
        assertThat(Durations.parse("0")).isZero();
        assertThat(Durations.parse("000")).isZero();
        assertThatThrownBy(() -> Durations.parse("30")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a bare number: '30'");
    }

    @Test
    void takesAnAmountOfAtMost15Digits() {
        assertThat(Durations.parseMillis("999999999999999ms")).isEqualTo(Duration.ofMillis(999_999_999_999_999L));
        assertThatThrownBy(() -> Durations.parseMillis("1000000000000000ms"))
                .hasMessage("not a duration: '1000000000000000ms'");
        assertThat(Durations.parseSeconds("999999999999999")).isEqualTo(Duration.ofSeconds(999_999_999_999_999L));
        assertThatThrownBy(() -> Durations.parseSeconds("1000000000000000"))
                .hasMessage("not a duration: '1000000000000000'");
    }

    @Test
    void writesTheShortestExactForm() {
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0ms");
        assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(Durations.format(Duration.ofMinutes(2))).isEqualTo("2m");
        assertThat(Durations.format(Duration.ofHours(3))).isEqualTo("3h");
    }
}
