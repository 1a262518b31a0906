package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands src/bench/run calls, on recorded wrk output. */
class BenchRunAnalysisTest {
    @TempDir
    Path dir;

    private Path recorded(String name) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, Recorded.text(name));
        return file;
    }

    @Test
    void recordsEachMeasurementUnderOneHeaderAndCountsTheFailedOnes() throws Exception {
        Path results = dir.resolve("results.tsv");

        String first = BenchRunAnalysis.run(new String[] {"record", "1", "3", "1", "jwd",
                recorded("wrk-jwd-no-cookies.txt").toString(), results.toString()});
        BenchRunAnalysis.run(new String[] {"record", "1", "3", "1", "nginx-rr", recorded("wrk-non-2xx.txt").toString(),
                results.toString()});
        String failed = BenchRunAnalysis.run(new String[] {"record", "1", "3", "1", "balancer",
                recorded("wrk-refused.txt").toString(), results.toString()});
        BenchRunAnalysis.run(new String[] {"record", "1", "3", "1", "jwd-alt", recorded("wrk-unanswered.txt").toString(),
                results.toString()});

        assertThat(first).startsWith("round 1/3 scenario 1 jwd ").contains("637 req/s", "CPU - us/req");
        assertThat(failed).isEqualTo("round 1/3 scenario 1 balancer      wrk gave no result\n");
        assertThat(Files.readAllLines(results)).containsExactly(Measurement.HEADER,
                "1\t1\tjwd\t637.03\t58.020\t459.820\t-\t1330\t0",
                "1\t1\tnginx-rr\t1362.29\t2.800\t54.720\t-\t1370\t1370",
                "1\t1\tbalancer\t-\t-\t-\t-\t-\t1",
                "1\t1\tjwd-alt\t0.00\t0.000\t0.000\t-\t0\t0");
        // errors, no result, and no answer (0 requests, no error: what a JVM out of heap gets from wrk)
        assertThat(BenchRunAnalysis.run(new String[] {"failures", results.toString()})).isEqualTo("3\n");
    }

    @Test
    void recordsACapacityStepFromItsDirectoryAndReportsTheStepsWithTheVerdict() throws Exception {
        for (String file : new String[] {"node1.metrics-before", "node1.metrics-after", "node2.metrics-before",
                "node2.metrics-after", "node1.wrk.txt", "node2.wrk.txt"}) {
            recorded("capacity/" + file);
        }
        Path capacity = dir.resolve("capacity.tsv");
        String pid = Long.toString(ProcessHandle.current().pid());
        String cpuRead = Long.toString(System.currentTimeMillis() * 1_000_000 - 2_000_000_000L);

        String line = BenchRunAnalysis.run(new String[] {"capacity-record", "1", "4", "2",
                dir.resolve("capacity").toString(), capacity.toString(), pid, "0", pid, "0", pid, "0", cpuRead});

        assertThat(line).startsWith("round 1, 4 connections per node: 131 new bindings/s (1.03 per request, 1.98"
                + " writes each), write 16220 µs");
        assertThat(Files.readAllLines(capacity)).hasSize(2).first().isEqualTo(ClusterCapacity.HEADER);
        assertThat(BenchRunAnalysis.run(new String[] {"capacity-report", capacity.toString(), "1"}))
                .contains("| 4 | 1 | 131 | 127 | 1.03 | 1.98 | 16220 |")
                .contains("Verdict: the server carries at least 131 new bindings/s from two nodes (4 connections"
                        + " per node)");
        assertThat(BenchRunAnalysis.run(new String[] {"cpus", pid, pid})).matches("\\d+ \\d+\n");
    }

    @Test
    void verdictNamesTheTargetThatAnsweredNothingWhereTheCountOfFailuresOnlyCountedIt() throws Exception {
        // src/bench/run connections: jwd at 4,000 connections out of heap (0 requests, no error from wrk)
        Path results = dir.resolve("results.tsv");
        for (String label : new String[] {"nginx-hash@64", "jwd@64", "nginx-hash@4000"}) {
            BenchRunAnalysis.run(new String[] {"record", "1", "1", "2", label,
                    recorded("wrk-nginx-hash-sticky.txt").toString(), results.toString()});
        }
        BenchRunAnalysis.run(new String[] {"record", "1", "1", "2", "jwd@4000", recorded("wrk-unanswered.txt").toString(),
                results.toString()});

        String verdict = BenchRunAnalysis.run(new String[] {"verdict", results.toString(), "1", "0",
                "2:nginx-hash@64 2:jwd@64 2:nginx-hash@4000 2:jwd@4000"});

        assertThat(verdict).isEqualTo("jwd@4000 (scenario 2): round 1: no answer (0 requests completed)\n");
        assertThat(BenchRunAnalysis.run(new String[] {"verdict", results.toString(), "1", "0",
                "2:nginx-hash@64 2:jwd@64"})).isEmpty();
    }

    @Test
    void verdictWithoutAnyResultFailsEveryTarget() throws Exception {
        assertThat(BenchRunAnalysis.run(new String[] {"verdict", dir.resolve("results.tsv").toString(), "1", "0.1",
                "1:gateway 1:jwd"})).isEqualTo("gateway (scenario 1): round 1 not measured\n"
                + "jwd (scenario 1): round 1 not measured\n");
    }

    @Test
    void featuresAndTrafficPrintTheirTables() throws Exception {
        Path results = dir.resolve("results.tsv");
        Path wrk = recorded("wrk-nginx-hash-sticky.txt");
        for (String target : new String[] {"jwd", "jwd-cluster"}) {
            BenchRunAnalysis.run(new String[] {"record", "1", "1", "2", target, wrk.toString(), results.toString()});
        }
        Path traffic = dir.resolve("cluster-traffic.tsv");

        String line = BenchRunAnalysis.run(new String[] {"traffic", "1", "jwd-cluster",
                recorded("ss/before.txt").toString(), recorded("ss/after.txt").toString(), wrk.toString(),
                traffic.toString(), Long.toString(ProcessHandle.current().pid()), "0"});

        assertThat(BenchRunAnalysis.run(new String[] {"features", results.toString(), "2", "jwd", "jwd-cluster"}))
                .contains("| jwd-cluster | 1 | 1.00 [1.00-1.00] (1.00-1.00) | - | - | 0.000 [0.000 to 0.000] (0.000 to 0.000) | 1.00 [1.00-1.00] (1.00-1.00) |");
        assertThat(line).startsWith("round 1 jwd-cluster: to the Terracotta server ").contains("over 3 connections");
        assertThat(BenchRunAnalysis.run(new String[] {"traffic-report", traffic.toString(), "jwd-cluster"}))
                .contains("| jwd-cluster | 1 | ");
    }

    @Test
    void jvmOptionsNamesWhatTheJvmWasNotStartedWith() throws Exception {
        String pid = Long.toString(ProcessHandle.current().pid());

        assertThat(BenchRunAnalysis.run(new String[] {"jvm-options", pid, "-XX:+NoSuchOptionGiven"}))
                .isEqualTo("-XX:+NoSuchOptionGiven\n");
        assertThat(BenchRunAnalysis.run(new String[] {"jvm-options", pid, ""})).isEmpty();
    }

    @Test
    void recordsTheProxysCpuFromTheFigureBeforeTheRun() throws Exception {
        Path results = dir.resolve("results.tsv");
        long pid = ProcessHandle.current().pid();

        String line = BenchRunAnalysis.run(new String[] {"record", "2", "3", "2", "jwd",
                recorded("wrk-jwd-no-cookies.txt").toString(), results.toString(), Long.toString(pid), "0"});

        // all of this JVM's CPU so far, over 1330 requests: more than nothing
        assertThat(line).doesNotContain("CPU - us/req").containsPattern("CPU \\d+\\.\\d\\d us/req");
    }

    @Test
    void checkPrintsTheProblemsOrNothing() throws Exception {
        Path sticky = recorded("check-nginx-rr-sticky.txt");

        assertThat(BenchRunAnalysis.run(new String[] {"check", "sticky", "nginx-rr", "1", "0", sticky.toString()}))
                .isEmpty();
        assertThat(BenchRunAnalysis.run(new String[] {"check", "sticky", "nginx-rr", "1", "1", sticky.toString()}))
                .contains("answered by 2 backends; session").endsWith("\n");
    }

    @Test
    void reportPrintsTheTable() throws Exception {
        Path results = recorded("results-3-rounds.tsv");

        assertThat(BenchRunAnalysis.run(new String[] {"report", results.toString(),
                "direct nginx-rr nginx-hash haproxy-rr haproxy-stick balancer jwd", "nginx-rr", "no cookies",
                "nginx-hash", "sticky clients, 10000 sessions (JSESSIONID)"}))
                .isEqualTo(Recorded.text("table-3-rounds.md"));
    }

    @Test
    void countsSystemCallsPerRequestFromPerfAndWrk() throws Exception {
        Path syscalls = dir.resolve("syscalls.tsv");

        String line = BenchRunAnalysis.run(new String[] {"syscalls", "jwd", recorded("syscalls/perf-jwd.txt").toString(),
                recorded("syscalls/wrk-jwd.txt").toString(), syscalls.toString()});
        BenchRunAnalysis.run(new String[] {"syscalls", "nginx-hash",
                recorded("syscalls/perf-nginx-hash.txt").toString(), recorded("syscalls/wrk-nginx-hash.txt").toString(),
                syscalls.toString()});

        assertThat(line).startsWith("system calls jwd ").contains("11.57 per request");
        assertThat(Files.readAllLines(syscalls)).containsExactly(SyscallCount.HEADER,
                "jwd\t65777\t760724\t298731\t139836\t223720\t20346\t74420\t50065",
                "nginx-hash\t174115\t892515\t348359\t348328\t151\t21303\t0\t54432");
        assertThat(BenchRunAnalysis.run(new String[] {"syscalls-report", syscalls.toString(), "nginx-hash jwd"}))
                .contains("| nginx-hash | 5.13 |", "| jwd | 11.57 |");
        assertThat(BenchRunAnalysis.run(new String[] {"perf-events"})).isEqualTo(SyscallCount.PERF_EVENTS + "\n");
        assertThatThrownBy(() -> BenchRunAnalysis.run(new String[] {"syscalls", "jwd",
                dir.resolve("syscalls/perf-jwd.txt").toString(), recorded("wrk-refused.txt").toString(),
                syscalls.toString()})).hasMessageContaining("syscalls: no result in");
    }

    @Test
    void aWrongCallIsNamed() {
        assertThatThrownBy(() -> BenchRunAnalysis.run(new String[] {"median"}))
                .hasMessageContaining("unknown command 'median'");
        assertThatThrownBy(() -> BenchRunAnalysis.run(new String[] {"cpu"})).hasMessage("usage: cpu PID");
        assertThatThrownBy(() -> BenchRunAnalysis.run(new String[] {"cpu", "nginx"}))
                .hasMessage("'nginx': expected a whole number");
        assertThatThrownBy(() -> BenchRunAnalysis.run(new String[] {"check", "none", "jwd", "yes", "1", "f"}))
                .hasMessage("'yes': expected 1 or 0");
        assertThatThrownBy(() -> BenchRunAnalysis.run(new String[] {"record", "1", "1", "1", "jwd", "w", "r", "42"}))
                .hasMessage("record: PID without CPU_NANOS_BEFORE");
    }
}
