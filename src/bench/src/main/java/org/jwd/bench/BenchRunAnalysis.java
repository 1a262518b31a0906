package org.jwd.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The analysis {@code src/bench/run} calls between its steps, so that the script only orchestrates (starts processes,
 * runs wrk) and every figure is computed by tested code. One command per call:
 * <pre>
 * check MODE TARGET SPREADS STICKS WRK_OUTPUT     the target's problems (see {@link WrkCheck}), "; "-separated;
 *                                                 nothing when it passed (SPREADS, STICKS: 1 or 0)
 * cpu PID                                         CPU nanoseconds used so far by PID and its descendants
 * cpus PID...                                     the same for each PID, blank-separated, on one line
 * record ROUND ROUNDS SCENARIO TARGET WRK_OUTPUT RESULTS_TSV [PID CPU_NANOS_BEFORE]
 *                                                 (WRK_OUTPUT: or h2load's, with its --log-file at WRK_OUTPUT.log)
 *                                                 appends the measurement to results.tsv (with its header when
 *                                                 new), the proxy's CPU from CPU_NANOS_BEFORE to now; prints
 *                                                 the line to log
 * report RESULTS_TSV TARGETS REFERENCE1 NAME1 REFERENCE2 NAME2
 *                                                 the Markdown table (TARGETS space-separated)
 * pairs RESULTS_TSV TARGETS                       each pair of targets' ratios round by round (see {@link RoundPairs})
 * failures RESULTS_TSV                            how many measurements had errors, no result or no answer
 * verdict RESULTS_TSV ROUNDS TOLERANCE EXPECTED   the measured targets that failed, one line each naming it (see
 *                                                 {@link RunVerdict}; EXPECTED: SCENARIO:LABEL space-separated,
 *                                                 TOLERANCE: errors allowed in percent of the requests); nothing
 *                                                 when all answered in every round
 * features RESULTS_TSV SCENARIO REFERENCE FEATURES
 *                                                 each feature's cost against the reference, round by round (see
 *                                                 {@link FeatureCost})
 * traffic ROUND TARGET SS_BEFORE SS_AFTER WRK_OUTPUT TRAFFIC_TSV [PID CPU_NANOS_BEFORE]
 *                                                 appends the traffic to the Terracotta server between two ss
 *                                                 snapshots (and the server's CPU from CPU_NANOS_BEFORE to now) per
 *                                                 request wrk completed (see {@link ClusterTraffic})
 * traffic-report TRAFFIC_TSV TARGETS              the traffic per request, medians over the rounds
 * capacity-record ROUND CONNECTIONS SECONDS STEP_DIR CAPACITY_TSV SERVER_PID SERVER_CPU_BEFORE NODE1_PID
 *                 NODE1_CPU_BEFORE NODE2_PID NODE2_CPU_BEFORE CPU_BEFORE_EPOCH_NANOS
 *                                                 appends a step of the cluster-capacity suite (see {@link
 *                                                 ClusterCapacity}) to capacity.tsv: both nodes' metrics scraped
 *                                                 before and after (STEP_DIR/node1.metrics-before, ...-after, node2's
 *                                                 the same), their wrk outputs (STEP_DIR/node1.wrk.txt, node2's), the
 *                                                 CPU of the server and of each node from its value before (read at
 *                                                 CPU_BEFORE_EPOCH_NANOS) to now; prints its line to log
 * capacity-report CAPACITY_TSV NODE_CPUS          the steps' table and the verdict (see {@link CapacityReport};
 *                                                 NODE_CPUS: the CPUs the two nodes were given)
 * jvm-options PID OPTIONS                         the options (blank-separated) the JVM PID was not started with
 * profiles DIR                                    the profiles' summary (see {@link ProfileSummary})
 * cold ROUND VARIANT START_EPOCH READY_EPOCH WRK_OUTPUT COLD_TSV
 *                                                 appends a cold start (see {@link ColdStart}) to cold.tsv, prints
 *                                                 its line to log
 * cold-report COLD_TSV VARIANTS                   the cold starts' table (VARIANTS space-separated)
 * rss ROUND TARGET CONNECTIONS PID RSS_TSV        appends PID's resident memory (with its descendants, see
 *                                                 {@link ProcessTreeMemory}) to rss.tsv
 * rss-report RSS_TSV TARGETS                      memory per connection (see {@link ConnectionMemory})
 * perf-events                                     the events to count with perf stat (see {@link SyscallCount})
 * syscalls TARGET PERF_OUTPUT WRK_OUTPUT SYSCALLS_TSV
 *                                                 appends the target's system calls (perf stat -x,'s output) and
 *                                                 the requests wrk or h2load completed meanwhile to syscalls.tsv;
 *                                                 prints its line to log
 * syscalls-report SYSCALLS_TSV TARGETS            system calls per request by kind (see {@link SyscallCount})
 * idle-settle PID MAX_SECONDS                     samples PID's resident memory (with its descendants) every second
 *                                                 until it changes less than 1 % over 5 s, MAX_SECONDS at most;
 *                                                 prints "KB SECONDS settled|unsettled"
 * idle-record ROUND TARGET RSS_KB SAMPLE_STATUS END_STATUS IDLE_TSV [HISTOGRAM]
 *                                                 appends a target's memory with idle connections (see {@link
 *                                                 IdleMemory}) to idle.tsv: the client's counts (its status files,
 *                                                 see {@link IdleCounts}) when the memory was read and at its end,
 *                                                 the live heap from a jcmd GC.class_histogram output; prints the line
 *                                                 to log
 * idle-report IDLE_TSV TARGETS                    memory per 1,000 idle connections (see {@link IdleMemory})
 * idle-verdict IDLE_TSV ROUNDS MIN_PERCENT EXPECTED
 *                                                 the targets that did not hold MIN_PERCENT of their connections in
 *                                                 each round (see {@link RunVerdict}; EXPECTED: TARGET@CONNECTIONS
 *                                                 space-separated); nothing when all did
 * </pre>
 * A wrong call exits 2 naming what was wrong.
 */
public final class BenchRunAnalysis {
    private BenchRunAnalysis() {
    }

    public static void main(String[] args) throws IOException {
        try {
            System.out.print(run(args));
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(2);
        }
    }

    static String run(String[] args) throws IOException {
        String command = args.length == 0 ? "" : args[0];
        List<String> a = Arrays.asList(args).subList(Math.min(1, args.length), args.length);
        return switch (command) {
            case "check" -> {
                expect(a, 5, 5, "check MODE TARGET SPREADS STICKS WRK_OUTPUT");
                List<String> problems = new WrkCheck(a.get(0), a.get(1), flag(a.get(2)), flag(a.get(3)))
                        .problems(Files.readString(Path.of(a.get(4)), StandardCharsets.UTF_8));
                yield problems.isEmpty() ? "" : String.join("; ", problems) + "\n";
            }
            case "cpu" -> {
                expect(a, 1, 1, "cpu PID");
                yield ProcessTreeCpu.of(number(a.get(0))).toNanos() + "\n";
            }
            case "cpus" -> {
                expect(a, 1, Integer.MAX_VALUE, "cpus PID...");
                yield a.stream().map(pid -> Long.toString(ProcessTreeCpu.of(number(pid)).toNanos()))
                        .collect(Collectors.joining(" ")) + "\n";
            }
            case "record" -> record(a);
            case "report" -> {
                expect(a, 6, 6, "report RESULTS_TSV TARGETS REFERENCE1 NAME1 REFERENCE2 NAME2");
                ResultTable table = new ResultTable(names(a.get(1)),
                        List.of(a.get(3), a.get(5)), List.of(a.get(2), a.get(4)));
                yield table.render(read(Path.of(a.get(0))));
            }
            case "pairs" -> {
                expect(a, 2, 2, "pairs RESULTS_TSV TARGETS");
                yield RoundPairs.render(read(Path.of(a.get(0))), names(a.get(1)));
            }
            case "failures" -> {
                expect(a, 1, 1, "failures RESULTS_TSV");
                yield read(Path.of(a.get(0))).stream().filter(Measurement::failed).count() + "\n";
            }
            case "verdict" -> verdict(a);
            case "features" -> {
                expect(a, 4, 4, "features RESULTS_TSV SCENARIO REFERENCE FEATURES");
                yield FeatureCost.render(read(Path.of(a.get(0))), (int) number(a.get(1)), a.get(2), names(a.get(3)));
            }
            case "traffic" -> traffic(a);
            case "traffic-report" -> {
                expect(a, 2, 2, "traffic-report TRAFFIC_TSV TARGETS");
                yield ClusterTraffic.report(rows(Path.of(a.get(0)), ClusterTraffic.HEADER, ClusterTraffic::parse),
                        names(a.get(1)));
            }
            case "capacity-record" -> capacityRecord(a);
            case "capacity-report" -> {
                expect(a, 2, 2, "capacity-report CAPACITY_TSV NODE_CPUS");
                yield CapacityReport.render(rows(Path.of(a.get(0)), ClusterCapacity.HEADER, ClusterCapacity::parse),
                        (int) number(a.get(1)));
            }
            case "jvm-options" -> {
                expect(a, 2, 2, "jvm-options PID OPTIONS");
                List<String> missing = JvmOptions.missing(JvmOptions.arguments(number(a.get(0))), a.get(1));
                yield missing.isEmpty() ? "" : String.join(" ", missing) + "\n";
            }
            case "profiles" -> {
                expect(a, 1, 1, "profiles DIR");
                yield ProfileSummary.render(Path.of(a.get(0)));
            }
            case "cold" -> {
                expect(a, 6, 6, "cold ROUND VARIANT START_EPOCH READY_EPOCH WRK_OUTPUT COLD_TSV");
                ColdStart start = ColdStart.of((int) number(a.get(0)), a.get(1), decimal(a.get(2)),
                        decimal(a.get(3)), Files.readString(Path.of(a.get(4)), StandardCharsets.UTF_8));
                append(Path.of(a.get(5)), ColdStart.HEADER, start.toTsv());
                yield start.summary() + "\n";
            }
            case "cold-report" -> {
                expect(a, 2, 2, "cold-report COLD_TSV VARIANTS");
                yield ColdStart.report(rows(Path.of(a.get(0)), ColdStart.HEADER, ColdStart::parse), names(a.get(1)));
            }
            case "rss" -> {
                expect(a, 5, 5, "rss ROUND TARGET CONNECTIONS PID RSS_TSV");
                ConnectionMemory memory = new ConnectionMemory((int) number(a.get(0)), a.get(1),
                        (int) number(a.get(2)), ProcessTreeMemory.kilobytes(number(a.get(3))));
                append(Path.of(a.get(4)), ConnectionMemory.HEADER, memory.toTsv());
                yield "";
            }
            case "rss-report" -> {
                expect(a, 2, 2, "rss-report RSS_TSV TARGETS");
                yield ConnectionMemory.report(rows(Path.of(a.get(0)), ConnectionMemory.HEADER,
                        ConnectionMemory::parse), names(a.get(1)));
            }
            case "perf-events" -> {
                expect(a, 0, 0, "perf-events");
                yield SyscallCount.PERF_EVENTS + "\n";
            }
            case "syscalls" -> syscalls(a);
            case "syscalls-report" -> {
                expect(a, 2, 2, "syscalls-report SYSCALLS_TSV TARGETS");
                yield SyscallCount.report(rows(Path.of(a.get(0)), SyscallCount.HEADER, SyscallCount::parse),
                        names(a.get(1)));
            }
            case "idle-settle" -> idleSettle(a);
            case "idle-record" -> idleRecord(a);
            case "idle-report" -> {
                expect(a, 2, 2, "idle-report IDLE_TSV TARGETS");
                yield IdleMemory.report(rows(Path.of(a.get(0)), IdleMemory.HEADER, IdleMemory::parse), names(a.get(1)));
            }
            case "idle-verdict" -> {
                expect(a, 4, 4, "idle-verdict IDLE_TSV ROUNDS MIN_PERCENT EXPECTED");
                Path idle = Path.of(a.get(0));
                List<IdleMemory> lines = Files.exists(idle) ? rows(idle, IdleMemory.HEADER, IdleMemory::parse)
                        : List.of();
                yield RunVerdict.idleProblems(lines, (int) number(a.get(1)), decimal(a.get(2)), names(a.get(3)))
                        .stream().map(line -> line + "\n").collect(Collectors.joining());
            }
            default -> throw new IllegalArgumentException("unknown command '" + command + "': expected check, cpu,"
                    + " cpus, record, report, pairs, failures, verdict, features, traffic, traffic-report,"
                    + " capacity-record, capacity-report, jvm-options, profiles, cold, cold-report, rss, rss-report,"
                    + " perf-events, syscalls, syscalls-report, idle-settle, idle-record, idle-report or idle-verdict");
        };
    }

    private static String record(List<String> a) throws IOException {
        expect(a, 6, 8, "record ROUND ROUNDS SCENARIO TARGET WRK_OUTPUT RESULTS_TSV [PID CPU_NANOS_BEFORE]");
        if (a.size() == 7) {
            throw new IllegalArgumentException("record: PID without CPU_NANOS_BEFORE");
        }
        // First, before anything else: the proxy's CPU time as close to the end of the run as this JVM gets.
        OptionalDouble cpuNanos = a.size() == 8
                ? OptionalDouble.of(ProcessTreeCpu.of(number(a.get(6))).toNanos() - number(a.get(7)))
                : OptionalDouble.empty();
        int round = (int) number(a.get(0));
        int scenario = (int) number(a.get(2));
        String target = a.get(3);
        Optional<WrkResult> result = loadResult(Path.of(a.get(4)));
        Measurement measurement = result.map(wrk -> Measurement.of(round, scenario, target, wrk, cpuNanos))
                .orElseGet(() -> Measurement.failed(round, scenario, target));
        append(Path.of(a.get(5)), Measurement.HEADER, measurement.toTsv());
        return measurement.summary((int) number(a.get(1))) + "\n";
    }

    private static String verdict(List<String> a) throws IOException {
        expect(a, 4, 4, "verdict RESULTS_TSV ROUNDS TOLERANCE EXPECTED");
        Path results = Path.of(a.get(0));
        // no file: not one measurement was recorded, and every expected target fails
        List<Measurement> measurements = Files.exists(results) ? read(results) : List.of();
        List<String> failed = RunVerdict.problems(measurements, (int) number(a.get(1)), decimal(a.get(2)),
                names(a.get(3)));
        return failed.stream().map(line -> line + "\n").collect(Collectors.joining());
    }

    private static String traffic(List<String> a) throws IOException {
        expect(a, 6, 8, "traffic ROUND TARGET SS_BEFORE SS_AFTER WRK_OUTPUT TRAFFIC_TSV [PID CPU_NANOS_BEFORE]");
        if (a.size() == 7) {
            throw new IllegalArgumentException("traffic: PID without CPU_NANOS_BEFORE");
        }
        OptionalDouble cpuNanos = a.size() == 8
                ? OptionalDouble.of(ProcessTreeCpu.of(number(a.get(6))).toNanos() - number(a.get(7)))
                : OptionalDouble.empty();
        Path output = Path.of(a.get(4));
        long requests = loadResult(output).map(WrkResult::requests).orElse(0L);
        ClusterTraffic traffic = ClusterTraffic.between((int) number(a.get(0)), a.get(1), requests,
                Files.readString(Path.of(a.get(2)), StandardCharsets.UTF_8),
                Files.readString(Path.of(a.get(3)), StandardCharsets.UTF_8), cpuNanos);
        append(Path.of(a.get(5)), ClusterTraffic.HEADER, traffic.toTsv());
        return traffic.summary() + "\n";
    }

    private static String capacityRecord(List<String> a) throws IOException {
        expect(a, 12, 12, "capacity-record ROUND CONNECTIONS SECONDS STEP_DIR CAPACITY_TSV SERVER_PID"
                + " SERVER_CPU_BEFORE NODE1_PID NODE1_CPU_BEFORE NODE2_PID NODE2_CPU_BEFORE CPU_BEFORE_EPOCH_NANOS");
        // First: the CPU times as close to the end of the run as this JVM gets, and over how long they were taken.
        long[] cpu = new long[3];
        for (int i = 0; i < 3; i++) {
            cpu[i] = ProcessTreeCpu.of(number(a.get(5 + 2 * i))).toNanos() - number(a.get(6 + 2 * i));
        }
        java.time.Instant now = java.time.Instant.now();
        long cpuMillis = (now.getEpochSecond() * 1_000_000_000L + now.getNano() - number(a.get(11))) / 1_000_000;
        Path dir = Path.of(a.get(3));
        List<ClusterCapacity.Scrape> before = new ArrayList<>();
        List<ClusterCapacity.Scrape> after = new ArrayList<>();
        List<WrkResult> wrk = new ArrayList<>();
        for (String node : List.of("node1", "node2")) {
            before.add(ClusterCapacity.Scrape.parse(Files.readString(dir.resolve(node + ".metrics-before"))));
            after.add(ClusterCapacity.Scrape.parse(Files.readString(dir.resolve(node + ".metrics-after"))));
            Path output = dir.resolve(node + ".wrk.txt");
            wrk.add(WrkResult.parse(Files.readString(output))
                    .orElseThrow(() -> new IllegalArgumentException("capacity-record: no wrk result in " + output)));
        }
        ClusterCapacity step = ClusterCapacity.of((int) number(a.get(0)), (int) number(a.get(1)),
                (int) number(a.get(2)), before, after, wrk, cpu[0], cpu[1], cpu[2], cpuMillis);
        append(Path.of(a.get(4)), ClusterCapacity.HEADER, step.toTsv());
        return step.summary() + "\n";
    }

    private static String syscalls(List<String> a) throws IOException {
        expect(a, 4, 4, "syscalls TARGET PERF_OUTPUT WRK_OUTPUT SYSCALLS_TSV");
        Path output = Path.of(a.get(2));
        long requests = loadResult(output).map(WrkResult::requests)
                .orElseThrow(() -> new IllegalArgumentException("syscalls: no result in " + output));
        SyscallCount count = SyscallCount.of(a.get(0), requests,
                Files.readString(Path.of(a.get(1)), StandardCharsets.UTF_8));
        append(Path.of(a.get(3)), SyscallCount.HEADER, count.toTsv());
        return count.summary() + "\n";
    }

    private static String idleSettle(List<String> a) {
        expect(a, 2, 2, "idle-settle PID MAX_SECONDS");
        long pid = number(a.get(0));
        long max = number(a.get(1));
        List<Long> samples = new ArrayList<>();
        samples.add(ProcessTreeMemory.kilobytes(pid));
        while (!IdleMemory.settled(samples, 5, 0.01) && samples.size() <= max) {
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            samples.add(ProcessTreeMemory.kilobytes(pid));
        }
        boolean settled = IdleMemory.settled(samples, 5, 0.01);
        return samples.get(samples.size() - 1) + " " + (samples.size() - 1) + " " + (settled ? "settled" : "unsettled")
                + "\n";
    }

    private static String idleRecord(List<String> a) throws IOException {
        expect(a, 6, 7, "idle-record ROUND TARGET RSS_KB SAMPLE_STATUS END_STATUS IDLE_TSV [HISTOGRAM]");
        long live = a.size() == 7 ? IdleMemory.liveKilobytes(Files.readString(Path.of(a.get(6)))) : -1;
        IdleMemory memory = IdleMemory.of((int) number(a.get(0)), a.get(1), number(a.get(2)),
                IdleCounts.parse(Files.readString(Path.of(a.get(3)))), IdleCounts.parse(Files.readString(Path.of(a.get(4)))),
                live);
        append(Path.of(a.get(5)), IdleMemory.HEADER, memory.toTsv());
        return memory.summary() + "\n";
    }

    /** wrk's result, or h2load's, whose latencies are in its log beside its output (OUTPUT.log). */
    private static Optional<WrkResult> loadResult(Path output) throws IOException {
        String text = Files.readString(output, StandardCharsets.UTF_8);
        Path h2loadLog = Path.of(output + ".log");
        return H2LoadResult.isH2Load(text)
                ? H2LoadResult.parse(text, Files.exists(h2loadLog) ? Files.readString(h2loadLog) : "")
                : WrkResult.parse(text);
    }

    /** Appends the line to the file, with the header first when the file is new. */
    private static void append(Path file, String header, String line) throws IOException {
        List<String> lines = new ArrayList<>();
        if (!Files.exists(file)) {
            lines.add(header);
        }
        lines.add(line);
        Files.write(file, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static List<Measurement> read(Path results) throws IOException {
        return rows(results, Measurement.HEADER, Measurement::parse);
    }

    /** The lines of a TSV file this class appended to, parsed, without its header and blank lines. */
    private static <T> List<T> rows(Path file, String header, Function<String, T> parse) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.isBlank() && !line.equals(header)).map(parse).toList();
    }

    /** A space-separated list of targets or variants, as the script passes them. */
    private static List<String> names(String list) {
        return List.of(list.trim().split("\\s+"));
    }

    private static void expect(List<String> a, int min, int max, String usage) {
        if (a.size() < min || a.size() > max) {
            throw new IllegalArgumentException("usage: " + usage);
        }
    }

    private static boolean flag(String value) {
        return switch (value) {
            case "1" -> true;
            case "0" -> false;
            default -> throw new IllegalArgumentException("'" + value + "': expected 1 or 0");
        };
    }

    private static double decimal(String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "': expected a number");
        }
    }

    private static long number(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "': expected a whole number");
        }
    }
}
