package org.jwd.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import org.jwd.accesslog.AccessLog;
import org.jwd.accesslog.Entry;
import org.jwd.runtime.ConfigReader;

/**
 * The access log's CPU per request, in threads' CPU time rather than wall time, so that a loaded machine (where
 * JMH's wall-clock figures are wider than themselves) still measures it: {@link AccessLog#log} on the calling thread,
 * and the access log's writer threads' CPU and voluntary context switches (its wake-ups, from
 * {@code /proc/self/task/<tid>/status}) over the run. Requests come at a steady rate in bursts (every 10 ms, as a
 * busy dispatcher's do), so that the writer keeps up and no line is dropped.
 *
 * <pre>
 * java -cp "$(cat src/bench/target/classpath.txt | sed 's|^|src/bench/target/classes:|')" \
 *     org.jwd.bench.AccessLogCpuCost HANDLERS FORMAT REQUESTS RATE
 * </pre>
 * {@code HANDLERS}: {@code one}, {@code two-split} (a second handler whose prefix the request does not match),
 * {@code two-both} (a second handler that writes the line too); {@code RATE}: requests a second.
 */
public final class AccessLogCpuCost {
    private AccessLogCpuCost() {
    }

    public static void main(String[] args) throws Exception {
        String handlers = args[0];
        String format = args[1];
        int requests = Integer.parseInt(args[2]);
        int rate = Integer.parseInt(args[3]);
        Path dir = Files.createTempDirectory("jwd-accesslog-cpu");
        String second = switch (handlers) {
            case "one" -> "";
            case "two-split" -> "icm/HTTP/logging_1=PREFIX=/sap/, LOGFILE=" + dir.resolve("sap.log") + "\n";
            default -> "icm/HTTP/logging_1=PREFIX=/, LOGFILE=" + dir.resolve("all.log") + ", LOGFORMAT=" + format + "\n";
        };
        Map<String, String> headers = Map.of("User-Agent", "wrk");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (AccessLog log = AccessLog.open(ConfigReader.parse("server.a.url=http://127.0.0.1:8081\n"
                + "server.a.type=j2ee\nicm/HTTP/logging_0=PREFIX=/, LOGFILE=" + dir.resolve("access.log")
                + ", LOGFORMAT=" + format + "\n" + second, "bench"))) {
            List<String> writers = writerTasks();
            for (int tries = 0; writers.isEmpty() && tries < 100; tries++) { // a new thread names itself when it runs
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                writers = writerTasks();
            }
            long[] before = writerCpuAndSwitches(writers, mx);
            long self = mx.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            int burst = Math.max(1, rate / 100);
            for (int i = 0; i < requests; i++) {
                log.log(new Entry(System.currentTimeMillis(), "127.0.0.1", "GET", "/irj/portal", null, "HTTP/1.1",
                        "/irj/portal", "127.0.0.1", 8080, null, headers::get, 200, 2048, 1_250_000, "!J2EE", "b1",
                        "session table", "node0abcdefghijklmnopqrstuv" + (i & 1023), 0, 900_000));
                if (i % burst == burst - 1) {
                    LockSupport.parkNanos(start + (i + 1L) * 1_000_000_000L / rate - System.nanoTime());
                }
            }
            long callerNanos = mx.getCurrentThreadCpuTime() - self;
            long seconds = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200)); // the writer's last round
            long[] after = writerCpuAndSwitches(writers, mx);
            System.out.printf("handlers=%s format=%s requests=%d rate=%d/s (%d ms): caller %.2f us/req, writer"
                            + " threads %d: %.2f us/req, %.1f wake-ups/s, dropped %d%n", handlers, format, requests,
                    rate, seconds, callerNanos / 1000.0 / requests, writers.size(),
                    (after[0] - before[0]) / 1000.0 / requests, (after[1] - before[1]) * 1000.0 / seconds,
                    log.status().droppedLines());
        } finally {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    /** The tasks of this process whose thread name starts {@code jwd-accesslog}: every thread of the access log. */
    private static List<String> writerTasks() throws IOException {
        List<String> tasks = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : s.toList()) {
                String comm = Files.readString(task.resolve("comm")).strip();
                if (comm.startsWith("jwd-accesslog")) {
                    tasks.add(task.toString());
                }
            }
        }
        return tasks;
    }

    /**
     * The access log's threads' CPU nanoseconds (the JVM's count, by thread name) and voluntary context switches
     * (the kernel's, of {@code tasks}).
     */
    private static long[] writerCpuAndSwitches(List<String> tasks, ThreadMXBean mx) throws IOException {
        long cpu = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("jwd-accesslog")) {
                cpu += Math.max(0, mx.getThreadCpuTime(t.getId()));
            }
        }
        long switches = 0;
        for (String task : tasks) {
            for (String line : Files.readAllLines(Path.of(task, "status"))) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    switches += Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        }
        return new long[] {cpu, switches};
    }
}
