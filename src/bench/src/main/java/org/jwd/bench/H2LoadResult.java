package org.jwd.bench;

import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code src/bench/run tls} takes from one h2load run (HTTP/2): its summary on standard output for the rate, the
 * requests done and the errors (failed, errored and timed-out requests, and 4xx/5xx answers), and its
 * {@code --log-file} (a line per request: start time, status, duration in microseconds) for the latency
 * percentiles, which the summary lacks. The result has the shape of wrk's, so that the rest of the analysis is
 * the same for both.
 */
public final class H2LoadResult {
    private static final Pattern FINISHED = Pattern.compile("(?m)^finished in \\S+, ([0-9.]+) req/s");
    private static final Pattern REQUESTS = Pattern.compile(
            "(?m)^requests: \\d+ total, \\d+ started, (\\d+) done, \\d+ succeeded, (\\d+) failed, (\\d+) errored,"
                    + " (\\d+) timeout");
    private static final Pattern STATUS = Pattern.compile("(?m)^status codes: \\d+ 2xx, \\d+ 3xx, (\\d+) 4xx, (\\d+) 5xx");

    private H2LoadResult() {
    }

    /** Whether the text is h2load's output (rather than wrk's). */
    public static boolean isH2Load(String output) {
        return output.contains("\nfinished in ") || output.startsWith("finished in ")
                || output.contains("starting benchmark...");
    }

    /** @return empty when h2load gave no summary or the log has no request */
    public static Optional<WrkResult> parse(String output, String log) {
        Matcher finished = FINISHED.matcher(output);
        Matcher requests = REQUESTS.matcher(output);
        Matcher status = STATUS.matcher(output);
        if (!finished.find() || !requests.find() || !status.find()) {
            return Optional.empty();
        }
        double[] micros = log.lines().filter(line -> !line.isBlank()).mapToDouble(H2LoadResult::duration).toArray();
        if (micros.length == 0) {
            return Optional.empty();
        }
        Arrays.sort(micros);
        long errors = Long.parseLong(requests.group(2)) + Long.parseLong(requests.group(3))
                + Long.parseLong(requests.group(4)) + Long.parseLong(status.group(1)) + Long.parseLong(status.group(2));
        return Optional.of(new WrkResult(Double.parseDouble(finished.group(1)), percentile(micros, 50) / 1_000,
                percentile(micros, 99) / 1_000, Long.parseLong(requests.group(1)), errors));
    }

    /** The nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private static double duration(String line) {
        String[] f = line.trim().split("\\s+");
        try {
            if (f.length != 3) {
                throw new NumberFormatException();
            }
            return Double.parseDouble(f[2]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a line of h2load's --log-file (start status duration_us): '"
                    + line + "'");
        }
    }
}
