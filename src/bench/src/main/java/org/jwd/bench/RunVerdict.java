package org.jwd.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether every measured target of a {@code src/bench/run} answered, so that a run whose target served nothing fails
 * instead of printing a table of zeros: for each target (and scenario) the script measured, every round must have
 * wrk's result and at least one completed request, and the errors over all its rounds (socket errors and answers
 * other than 2xx/3xx) must stay within the tolerance, a share of its completed requests ({@code
 * BENCH_ERROR_TOLERANCE}, in percent; 0 by default: a proxy in front of two healthy backends has no reason to fail
 * a request). A JVM out of heap keeps its port open and answers nothing: wrk then counts 0 requests and no error,
 * which is why an empty round fails by itself.
 */
final class RunVerdict {
    private RunVerdict() {
    }

    /**
     * @param results          results.tsv's measurements
     * @param rounds           the rounds each target was measured in: 1 to {@code rounds}
     * @param tolerancePercent the errors a target may have, in percent of its completed requests
     * @param expected         what was measured: {@code SCENARIO:LABEL} (a target, or {@code target@connections})
     * @return one line per target that failed, naming it and what went wrong; empty when all passed
     */
    static List<String> problems(List<Measurement> results, int rounds, double tolerancePercent,
                                 List<String> expected) {
        if (rounds < 1 || tolerancePercent < 0) {
            throw new IllegalArgumentException("verdict: need ROUNDS >= 1 and a TOLERANCE >= 0 percent, got "
                    + rounds + " and " + tolerancePercent);
        }
        List<String> failed = new ArrayList<>();
        for (String item : expected) {
            int colon = item.indexOf(':');
            if (colon < 1 || colon == item.length() - 1 || !item.substring(0, colon).matches("\\d+")) {
                throw new IllegalArgumentException("verdict: '" + item + "': expected SCENARIO:LABEL");
            }
            int scenario = Integer.parseInt(item.substring(0, colon));
            String label = item.substring(colon + 1);
            List<Measurement> mine = results.stream()
                    .filter(m -> m.scenario() == scenario && m.target().equals(label)).toList();
            List<String> why = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                roundProblem(mine, round).ifPresent(why::add);
            }
            errorProblem(mine, tolerancePercent).ifPresent(why::add);
            if (!why.isEmpty()) {
                failed.add(label + " (scenario " + scenario + "): " + String.join("; ", why));
            }
        }
        return failed;
    }

    /**
     * {@code src/bench/run idle}: each target at each count measured in every round, and holding at least {@code
     * minPercent} of its connections when its memory was read; a target that closed or refused them measured
     * something other than idle connections.
     *
     * @param expected {@code target@connections} labels
     */
    static List<String> idleProblems(List<IdleMemory> lines, int rounds, double minPercent, List<String> expected) {
        List<String> failed = new ArrayList<>();
        for (String label : expected) {
            int at = label.lastIndexOf('@');
            if (at < 1 || !label.substring(at + 1).matches("\\d+")) {
                throw new IllegalArgumentException("idle verdict: '" + label + "': expected TARGET@CONNECTIONS");
            }
            String target = label.substring(0, at);
            int connections = Integer.parseInt(label.substring(at + 1));
            List<String> why = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                int r = round;
                lines.stream().filter(l -> l.round() == r && l.target().equals(target) && l.connections() == connections)
                        .findFirst().ifPresentOrElse(l -> {
                            if (l.open() < minPercent / 100 * connections) {
                                why.add(String.format(Locale.ROOT, "round %d: %d of %d connections held (%d failed,"
                                        + " %d closed while idle), below %s %%", r, l.open(), connections, l.failed(),
                                        l.closedIdle(), tolerance(minPercent)));
                            }
                        }, () -> why.add("round " + r + " not measured"));
            }
            if (!why.isEmpty()) {
                failed.add(label + ": " + String.join("; ", why));
            }
        }
        return failed;
    }

    private static Optional<String> roundProblem(List<Measurement> mine, int round) {
        Optional<Measurement> measured = mine.stream().filter(m -> m.round() == round).findFirst();
        if (measured.isEmpty()) {
            return Optional.of("round " + round + " not measured");
        }
        if (!measured.get().measured()) {
            return Optional.of("round " + round + ": wrk gave no result");
        }
        if (measured.get().requests() == 0) {
            return Optional.of("round " + round + ": no answer (0 requests completed)");
        }
        return Optional.empty();
    }

    private static Optional<String> errorProblem(List<Measurement> mine, double tolerancePercent) {
        long requests = mine.stream().filter(Measurement::measured).mapToLong(Measurement::requests).sum();
        long errors = mine.stream().filter(Measurement::measured).mapToLong(Measurement::errors).sum();
        if (errors == 0 || errors <= tolerancePercent / 100 * requests) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "%d errors in %d requests (%.3f %%), above the tolerance of %s %%",
                errors, requests, requests == 0 ? 100.0 : 100.0 * errors / requests, tolerance(tolerancePercent)));
    }

    private static String tolerance(double percent) {
        return percent == Math.rint(percent) ? Long.toString((long) percent) : Double.toString(percent);
    }
}
