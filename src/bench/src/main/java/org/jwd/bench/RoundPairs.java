package org.jwd.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * {@code src/bench/run}'s ratios round by round: for each pair of targets, in each round of a scenario where both were
 * measured, the later target's figure over the earlier one's (in the table's order), then the median of those
 * ratios and their range. The rounds are interleaved, so the two targets of a round met the machine in the same
 * state; on a machine whose speed moves between rounds (this project's: one proxy 23,700 to 36,000 req/s from one
 * round to the next) the ratio within a round scatters less than the ratio of two medians, which may come from
 * different rounds, and its range shows how far a ratio can be trusted.
 */
final class RoundPairs {
    private RoundPairs() {
    }

    /** One Markdown table per scenario with at least two targets measured in a common round; empty otherwise. */
    static String render(List<Measurement> measurements, List<String> targets) {
        StringBuilder out = new StringBuilder();
        measurements.stream().map(Measurement::scenario).distinct().sorted().forEach(scenario -> {
            List<String> rows = new ArrayList<>();
            for (int earlier = 0; earlier < targets.size(); earlier++) {
                for (int later = earlier + 1; later < targets.size(); later++) {
                    row(measurements, scenario, targets.get(later), targets.get(earlier)).ifPresent(rows::add);
                }
            }
            if (!rows.isEmpty()) {
                out.append("\n#### Scenario ").append(scenario).append(", round by round: each round's ratio, the")
                        .append(" median over the rounds [its bootstrap 95 % interval] (lowest-highest); ")
                        .append(WIDE_MARK).append(": an interval wider than ±5 % of its median\n\n")
                        .append("| ratio | rounds | req/s | p99 | proxy CPU µs/req |\n|---|---:|---:|---:|---:|\n");
                rows.forEach(row -> out.append(row).append('\n'));
            }
        });
        return out.toString();
    }

    private static Optional<String> row(List<Measurement> measurements, int scenario, String target, String base) {
        List<Measurement[]> rounds = rounds(measurements, scenario, target, base);
        if (rounds.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("| " + target + " / " + base + " | " + rounds.size()
                + " | " + ratios(rounds, Measurement::requestsPerSecond)
                + " | " + ratios(rounds, Measurement::p99Millis)
                + " | " + ratios(rounds, Measurement::cpuMicrosPerRequest) + " |");
    }

    /** The rounds of a scenario in which both were measured: {target's measurement, base's}. */
    static List<Measurement[]> rounds(List<Measurement> measurements, int scenario, String target, String base) {
        return measurements.stream()
                .filter(m -> m.scenario() == scenario && m.target().equals(target) && m.measured())
                .flatMap(m -> measurements.stream().filter(b -> b.scenario() == scenario && b.round() == m.round()
                        && b.target().equals(base) && b.measured()).limit(1).map(b -> new Measurement[] {m, b}))
                .toList();
    }

    /**
     * Each round's target / base: "median [bootstrap 95 % interval] (lowest-highest)", marked {@value #WIDE_MARK}
     * when the interval is wider than ±5 % of the median; "-" when no round has both figures.
     */
    static String ratios(List<Measurement[]> rounds, Function<Measurement, OptionalDouble> figure) {
        return spread(rounds, figure, ResultTable::ratio, "%.2f", "-", true);
    }

    /** Each round's target - base, in the figure's unit, written with {@code pattern} (a range "-1.0 to 2.0"). */
    static String differences(List<Measurement[]> rounds, Function<Measurement, OptionalDouble> figure,
                              String pattern) {
        return spread(rounds, figure, (a, b) -> a.isPresent() && b.isPresent()
                ? OptionalDouble.of(a.getAsDouble() - b.getAsDouble()) : OptionalDouble.empty(), pattern, " to ", false);
    }

    private static String spread(List<Measurement[]> rounds, Function<Measurement, OptionalDouble> figure,
                                 BinaryOperator<OptionalDouble> compare, String pattern, String to, boolean ratio) {
        double[] values = rounds.stream().map(pair -> compare.apply(figure.apply(pair[0]), figure.apply(pair[1])))
                .filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble).sorted().toArray();
        OptionalDouble median = ResultTable.median(values);
        if (median.isEmpty()) {
            return "-";
        }
        BootstrapInterval interval = BootstrapInterval.ofMedian(values);
        String text = String.format(Locale.ROOT, pattern + " [" + pattern + to + pattern + "] (" + pattern + to
                + pattern + ")", median.getAsDouble(), interval.low(), interval.high(), values[0],
                values[values.length - 1]);
        return ratio && interval.wide(median.getAsDouble()) ? text + " " + WIDE_MARK : text;
    }

    /** What marks a ratio whose interval is wider than ±5 % of its median: the run cannot tell it to 5 %. */
    static final String WIDE_MARK = "(±>5 %)";
}
