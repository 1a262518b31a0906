package org.jwd.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jwd.affinity.SessionCookies;
import org.jwd.affinity.SessionIdentifiers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** Reading the session identifiers of one request from its {@code Cookie} header. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@State(Scope.Benchmark)
public class CookieParsingBenchmark {

    /** JSESSIONID, saplb_*, and five other cookies, as a browser of a SAP Java application sends them. */
    List<String> typical = List.of("_ga=GA1.2.1234567890.1700000000; "
            + "JSESSIONID=8F2A0C1D4B3E5F6A7B8C9D0E1F2A3B4C.node1; saplb_*=(J2EE6906720)6906750; "
            + "theme=sap_fiori_3; lang=en-US; _gid=GA1.2.987654321.1700000000; consent=functional%2Canalytics");

    /** The same five other cookies and none of ours: the first request of a session. */
    List<String> noSessionCookies = List.of("_ga=GA1.2.1234567890.1700000000; theme=sap_fiori_3; lang=en-US; "
            + "_gid=GA1.2.987654321.1700000000; consent=functional%2Canalytics");

    /** An ABAP request: sap-contextid and a saplb cookie of a logon group. */
    List<String> abap = List.of("sap-usercontext=sap-client=100; "
            + "sap-contextid=SID%3aANON%3ahost_JWD_00%3a3k5VmHfXqUq3oBC1H3eQzA-NEW; saplb_PUBLIC=(host_JWD_00)00; "
            + "theme=sap_fiori_3; lang=en-US");

    @Benchmark
    public SessionIdentifiers typical() {
        return SessionCookies.parse(typical, List.of(), List.of());
    }

    @Benchmark
    public SessionIdentifiers noSessionCookies() {
        return SessionCookies.parse(noSessionCookies, List.of(), List.of());
    }

    @Benchmark
    public SessionIdentifiers abap() {
        return SessionCookies.parse(abap, List.of(), List.of());
    }

    /**
     * Outside JMH, the thread CPU time per parse (leaves out the time spent waiting for a CPU on a loaded machine):
     * {@code java -cp target/test-classes:target/classes:$(cat cp.txt) org.jwd.bench.CookieParsingBenchmark}.
     */
    public static void main(String[] args) {
        CookieParsingBenchmark b = new CookieParsingBenchmark();
        cpuTime("typical", () -> b.typical());
        cpuTime("noSessionCookies", () -> b.noSessionCookies());
        cpuTime("abap", () -> b.abap());
    }

    private static void cpuTime(String what, java.util.function.Supplier<SessionIdentifiers> parse) {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        int n = 1_000_000;
        double[] cpu = new double[12];
        long sink = 0;
        for (int r = 0; r < cpu.length; r++) {
            long c0 = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                sink += parse.get().saplbCookies().size();
            }
            cpu[r] = (threads.getCurrentThreadCpuTime() - c0) / (double) n;
        }
        double[] later = java.util.Arrays.copyOfRange(cpu, 6, cpu.length);
        java.util.Arrays.sort(later);
        System.out.printf(java.util.Locale.ROOT, "%-18s CPU %5.0f ns/op (best %5.0f)  [%d]%n", what,
                later[later.length / 2], later[0], sink & 1);
    }
}
