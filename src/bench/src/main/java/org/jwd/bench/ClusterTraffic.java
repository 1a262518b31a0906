package org.jwd.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What cluster mode costs per request beyond jwd's own CPU ({@code src/bench/run features}, target {@code jwd-cluster}):
 * the traffic between jwd and its Terracotta server during a measured run, from the kernel's counters of jwd's
 * connections to the server's port ({@code ss -tinH state established '( dport = :PORT )'} just before and just
 * after the run: per connection {@code data_segs_out}, {@code data_segs_in}, {@code bytes_sent},
 * {@code bytes_received}), and the Terracotta server's own CPU. Segments out per request count jwd's messages to
 * the server (a lookup the heap tier in front answers sends none; a bind sends a read and a {@code putIfAbsent}),
 * so together with the latency a request gains they give the round trips a request pays. A connection opened
 * during the run counts from zero; one closed during it is lost (the client keeps its connections open).
 */
record ClusterTraffic(int round, String target, long requests, int connections, long segmentsOut, long segmentsIn,
                      long bytesOut, long bytesIn, OptionalDouble serverCpuMicrosPerRequest) {
    static final String HEADER = "round\ttarget\trequests\tconnections\tsegments_out\tsegments_in\tbytes_out\tbytes_in"
            + "\tserver_cpu_us_per_req";
    private static final Pattern COUNTER = Pattern.compile("\\b(data_segs_out|data_segs_in|bytes_sent|bytes_received):(\\d+)");

    /** One connection's counters, in {@link #COUNTER}'s names. */
    record Counters(long segmentsOut, long segmentsIn, long bytesOut, long bytesIn) {
        static final Counters NONE = new Counters(0, 0, 0, 0);
    }

    /** ss's output: per connection (local and peer address), its counters; a counter ss leaves out is 0. */
    static Map<String, Counters> connections(String ssOutput) {
        Map<String, Counters> connections = new HashMap<>();
        String connection = null;
        for (String line : ssOutput.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            if (!Character.isWhitespace(line.charAt(0))) {
                String[] f = line.trim().split("\\s+");
                connection = f.length >= 2 ? f[f.length - 2] + " " + f[f.length - 1] : null;
                continue;
            }
            if (connection == null) {
                throw new IllegalArgumentException("ss output: counters '" + line.trim() + "' before any connection");
            }
            Map<String, Long> values = new HashMap<>();
            Matcher m = COUNTER.matcher(line);
            while (m.find()) {
                values.put(m.group(1), Long.parseLong(m.group(2)));
            }
            connections.put(connection, new Counters(values.getOrDefault("data_segs_out", 0L),
                    values.getOrDefault("data_segs_in", 0L), values.getOrDefault("bytes_sent", 0L),
                    values.getOrDefault("bytes_received", 0L)));
        }
        return connections;
    }

    /** The traffic between two snapshots of ss's output, over the requests wrk completed meanwhile. */
    static ClusterTraffic between(int round, String target, long requests, String before, String after,
                                  OptionalDouble serverCpuNanos) {
        Map<String, Counters> was = connections(before);
        long[] sums = new long[4];
        connections(after).forEach((connection, now) -> {
            Counters then = was.getOrDefault(connection, Counters.NONE);
            sums[0] += now.segmentsOut() - then.segmentsOut();
            sums[1] += now.segmentsIn() - then.segmentsIn();
            sums[2] += now.bytesOut() - then.bytesOut();
            sums[3] += now.bytesIn() - then.bytesIn();
        });
        OptionalDouble cpu = requests > 0 && serverCpuNanos.isPresent()
                ? OptionalDouble.of(serverCpuNanos.getAsDouble() / 1_000 / requests) : OptionalDouble.empty();
        return new ClusterTraffic(round, target, requests, connections(after).size(), sums[0], sums[1], sums[2],
                sums[3], cpu);
    }

    String toTsv() {
        return String.join("\t", Integer.toString(round), target, Long.toString(requests),
                Integer.toString(connections), Long.toString(segmentsOut), Long.toString(segmentsIn),
                Long.toString(bytesOut), Long.toString(bytesIn), serverCpuMicrosPerRequest.isPresent()
                        ? String.format(Locale.ROOT, "%.2f", serverCpuMicrosPerRequest.getAsDouble()) : "-");
    }

    /** @throws IllegalArgumentException naming the line when it is not one of cluster-traffic.tsv */
    static ClusterTraffic parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 9) {
            throw new IllegalArgumentException("cluster traffic line '" + line + "': expected 9 tab-separated fields");
        }
        try {
            return new ClusterTraffic(Integer.parseInt(f[0]), f[1], Long.parseLong(f[2]), Integer.parseInt(f[3]),
                    Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]),
                    f[8].equals("-") ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(f[8])));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("cluster traffic line '" + line + "': " + e.getMessage(), e);
        }
    }

    /** The line src/bench/run logs after each measurement. */
    String summary() {
        return String.format(Locale.ROOT, "round %d %s: to the Terracotta server %.3f segments and %.0f bytes per"
                        + " request, from it %.3f and %.0f, over %d connections; its CPU %s us/req", round, target,
                perRequest(segmentsOut), perRequest(bytesOut), perRequest(segmentsIn), perRequest(bytesIn),
                connections, serverCpuMicrosPerRequest.isPresent()
                        ? String.format(Locale.ROOT, "%.2f", serverCpuMicrosPerRequest.getAsDouble()) : "-");
    }

    private double perRequest(long count) {
        return requests == 0 ? 0 : (double) count / requests;
    }

    /** Per target, the medians over the rounds, per request; a target without rows is left out. */
    static String report(List<ClusterTraffic> rows, List<String> targets) {
        StringBuilder out = new StringBuilder("\n| target | rounds | segments to the server /req | segments from it /req"
                + " | bytes to /req | bytes from /req | server CPU µs/req |\n|---|---:|---:|---:|---:|---:|---:|\n");
        for (String target : targets) {
            List<ClusterTraffic> mine = rows.stream().filter(r -> r.target().equals(target) && r.requests() > 0)
                    .toList();
            if (mine.isEmpty()) {
                continue;
            }
            out.append("| ").append(target).append(" | ").append(mine.size())
                    .append(" | ").append(median(mine, r -> r.perRequest(r.segmentsOut()), "%.3f"))
                    .append(" | ").append(median(mine, r -> r.perRequest(r.segmentsIn()), "%.3f"))
                    .append(" | ").append(median(mine, r -> r.perRequest(r.bytesOut()), "%.0f"))
                    .append(" | ").append(median(mine, r -> r.perRequest(r.bytesIn()), "%.0f"))
                    .append(" | ").append(median(mine.stream().filter(r -> r.serverCpuMicrosPerRequest().isPresent())
                            .toList(), r -> r.serverCpuMicrosPerRequest().getAsDouble(), "%.1f")).append(" |\n");
        }
        return out.toString();
    }

    private static String median(List<ClusterTraffic> rows, ToDoubleFunction<ClusterTraffic> figure, String pattern) {
        OptionalDouble median = ResultTable.median(rows.stream().mapToDouble(figure).toArray());
        return median.isPresent() ? String.format(Locale.ROOT, pattern, median.getAsDouble()) : "-";
    }
}
