package org.jwd.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ResponseTimesTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void reportsP50AndP99AsTheirBucketsUpperBounds() {
        ResponseTimes times = new ResponseTimes();
        long now = 1000 * SECOND;
        for (int i = 0; i < 98; i++) {
            times.record(2 * MS, 10 * MS, now);
        }
        times.record(400 * MS, 900 * MS, now);
        times.record(400 * MS, 900 * MS, now);
        ResponseTimes.Quantiles q = times.lastMinute(now);
        assertThat(q.count()).isEqualTo(100);
        // buckets 100 µs * 1.25^n: 2 ms falls in (1.819, 2.274], 10 ms in (8.674, 10.842], 900 ms in (807.8, 1009.7]
        assertThat(q.firstByteP50()).isEqualTo(2.274);
        assertThat(q.lastByteP50()).isEqualTo(10.842);
        assertThat(q.firstByteP99()).isBetween(400.0, 500.0);
        assertThat(q.lastByteP99()).isBetween(900.0, 1125.0);
    }

    @Test
    void forgetsAnswersOlderThanAMinute() {
        ResponseTimes times = new ResponseTimes();
        long start = 1000 * SECOND;
        times.record(500 * MS, 500 * MS, start);
        times.record(5 * MS, 5 * MS, start + 30 * SECOND);
        assertThat(times.lastMinute(start + 59 * SECOND).count()).isEqualTo(2);
        ResponseTimes.Quantiles later = times.lastMinute(start + 61 * SECOND);
        assertThat(later.count()).isEqualTo(1);
        assertThat(later.lastByteP99()).isLessThan(10);
        times.record(7 * MS, 7 * MS, start + 60 * SECOND + 5 * SECOND);
        assertThat(times.lastMinute(start + 66 * SECOND).count()).isEqualTo(2);
    }

    @Test
    void putsEachTimeInTheSmallestBucketThatHoldsIt() {
        assertThat(ResponseTimes.bucket(50_000)).isZero();
        assertThat(ResponseTimes.bucket(100_000)).isZero();
        assertThat(ResponseTimes.bucket(100_001)).isEqualTo(1);
        assertThat(ResponseTimes.bucket(125_000)).isEqualTo(1);
        assertThat(ResponseTimes.bucket(TimeUnit.MINUTES.toNanos(5))).isEqualTo(53);
    }
}
