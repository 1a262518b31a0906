package org.jwd.bench;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code src/bench/run} takes from one wrk run's text output ({@code wrk --latency}): requests per second, the
 * 50th and 99th latency percentiles, the requests done, and the errors: socket errors (connect, read, write,
 * timeout) plus answers that are neither 2xx nor 3xx.
 */
public record WrkResult(double requestsPerSecond, double p50Millis, double p99Millis, long requests, long errors) {
    private static final Pattern PERCENTILE = Pattern.compile("(?m)^\\s*(50|99)%\\s+(\\S+)\\s*$");
    private static final Pattern REQUESTS = Pattern.compile("(?m)^\\s*(\\d+) requests in ");
    private static final Pattern SOCKET_ERRORS = Pattern.compile(
            "(?m)^\\s*Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)\\s*$");
    private static final Pattern NON_2XX_3XX = Pattern.compile("(?m)^\\s*Non-2xx or 3xx responses: (\\d+)\\s*$");
    private static final Pattern RATE = Pattern.compile("(?m)^Requests/sec:\\s+(\\S+)\\s*$");
    private static final Pattern LATENCY = Pattern.compile("([0-9.]+)(us|ms|s|m|h)");

    /** @return empty when wrk gave no result (it could not connect, or was stopped before its summary) */
    public static Optional<WrkResult> parse(String output) {
        Matcher rate = RATE.matcher(output);
        Matcher requests = REQUESTS.matcher(output);
        Double p50 = null;
        Double p99 = null;
        Matcher percentile = PERCENTILE.matcher(output);
        while (percentile.find()) {
            double millis = millis(percentile.group(2));
            if (percentile.group(1).equals("50")) {
                p50 = millis;
            } else {
                p99 = millis;
            }
        }
        if (!rate.find() || !requests.find() || p50 == null || p99 == null) {
            return Optional.empty();
        }
        long errors = 0;
        Matcher socket = SOCKET_ERRORS.matcher(output);
        if (socket.find()) {
            for (int group = 1; group <= 4; group++) {
                errors += Long.parseLong(socket.group(group));
            }
        }
        Matcher answers = NON_2XX_3XX.matcher(output);
        if (answers.find()) {
            errors += Long.parseLong(answers.group(1));
        }
        return Optional.of(new WrkResult(Double.parseDouble(rate.group(1)), p50, p99,
                Long.parseLong(requests.group(1)), errors));
    }

    /** wrk writes a latency as {@code 805.00us}, {@code 1.20ms}, {@code 1.05s}, {@code 2.00m} or {@code 1.00h}. */
    static double millis(String latency) {
        Matcher m = LATENCY.matcher(latency);
        if (!m.matches()) {
            throw new IllegalArgumentException("wrk latency '" + latency + "': expected a number with us, ms, s, m"
                    + " or h");
        }
        double value = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> value / 1_000;
            case "ms" -> value;
            case "s" -> value * 1_000;
            case "m" -> value * 60_000;
            default -> value * 3_600_000;
        };
    }
}
