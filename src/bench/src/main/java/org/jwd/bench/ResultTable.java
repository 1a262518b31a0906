package org.jwd.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * {@code src/bench/run}'s table: per scenario and target, the medians over the rounds of requests per second, p50
 * and p99 latency and the proxy's CPU per request; the ratio of the median req/s to the scenario's reference
 * (nginx round robin for scenario 1, nginx hash for scenario 2) and to {@code direct}; the errors of all rounds.
 * A figure no round has is {@code -}; a scenario nothing was measured in (not selected for the run) is left out,
 * and so is a target in a scenario it was not measured in.
 *
 * @param targets       the measured targets, in the table's order
 * @param scenarioNames the scenarios' titles, scenario 1 first
 * @param references    each scenario's reference target, scenario 1 first
 */
public record ResultTable(List<String> targets, List<String> scenarioNames, List<String> references) {
    public ResultTable {
        if (scenarioNames.size() != references.size()) {
            throw new IllegalArgumentException("one reference per scenario: " + scenarioNames + " vs " + references);
        }
    }

    /** The table in Markdown, one section per scenario. */
    public String render(List<Measurement> measurements) {
        StringBuilder out = new StringBuilder();
        for (int scenario = 1; scenario <= scenarioNames.size(); scenario++) {
            int measured = scenario;
            if (measurements.stream().noneMatch(m -> m.scenario() == measured)) {
                continue;
            }
            String reference = references.get(scenario - 1);
            out.append("\n### Scenario ").append(scenario).append(": ").append(scenarioNames.get(scenario - 1))
                    .append("\n\n| target | req/s | p50 ms | p99 ms | proxy CPU µs/req | vs ").append(reference)
                    .append(" | vs direct | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
            OptionalDouble referenceRate = median(measurements, scenario, reference, Measurement::requestsPerSecond);
            OptionalDouble directRate = median(measurements, scenario, "direct", Measurement::requestsPerSecond);
            for (String target : targets) {
                if (measurements.stream().noneMatch(m -> m.scenario() == measured && m.target().equals(target))) {
                    continue; // not measured in this scenario (the gateway: stateless only)
                }
                out.append(row(measurements, scenario, target, referenceRate, directRate)).append('\n');
            }
        }
        return out.toString();
    }

    private static String row(List<Measurement> measurements, int scenario, String target, OptionalDouble reference,
                              OptionalDouble direct) {
        OptionalDouble rate = median(measurements, scenario, target, Measurement::requestsPerSecond);
        long errors = measurements.stream().filter(m -> m.scenario() == scenario && m.target().equals(target))
                .mapToLong(Measurement::errors).sum();
        return "| " + target + " | " + format("%.0f", rate)
                + " | " + format("%.2f", median(measurements, scenario, target, Measurement::p50Millis))
                + " | " + format("%.2f", median(measurements, scenario, target, Measurement::p99Millis))
                + " | " + format("%.1f", median(measurements, scenario, target, Measurement::cpuMicrosPerRequest))
                + " | " + format("%.2f", ratio(rate, reference)) + " | " + format("%.2f", ratio(rate, direct))
                + " | " + errors + " |";
    }

    private static OptionalDouble median(List<Measurement> measurements, int scenario, String target,
                                         Function<Measurement, OptionalDouble> figure) {
        double[] values = measurements.stream().filter(m -> m.scenario() == scenario && m.target().equals(target))
                .map(figure).filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble).toArray();
        return median(values);
    }

    /** The middle value; for an even count, the mean of the two middle ones. */
    static OptionalDouble median(double[] values) {
        if (values.length == 0) {
            return OptionalDouble.empty();
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return OptionalDouble.of(sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2);
    }

    /** {@code rate / base}, empty when either is or the base is 0. */
    static OptionalDouble ratio(OptionalDouble rate, OptionalDouble base) {
        return rate.isPresent() && base.isPresent() && base.getAsDouble() != 0
                ? OptionalDouble.of(rate.getAsDouble() / base.getAsDouble()) : OptionalDouble.empty();
    }

    private static String format(String pattern, OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, pattern, value.getAsDouble()) : "-";
    }
}
