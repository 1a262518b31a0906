package org.jwd.bench;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * One line of {@code src/bench/run}'s {@code results.tsv}: a target measured in a round and scenario. Empty figures
 * (wrk gave no result, or the target has no proxy process: {@code direct}) are written {@code -}; a run without
 * a result counts as one error.
 */
public record Measurement(int round, int scenario, String target, OptionalDouble requestsPerSecond,
                          OptionalDouble p50Millis, OptionalDouble p99Millis, OptionalDouble cpuMicrosPerRequest,
                          long requests, long errors) {
    public static final String HEADER =
            "round\tscenario\ttarget\treq_per_s\tp50_ms\tp99_ms\tproxy_cpu_us_per_req\trequests\terrors";

    /** A run of wrk with its result, and the proxy's CPU during it in nanoseconds (empty without a proxy). */
    static Measurement of(int round, int scenario, String target, WrkResult wrk, OptionalDouble cpuNanos) {
        OptionalDouble cpu = wrk.requests() > 0 && cpuNanos.isPresent()
                ? OptionalDouble.of(cpuNanos.getAsDouble() / 1_000 / wrk.requests()) : OptionalDouble.empty();
        return new Measurement(round, scenario, target, OptionalDouble.of(wrk.requestsPerSecond()),
                OptionalDouble.of(wrk.p50Millis()), OptionalDouble.of(wrk.p99Millis()), cpu, wrk.requests(),
                wrk.errors());
    }

    /** wrk gave no result: nothing measured, one error. */
    static Measurement failed(int round, int scenario, String target) {
        OptionalDouble none = OptionalDouble.empty();
        return new Measurement(round, scenario, target, none, none, none, none, 0, 1);
    }

    boolean measured() {
        return requestsPerSecond.isPresent();
    }

    /** No result, errors, or no answer at all: a target out of heap answers nothing and wrk counts no error. */
    boolean failed() {
        return !measured() || errors > 0 || requests == 0;
    }

    /** @throws IllegalArgumentException naming the line when it is not one of results.tsv */
    static Measurement parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 9) {
            throw new IllegalArgumentException("results.tsv line '" + line + "': expected 9 tab-separated fields");
        }
        try {
            return new Measurement(Integer.parseInt(f[0]), Integer.parseInt(f[1]), f[2], figure(f[3]), figure(f[4]),
                    figure(f[5]), figure(f[6]), f[7].equals("-") ? 0 : Long.parseLong(f[7]), Long.parseLong(f[8]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("results.tsv line '" + line + "': " + e.getMessage(), e);
        }
    }

    String toTsv() {
        return String.join("\t", Integer.toString(round), Integer.toString(scenario), target,
                format("%.2f", requestsPerSecond), format("%.3f", p50Millis), format("%.3f", p99Millis),
                format("%.2f", cpuMicrosPerRequest), measured() ? Long.toString(requests) : "-",
                Long.toString(errors));
    }

    /** The line src/bench/run logs after each measurement. */
    String summary(int rounds) {
        if (!measured()) {
            return String.format(Locale.ROOT, "round %d/%d scenario %d %-13s wrk gave no result", round, rounds,
                    scenario, target);
        }
        return String.format(Locale.ROOT, "round %d/%d scenario %d %-13s %9.0f req/s  p50 %7.3f ms  p99 %7.3f ms"
                        + "  CPU %s us/req%s", round, rounds, scenario, target, requestsPerSecond.getAsDouble(),
                p50Millis.getAsDouble(), p99Millis.getAsDouble(), format("%.2f", cpuMicrosPerRequest),
                errors == 0 ? "" : "  ERRORS: " + errors);
    }

    private static OptionalDouble figure(String field) {
        return field.equals("-") ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(field));
    }

    private static String format(String pattern, OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, pattern, value.getAsDouble()) : "-";
    }
}
