package org.jwd.bench;

import java.util.List;

/**
 * {@code src/bench/run features}: what each feature costs, as its target's figures against plain jwd's measured in the
 * same round (the rounds are interleaved, so both met the machine in the same state), then the median over the
 * rounds and their range: the rate and the proxy's CPU per request as ratios (a rate of 0.97 is a cost of 3 %),
 * the CPU and the median latency a request gains in µs and ms, and p99 as a ratio. One table for the scenario;
 * a target never measured in a common round with the reference shows dashes.
 */
final class FeatureCost {
    private FeatureCost() {
    }

    /**
     * @param reference the target the others are compared with (plain jwd)
     * @param features  the other targets, in the table's order
     */
    static String render(List<Measurement> measurements, int scenario, String reference, List<String> features) {
        StringBuilder out = new StringBuilder("\n| feature | rounds | req/s vs " + reference + " | proxy CPU µs/req vs "
                + reference + " | CPU µs/req added | p50 ms added | p99 vs " + reference + " |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
        for (String feature : features) {
            List<Measurement[]> rounds = RoundPairs.rounds(measurements, scenario, feature, reference);
            out.append("| ").append(feature).append(" | ").append(rounds.size())
                    .append(" | ").append(RoundPairs.ratios(rounds, Measurement::requestsPerSecond))
                    .append(" | ").append(RoundPairs.ratios(rounds, Measurement::cpuMicrosPerRequest))
                    .append(" | ").append(RoundPairs.differences(rounds, Measurement::cpuMicrosPerRequest, "%.1f"))
                    .append(" | ").append(RoundPairs.differences(rounds, Measurement::p50Millis, "%.3f"))
                    .append(" | ").append(RoundPairs.ratios(rounds, Measurement::p99Millis)).append(" |\n");
        }
        return out.toString();
    }
}
