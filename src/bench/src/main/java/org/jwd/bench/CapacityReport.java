package org.jwd.bench;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The table and the verdict of {@code src/bench/run cluster-capacity} from its steps ({@link ClusterCapacity}), medians
 * over the rounds per step. The verdict: the highest rate of new bindings at a step whose median write latency is
 * under twice the first step's (the server's latency doubling is where it stops keeping up), what stopped the load
 * (that doubling, or the nodes' CPU running out first, as on a machine of two CPUs), and the sizing arithmetic from the
 * server's CPU per binding: one CPU of the server makes 1e6 / (µs per binding) bindings a second.
 */
final class CapacityReport {
    /** The nodes' CPU "ran out" at this share of the CPUs they were given. */
    static final double CPU_OUT = 0.9;
    /** Fewer bindings per request than this: the step did not make a binding per request (a full table, errors). */
    static final double BINDINGS_PER_REQUEST_MIN = 0.9;

    private CapacityReport() {
    }

    /** One step's medians over its rounds. */
    record Step(int connections, int rounds, double bindingsPerSecond, double requestsPerSecond,
                double bindingsPerRequest, double writesPerBinding, double writeMicros, double serverCpuMicros,
                double serverCpus, double nodesCpus, double node1CpuMicros, double node2CpuMicros, double p50,
                double p99, boolean full) {
        static Step of(int connections, List<ClusterCapacity> rows) {
            return new Step(connections, rows.size(), median(rows, ClusterCapacity::bindingsPerSecond),
                    median(rows, ClusterCapacity::requestsPerSecond), median(rows, ClusterCapacity::bindingsPerRequest),
                    median(rows, ClusterCapacity::writesPerBinding), median(rows, ClusterCapacity::writeMicros),
                    median(rows, ClusterCapacity::serverCpuMicrosPerBinding), median(rows, ClusterCapacity::serverCpus),
                    median(rows, ClusterCapacity::nodesCpus), median(rows, ClusterCapacity::node1CpuMicrosPerRequest),
                    median(rows, ClusterCapacity::node2CpuMicrosPerRequest),
                    median(rows, ClusterCapacity::p50Millis), median(rows, ClusterCapacity::p99Millis),
                    rows.stream().anyMatch(ClusterCapacity::full));
        }
    }

    /** The steps in the order of their connections, each with its rounds' medians. */
    static List<Step> steps(List<ClusterCapacity> rows) {
        return rows.stream().mapToInt(ClusterCapacity::connections).distinct().sorted()
                .mapToObj(c -> Step.of(c, rows.stream().filter(r -> r.connections() == c).toList())).toList();
    }

    /**
     * The Markdown table, then the verdict.
     *
     * @param nodeCpus how many CPUs the two nodes were given (pinned: the proxies' CPUs; else the machine's)
     */
    static String render(List<ClusterCapacity> rows, int nodeCpus) {
        StringBuilder out = new StringBuilder("\n| connections per node | rounds | new bindings/s | wrk req/s"
                + " | bindings/req | writes/binding | write µs (mean) | server CPU µs/binding | server CPUs"
                + " | nodes' CPUs | node CPU µs/req (1 / 2) | p50 ms | p99 ms |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<Step> steps = steps(rows);
        for (Step s : steps) {
            out.append(String.format(Locale.ROOT, "| %d | %d | %.0f | %.0f | %.2f | %.2f | %.0f | %.1f | %.2f | %.2f"
                            + " | %.1f / %.1f | %.2f | %.2f |%s\n", s.connections(), s.rounds(), s.bindingsPerSecond(),
                    s.requestsPerSecond(), s.bindingsPerRequest(), s.writesPerBinding(), s.writeMicros(),
                    s.serverCpuMicros(), s.serverCpus(), s.nodesCpus(), s.node1CpuMicros(), s.node2CpuMicros(),
                    s.p50(), s.p99(), s.full() ? " a node's table was FULL" : ""));
        }
        return out.append('\n').append(verdict(steps, nodeCpus)).append('\n').toString();
    }

    /** The verdict line (with a warning line first when a step made fewer bindings than requests). */
    static String verdict(List<Step> steps, int nodeCpus) {
        if (steps.isEmpty()) {
            return "No step was measured.";
        }
        double base = steps.get(0).writeMicros();
        int doubled = 0;
        while (doubled < steps.size() && !(steps.get(doubled).writeMicros() >= 2 * base)) {
            doubled++;
        }
        Step best = steps.get(0);
        for (Step s : steps.subList(0, Math.max(1, doubled))) {
            best = s.bindingsPerSecond() > best.bindingsPerSecond() ? s : best;
        }
        StringBuilder out = new StringBuilder(warning(steps));
        out.append(String.format(Locale.ROOT, "Verdict: the server carries at least %.0f new bindings/s from two nodes"
                        + " (%d connections per node) at %.1f µs of its CPU each; ", best.bindingsPerSecond(),
                best.connections(), best.serverCpuMicros()));
        Step last = steps.get(steps.size() - 1);
        if (doubled < steps.size()) {
            Step s = steps.get(doubled);
            out.append(String.format(Locale.ROOT, "its write latency doubled at step %d (%d connections per node:"
                    + " %.0f µs against %.0f µs at the first)", doubled + 1, s.connections(), s.writeMicros(), base));
        } else {
            out.append(String.format(Locale.ROOT, "its write latency did not double (%.0f µs at the last step against"
                    + " %.0f µs at the first)", last.writeMicros(), base));
        }
        boolean nodesOut = last.nodesCpus() >= CPU_OUT * nodeCpus;
        out.append(String.format(Locale.ROOT, nodesOut ? ", and the nodes' CPU ran out (%.2f of their %d CPUs at"
                + " the last step)." : "; the nodes' CPU did not run out (%.2f of their %d CPUs at the last step):"
                + " more connections would load the server further.", last.nodesCpus(), nodeCpus));
        return out.append(String.format(Locale.ROOT, "\nSizing: one CPU of the server makes about %.0f new bindings/s"
                + " (1e6 / %.1f µs per binding).", 1e6 / best.serverCpuMicros(), best.serverCpuMicros())).toString();
    }

    private static String warning(List<Step> steps) {
        StringBuilder out = new StringBuilder();
        for (Step s : steps) {
            if (s.full() || !(s.bindingsPerRequest() >= BINDINGS_PER_REQUEST_MIN)) {
                out.append(String.format(Locale.ROOT, "Warning: at %d connections per node only %.2f new bindings per"
                        + " request%s: that step measures less than new sessions.\n", s.connections(),
                        s.bindingsPerRequest(), s.full() ? " (a node's session table was full)" : ""));
            }
        }
        return out.toString();
    }

    private static double median(List<ClusterCapacity> rows, ToDoubleFunction<ClusterCapacity> figure) {
        return ResultTable.median(rows.stream().mapToDouble(figure).filter(v -> !Double.isNaN(v)).toArray())
                .orElse(Double.NaN);
    }
}
