package org.jwd.bench;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A bootstrap 95 % interval of a median: the rounds' figures resampled with replacement {@value #RESAMPLES} times,
 * the median of each resample, and the 2.5th and 97.5th percentiles of those medians. With eleven rounds it says how
 * far the median of a run could move were the run repeated on the same machine; a ratio whose interval excludes 1 is a
 * difference the run can tell. The generator's seed is fixed, so that one run's table is the same each time it is
 * rendered (and a test can name exact figures).
 *
 * @param low  the interval's lower end
 * @param high the interval's upper end
 */
record BootstrapInterval(double low, double high) {
    static final int RESAMPLES = 10_000;
    /** Beyond ±5 % of the median, a run says that it cannot tell a target's figure to the precision asked for. */
    static final double WIDE = 0.05;
    private static final long SEED = 20_261_204L;

    BootstrapInterval {
        if (!(low <= high)) {
            throw new IllegalArgumentException("an interval from " + low + " to " + high);
        }
    }

    /** The interval of the median of {@code values}; one value is its own interval. */
    static BootstrapInterval ofMedian(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values to resample");
        }
        SplittableRandom random = new SplittableRandom(SEED);
        double[] medians = new double[RESAMPLES];
        double[] sample = new double[values.length];
        for (int i = 0; i < RESAMPLES; i++) {
            for (int j = 0; j < sample.length; j++) {
                sample[j] = values[random.nextInt(values.length)];
            }
            medians[i] = ResultTable.median(sample).getAsDouble();
        }
        Arrays.sort(medians);
        return new BootstrapInterval(medians[(int) (RESAMPLES * 0.025)], medians[(int) (RESAMPLES * 0.975) - 1]);
    }

    /** Whether half the interval's width is more than {@link #WIDE} of {@code median}. */
    boolean wide(double median) {
        return (high - low) / 2 > WIDE * Math.abs(median);
    }

    /** Whether the interval lies wholly above or wholly below {@code value} (for a ratio: 1). */
    boolean excludes(double value) {
        return low > value || high < value;
    }
}
