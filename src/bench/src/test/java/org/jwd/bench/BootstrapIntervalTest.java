package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BootstrapIntervalTest {
    @Test
    void oneRoundIsItsOwnInterval() {
        assertThat(BootstrapInterval.ofMedian(new double[] {1.07})).isEqualTo(new BootstrapInterval(1.07, 1.07));
    }

    @Test
    void elevenRoundsThatAgreeGiveANarrowIntervalThatExcludesParity() {
        double[] ratios = {1.21, 1.19, 1.22, 1.20, 1.18, 1.23, 1.20, 1.21, 1.19, 1.22, 1.20};

        BootstrapInterval interval = BootstrapInterval.ofMedian(ratios);

        assertThat(interval.low()).isBetween(1.19, 1.20);
        assertThat(interval.high()).isBetween(1.20, 1.22);
        assertThat(interval.wide(1.20)).isFalse();
        assertThat(interval.excludes(1.0)).isTrue();
    }

    @Test
    void roundsFromPointSevenFourToOnePointOneSevenCannotTellTheTwoApart() {
        // the spread of single rounds the harness measured on a shared machine
        double[] ratios = {0.74, 1.17, 0.81, 1.05, 0.92, 1.12, 0.99, 0.88, 1.10, 0.95, 1.02};

        BootstrapInterval interval = BootstrapInterval.ofMedian(ratios);

        assertThat(interval.wide(0.99)).isTrue();
        assertThat(interval.excludes(1.0)).isFalse();
        assertThat(interval.low()).isLessThan(0.99);
        assertThat(interval.high()).isGreaterThan(0.99);
    }

    @Test
    void theSameRoundsGiveTheSameIntervalEachTime() {
        double[] ratios = {0.9, 1.3, 1.1, 1.0, 1.2};

        assertThat(BootstrapInterval.ofMedian(ratios)).isEqualTo(BootstrapInterval.ofMedian(ratios.clone()));
    }

    @Test
    void noRoundsIsAnError() {
        assertThatThrownBy(() -> BootstrapInterval.ofMedian(new double[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("no values to resample");
    }
}
