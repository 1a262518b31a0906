package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class RunVerdictTest {
    @Test
    void passesTargetsThatAnsweredInEveryRoundWithoutErrors() {
        List<Measurement> results = List.of(answered(1, 1, "nginx-rr", 40_000, 0), answered(2, 1, "nginx-rr", 41_000, 0),
                answered(1, 1, "jwd", 20_000, 0), answered(2, 1, "jwd", 21_000, 0));

        assertThat(RunVerdict.problems(results, 2, 0, List.of("1:nginx-rr", "1:jwd"))).isEmpty();
    }

    @Test
    void namesATargetThatAnsweredNothingInARound() {
        // a JVM out of heap: its port open, no answer, wrk counts 0 requests and no error
        List<Measurement> results = List.of(answered(1, 2, "jwd@64", 20_000, 0), answered(1, 2, "jwd@4000", 0, 0),
                answered(2, 2, "jwd@64", 20_000, 0), answered(2, 2, "jwd@4000", 15_000, 0));

        assertThat(RunVerdict.problems(results, 2, 0, List.of("2:jwd@64", "2:jwd@4000")))
                .containsExactly("jwd@4000 (scenario 2): round 1: no answer (0 requests completed)");
    }

    @Test
    void namesARoundNotMeasuredAndOneWithoutAResult() {
        List<Measurement> results = List.of(Measurement.failed(1, 1, "gateway"), answered(1, 1, "jwd", 100, 0));

        assertThat(RunVerdict.problems(results, 2, 0, List.of("1:gateway", "1:jwd", "2:jwd"))).containsExactly(
                "gateway (scenario 1): round 1: wrk gave no result; round 2 not measured",
                "jwd (scenario 1): round 2 not measured",
                "jwd (scenario 2): round 1 not measured; round 2 not measured");
    }

    @Test
    void errorsOverAllRoundsAreJudgedAgainstTheToleranceInPercentOfTheRequests() {
        // 15 errors in 20,000 requests: 0.075 %
        List<Measurement> results = List.of(answered(1, 2, "haproxy-stick@4000", 10_000, 5),
                answered(2, 2, "haproxy-stick@4000", 10_000, 10));

        assertThat(RunVerdict.problems(results, 2, 0, List.of("2:haproxy-stick@4000"))).containsExactly(
                "haproxy-stick@4000 (scenario 2): 15 errors in 20000 requests (0.075 %), above the tolerance of 0 %");
        assertThat(RunVerdict.problems(results, 2, 0.05, List.of("2:haproxy-stick@4000"))).singleElement()
                .asString().endsWith("above the tolerance of 0.05 %");
        assertThat(RunVerdict.problems(results, 2, 0.1, List.of("2:haproxy-stick@4000"))).isEmpty();
    }

    @Test
    void aMalformedCallIsNamed() {
        assertThatThrownBy(() -> RunVerdict.problems(List.of(), 1, 0, List.of("jwd")))
                .hasMessage("verdict: 'jwd': expected SCENARIO:LABEL");
        assertThatThrownBy(() -> RunVerdict.problems(List.of(), 0, 0, List.of("1:jwd")))
                .hasMessageContaining("need ROUNDS >= 1");
    }

    private static Measurement answered(int round, int scenario, String target, long requests, long errors) {
        return new Measurement(round, scenario, target, OptionalDouble.of(requests / 10.0), OptionalDouble.of(1),
                OptionalDouble.of(5), OptionalDouble.of(50), requests, errors);
    }
}
