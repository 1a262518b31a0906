package org.jwd.bench;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One measured step of {@code src/bench/run cluster-capacity}: two jwd nodes in cluster mode on one Terracotta server,
 * each driven by wrk with new sessions only ({@code wrk-new-sessions.lua}) at {@code connections} connections, for
 * {@code seconds}. The counts are the deltas of both nodes' metrics (scraped before and after the run: {@link Scrape}),
 * the CPU times those of the server's and each node's process tree over the run, the requests and latencies wrk's
 * (the p50 and p99 of the slower node). {@link CapacityReport} turns the steps into the table and the verdict.
 *
 * @param bindings      new bindings made by both nodes ({@code jwd_session_table_bindings_total})
 * @param writes        writes of sessions' entries the server answered ({@code jwd_session_table_cluster_writes_total})
 * @param writeNanos    their time as the nodes saw it ({@code jwd_session_table_cluster_write_seconds_total})
 * @param cpuMillis     how long the CPU times were taken over: the run, and the moments between their readings and
 *                      its start and end (the nodes' and the server's share of a CPU is taken over this)
 * @param full          whether a node's table was full at the end ({@code jwd_session_table_full}): it then stops
 *                      binding, and the step measures less than it should
 */
record ClusterCapacity(int round, int connections, int seconds, long requests1, long requests2, long errors,
                       long bindings, long writes, long writeNanos, long serverCpuNanos, long node1CpuNanos,
                       long node2CpuNanos, long cpuMillis, double p50Millis, double p99Millis, boolean full) {
    static final String HEADER = "round\tconnections_per_node\tseconds\trequests_node1\trequests_node2\terrors\tbindings"
            + "\twrites\twrite_nanos\tserver_cpu_nanos\tnode1_cpu_nanos\tnode2_cpu_nanos\tcpu_ms\tp50_ms\tp99_ms\tfull";

    /** What one scrape of a node's {@code /jwd/admin/metrics} holds for this suite. */
    record Scrape(double bindings, double writes, double writeSeconds, boolean full) {
        /** @throws IllegalArgumentException naming the series missing (not cluster mode, or an older jwd) */
        static Scrape parse(String metrics) {
            return new Scrape(value(metrics, "jwd_session_table_bindings_total"),
                    value(metrics, "jwd_session_table_cluster_writes_total"),
                    value(metrics, "jwd_session_table_cluster_write_seconds_total"),
                    value(metrics, "jwd_session_table_full") > 0);
        }

        private static double value(String metrics, String name) {
            Matcher m = Pattern.compile("(?m)^" + name + "\\s+([0-9.eE+-]+)\\s*$").matcher(metrics);
            if (!m.find()) {
                throw new IllegalArgumentException("metrics: no series " + name);
            }
            return Double.parseDouble(m.group(1));
        }
    }

    /**
     * A step from its inputs: each node's scrapes before and after, its wrk result, and the CPU deltas.
     *
     * @param before  node 1's and node 2's scrape before the run
     * @param after   the same after it
     * @param wrk     node 1's and node 2's wrk results
     */
    static ClusterCapacity of(int round, int connections, int seconds, List<Scrape> before, List<Scrape> after,
                              List<WrkResult> wrk, long serverCpuNanos, long node1CpuNanos, long node2CpuNanos,
                              long cpuMillis) {
        double bindings = 0;
        double writes = 0;
        double writeSeconds = 0;
        for (int node = 0; node < 2; node++) {
            bindings += after.get(node).bindings() - before.get(node).bindings();
            writes += after.get(node).writes() - before.get(node).writes();
            writeSeconds += after.get(node).writeSeconds() - before.get(node).writeSeconds();
        }
        return new ClusterCapacity(round, connections, seconds, wrk.get(0).requests(), wrk.get(1).requests(),
                wrk.get(0).errors() + wrk.get(1).errors(), Math.round(bindings), Math.round(writes),
                Math.round(writeSeconds * 1e9), serverCpuNanos, node1CpuNanos, node2CpuNanos, cpuMillis,
                Math.max(wrk.get(0).p50Millis(), wrk.get(1).p50Millis()),
                Math.max(wrk.get(0).p99Millis(), wrk.get(1).p99Millis()), after.get(0).full() || after.get(1).full());
    }

    long requests() {
        return requests1 + requests2;
    }

    double bindingsPerSecond() {
        return (double) bindings / seconds;
    }

    double requestsPerSecond() {
        return (double) requests() / seconds;
    }

    /** NaN without a write */
    double writeMicros() {
        return writes == 0 ? Double.NaN : writeNanos / 1e3 / writes;
    }

    double writesPerBinding() {
        return bindings == 0 ? Double.NaN : (double) writes / bindings;
    }

    double bindingsPerRequest() {
        return requests() == 0 ? Double.NaN : (double) bindings / requests();
    }

    double serverCpuMicrosPerBinding() {
        return bindings == 0 ? Double.NaN : serverCpuNanos / 1e3 / bindings;
    }

    /** The server's CPU over the run, in CPUs (1.0: one CPU busy all the time). */
    double serverCpus() {
        return serverCpuNanos / 1e6 / cpuMillis;
    }

    /** Both nodes' CPU over the run, in CPUs: they share the CPUs they are pinned to. */
    double nodesCpus() {
        return (node1CpuNanos + node2CpuNanos) / 1e6 / cpuMillis;
    }

    double node1CpuMicrosPerRequest() {
        return requests1 == 0 ? Double.NaN : node1CpuNanos / 1e3 / requests1;
    }

    double node2CpuMicrosPerRequest() {
        return requests2 == 0 ? Double.NaN : node2CpuNanos / 1e3 / requests2;
    }

    String toTsv() {
        return String.join("\t", Integer.toString(round), Integer.toString(connections), Integer.toString(seconds),
                Long.toString(requests1), Long.toString(requests2), Long.toString(errors), Long.toString(bindings),
                Long.toString(writes), Long.toString(writeNanos), Long.toString(serverCpuNanos),
                Long.toString(node1CpuNanos), Long.toString(node2CpuNanos), Long.toString(cpuMillis),
                String.format(Locale.ROOT, "%.3f", p50Millis), String.format(Locale.ROOT, "%.3f", p99Millis),
                full ? "1" : "0");
    }

    /** @throws IllegalArgumentException naming the line when it is not one of capacity.tsv */
    static ClusterCapacity parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 16) {
            throw new IllegalArgumentException("capacity line '" + line + "': expected 16 tab-separated fields");
        }
        try {
            return new ClusterCapacity(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                    Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]),
                    Long.parseLong(f[7]), Long.parseLong(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10]),
                    Long.parseLong(f[11]), Long.parseLong(f[12]), Double.parseDouble(f[13]), Double.parseDouble(f[14]),
                    f[15].equals("1"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("capacity line '" + line + "': " + e.getMessage(), e);
        }
    }

    /** The line src/bench/run logs after each step. */
    String summary() {
        return String.format(Locale.ROOT, "round %d, %d connections per node: %.0f new bindings/s (%.2f per request,"
                        + " %.2f writes each), write %.0f µs, server CPU %.1f µs/binding (%.2f CPUs), nodes %.2f CPUs,"
                        + " p99 %.2f ms%s", round, connections, bindingsPerSecond(), bindingsPerRequest(),
                writesPerBinding(), writeMicros(), serverCpuMicrosPerBinding(), serverCpus(), nodesCpus(), p99Millis,
                full ? "; a node's session table was FULL" : "");
    }
}
