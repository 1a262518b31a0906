package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class H2LoadResultTest {
    /**
     * h2load 1.52 (200 requests, 4 clients, HTTP/2 over TLS) against nginx 1.22 on 127.0.0.1 answering the
     * src/bench/run backend's ~1 KB with src/bench/run's self-signed certificate, with its --log-file (the .tsv).
     */
    private static final String OUTPUT = Recorded.text("h2load/h2load.txt");
    private static final String LOG = Recorded.text("h2load/h2load-requests.tsv");

    @Test
    void takesTheRateFromTheSummaryAndThePercentilesFromTheLog() {
        WrkResult result = H2LoadResult.parse(OUTPUT, LOG).orElseThrow();

        assertThat(result.requestsPerSecond()).isEqualTo(16169.46);
        assertThat(result.requests()).isEqualTo(200);
        assertThat(result.errors()).isZero();
        // The 100th and 198th of the 200 sorted durations: 76 and 252 µs.
        assertThat(result.p50Millis()).isEqualTo(0.076);
        assertThat(result.p99Millis()).isEqualTo(0.252);
    }

    @Test
    void countsFailedErroredTimedOutAndErrorAnswers() {
        String refused = """
                starting benchmark...
                spawning thread #0: 1 total client(s). 10 total requests

                finished in 3.31ms, 0.00 req/s, 0B/s
                requests: 10 total, 0 started, 0 done, 0 succeeded, 10 failed, 10 errored, 0 timeout
                status codes: 0 2xx, 0 3xx, 0 4xx, 0 5xx
                """;
        String answered = OUTPUT.replace("status codes: 200 2xx, 0 3xx, 0 4xx, 0 5xx",
                "status codes: 190 2xx, 0 3xx, 4 4xx, 6 5xx");

        assertThat(H2LoadResult.parse(refused, "")).isEqualTo(Optional.empty());
        assertThat(H2LoadResult.parse(answered, LOG).orElseThrow().errors()).isEqualTo(10);
    }

    @Test
    void tellsH2LoadFromWrk() {
        assertThat(H2LoadResult.isH2Load(OUTPUT)).isTrue();
        assertThat(H2LoadResult.isH2Load(Recorded.text("wrk-nginx-hash-sticky.txt"))).isFalse();
    }

    @Test
    void aLogLineOfAnotherShapeIsNamed() {
        assertThatThrownBy(() -> H2LoadResult.parse(OUTPUT, "1796107334131703\t200\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'1796107334131703\t200'");
    }

    @Test
    void nearestRankPercentiles() {
        double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

        assertThat(H2LoadResult.percentile(sorted, 50)).isEqualTo(5);
        assertThat(H2LoadResult.percentile(sorted, 99)).isEqualTo(10);
        assertThat(H2LoadResult.percentile(new double[] {42}, 99)).isEqualTo(42);
    }
}
