package org.jwd.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One cold start of {@code src/bench/run cold}: a JVM target started, loaded with the sticky clients from the moment
 * it said it was ready, its rate second by second ({@code src/bench/wrk-sticky.lua}'s {@code timeline} lines).
 * <ul>
 * <li>steady rate: the median rate of the last third of the whole seconds measured;</li>
 * <li>seconds to 90 %: from ready to the start of the first second after which every 5-second window's mean rate
 *     is at least 90 % of the steady rate (a slow second later, a GC or a neighbour, does not undo it; a slow
 *     stretch does); empty when the run ended before;</li>
 * <li>first 5 s: the mean rate of the first five seconds after ready, what the first users get.</li>
 * </ul>
 * The first and last seconds of wrk's timeline are partial (wrk starts and stops within a second): the last is
 * left out; the first is counted as it is, which can only make the start look slower.
 *
 * @param round          the round
 * @param variant        what was measured (a JVM setting)
 * @param startToReady   seconds from the JVM's launch to its ready line
 * @param readyTo90      seconds from ready until the rate holds 90 % of the steady rate
 * @param steadyRate     requests per second at steady state
 * @param firstFiveRate  requests per second in the first five seconds after ready
 */
public record ColdStart(int round, String variant, double startToReady, OptionalDouble readyTo90, double steadyRate,
                        double firstFiveRate) {
    public static final String HEADER = "round\tvariant\tstart_to_ready_s\tready_to_90_s\tsteady_req_per_s\tfirst_5s_req_per_s";
    static final double HOLD = 0.9;
    static final int WINDOW = 5;
    private static final Pattern TIMELINE = Pattern.compile("(?m)^timeline (\\d+) (\\d+)\\s*$");

    /** A second of the clock (epoch seconds) and the requests sent in it. */
    record Second(long epoch, long requests) {
    }

    /**
     * @param startEpoch the JVM's launch, epoch seconds
     * @param readyEpoch when its ready line appeared, epoch seconds
     * @throws IllegalArgumentException when the output has fewer than {@code 2 * WINDOW} whole seconds of timeline
     */
    static ColdStart of(int round, String variant, double startEpoch, double readyEpoch, String wrkOutput) {
        List<Second> seconds = timeline(wrkOutput);
        if (seconds.size() < 2 * WINDOW + 1) {
            throw new IllegalArgumentException("a cold start needs at least " + (2 * WINDOW + 1)
                    + " seconds of wrk timeline (src/bench/wrk-sticky.lua ... timeline), got " + seconds.size());
        }
        List<Second> whole = seconds.subList(0, seconds.size() - 1);
        double[] tail = whole.subList(whole.size() - Math.max(1, whole.size() / 3), whole.size()).stream()
                .mapToDouble(Second::requests).toArray();
        double steady = ResultTable.median(tail).orElseThrow();
        OptionalDouble readyTo90 = OptionalDouble.empty();
        for (int from = whole.size() - WINDOW; from >= 0; from--) {
            double mean = whole.subList(from, from + WINDOW).stream().mapToLong(Second::requests).average()
                    .orElseThrow();
            if (mean < HOLD * steady) {
                break;
            }
            readyTo90 = OptionalDouble.of(Math.max(0, whole.get(from).epoch() - readyEpoch));
        }
        double firstFive = whole.subList(0, Math.min(5, whole.size())).stream().mapToLong(Second::requests)
                .average().orElseThrow();
        return new ColdStart(round, variant, readyEpoch - startEpoch, readyTo90, steady, firstFive);
    }

    static List<Second> timeline(String wrkOutput) {
        List<Second> seconds = new ArrayList<>();
        Matcher m = TIMELINE.matcher(wrkOutput);
        while (m.find()) {
            Second second = new Second(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
            if (!seconds.isEmpty() && seconds.get(seconds.size() - 1).epoch() >= second.epoch()) {
                throw new IllegalArgumentException("wrk timeline out of order at second " + second.epoch());
            }
            // A second in which no request was sent has no line: it counts as 0.
            while (!seconds.isEmpty() && seconds.get(seconds.size() - 1).epoch() + 1 < second.epoch()) {
                seconds.add(new Second(seconds.get(seconds.size() - 1).epoch() + 1, 0));
            }
            seconds.add(second);
        }
        return seconds;
    }

    String toTsv() {
        return String.join("\t", Integer.toString(round), variant, format(startToReady),
                readyTo90.isPresent() ? format(readyTo90.getAsDouble()) : "-", format(steadyRate),
                format(firstFiveRate));
    }

    /** @throws IllegalArgumentException naming the line when it is not one of cold.tsv */
    static ColdStart parse(String line) {
        String[] f = line.split("\t", -1);
        try {
            if (f.length != 6) {
                throw new NumberFormatException();
            }
            return new ColdStart(Integer.parseInt(f[0]), f[1], Double.parseDouble(f[2]),
                    f[3].equals("-") ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(f[3])),
                    Double.parseDouble(f[4]), Double.parseDouble(f[5]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a line of cold.tsv (" + HEADER.replace('\t', ' ') + "): '"
                    + line + "'");
        }
    }

    String summary() {
        return String.format(Locale.ROOT, "cold %d %-10s ready after %.1f s, 90 %% of %.0f req/s %s, first 5 s %.0f req/s",
                round, variant, startToReady, steadyRate, readyTo90.isPresent()
                        ? String.format(Locale.ROOT, "%.0f s after ready", readyTo90.getAsDouble()) : "not reached",
                firstFiveRate);
    }

    /** The Markdown table: per variant, the medians over its rounds; a start that never reached 90 % shows as such. */
    static String report(List<ColdStart> starts, List<String> variants) {
        StringBuilder out = new StringBuilder("\n| variant | start to ready s | ready to 90 % s | steady req/s"
                + " | first 5 s req/s | rounds not reaching 90 % |\n|---|---:|---:|---:|---:|---:|\n");
        for (String variant : variants) {
            List<ColdStart> mine = starts.stream().filter(s -> s.variant().equals(variant)).toList();
            long missed = mine.stream().filter(s -> s.readyTo90().isEmpty()).count();
            out.append("| ").append(variant)
                    .append(" | ").append(median(mine.stream().mapToDouble(ColdStart::startToReady).toArray(), "%.1f"))
                    .append(" | ").append(median(mine.stream().filter(s -> s.readyTo90().isPresent())
                            .mapToDouble(s -> s.readyTo90().getAsDouble()).toArray(), "%.0f"))
                    .append(" | ").append(median(mine.stream().mapToDouble(ColdStart::steadyRate).toArray(), "%.0f"))
                    .append(" | ").append(median(mine.stream().mapToDouble(ColdStart::firstFiveRate).toArray(), "%.0f"))
                    .append(" | ").append(missed).append(" of ").append(mine.size()).append(" |\n");
        }
        return out.toString();
    }

    private static String median(double[] values, String pattern) {
        OptionalDouble median = ResultTable.median(values);
        return median.isPresent() ? String.format(Locale.ROOT, pattern, median.getAsDouble()) : "-";
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
