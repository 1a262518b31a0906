package org.jwd.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.jwd.sessiontable.EhcacheSessionTable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The session table with {@value #LIVE} live entries, on heap and off heap:
 * <ul>
 *   <li>{@code lookup}: a random live session, refreshing its idle time (the per-request operation);</li>
 *   <li>{@code bindExisting}: a bind that loses to the existing binding (concurrent first requests);</li>
 *   <li>{@code bindNew}: a new session (the table is rebuilt with {@value #LIVE} entries every iteration).</li>
 * </ul>
 * The lookup setup also prints the heap used per entry. {@link #main} measures memory alone:
 * heap bytes per entry on heap and off heap, and off-heap bytes per entry.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:MaxDirectMemorySize=3g"})
public class SessionTableBenchmark {

    static final int LIVE = 1_000_000;
    /** New sessions bindNew can create per iteration before it wraps (then it would bind existing ids). */
    static final int FRESH = 4_000_000;
    static final Duration TIMEOUT = Duration.ofMinutes(30);
    static final String[] SERVERS = {"server-1", "server-2", "server-3", "server-4"};

    @State(Scope.Benchmark)
    public static class Storage {
        @Param({"heap", "offheap"})
        public String storage;

        EhcacheSessionTable newTable(long maxEntries) {
            boolean offHeap = storage.equals("offheap");
            long offHeapMb = offHeap ? Math.max(64, maxEntries * EhcacheSessionTable.OFF_HEAP_BYTES_PER_ENTRY * 5 / 4 >> 20) : 0;
            return new EhcacheSessionTable(TIMEOUT, maxEntries, maxEntries, offHeapMb);
        }
    }

    /** A table of {@value #LIVE} entries for the whole trial. */
    @State(Scope.Benchmark)
    public static class Live {
        EhcacheSessionTable table;
        String[] ids;

        @Setup(Level.Trial)
        public void setUp(Storage storage) {
            long before = usedHeapAfterGc();
            table = storage.newTable(LIVE);
            fill(table, 0, LIVE); // the ids are referenced by the table only, as in production
            long after = usedHeapAfterGc();
            System.out.printf(Locale.ROOT, "%n[memory] %s: %d entries, %.0f bytes of heap per entry%n",
                    storage.storage, table.stats().entries(), (after - before) / (double) LIVE);
            ids = new String[LIVE];
            for (int i = 0; i < LIVE; i++) {
                ids[i] = sessionId(i);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            System.out.printf("%n[stats] %s%n", table.stats());
            table.close();
        }
    }

    /** A table of {@value #LIVE} entries, rebuilt every iteration, and ids that are not in it yet. */
    @State(Scope.Benchmark)
    public static class Growing {
        EhcacheSessionTable table;
        String[] fresh;
        int next;
        int wraps;

        @Setup(Level.Trial)
        public void ids() {
            fresh = new String[FRESH];
            for (int i = 0; i < FRESH; i++) {
                fresh[i] = sessionId(LIVE + i);
            }
        }

        @Setup(Level.Iteration)
        public void setUp(Storage storage) {
            table = storage.newTable(LIVE + FRESH);
            fill(table, 0, LIVE);
            next = 0;
        }

        @TearDown(Level.Iteration)
        public void tearDown() {
            table.close();
            table = null;
        }

        String nextFresh() {
            if (next == FRESH) {
                next = 0;
                wraps++;
                System.out.println("[warning] bindNew ran out of fresh ids: it measures existing bindings now");
            }
            return fresh[next++];
        }
    }

    /** A cheap random index per thread. */
    @State(Scope.Thread)
    public static class Cursor {
        long seed = 0x9E3779B97F4A7C15L;

        int next() {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            return (int) ((seed >>> 33) % LIVE);
        }
    }

    @Benchmark
    public String lookup(Live live, Cursor cursor) {
        return live.table.lookup(live.ids[cursor.next()]);
    }

    @Benchmark
    public String bindExisting(Live live, Cursor cursor) {
        int i = cursor.next();
        return live.table.bind(live.ids[i], SERVERS[(i + 1) & 3]);
    }

    @Benchmark
    public String bindNew(Growing growing, Cursor cursor) {
        return growing.table.bind(growing.nextFresh(), SERVERS[cursor.next() & 3]);
    }

    /** A JSESSIONID as Tomcat makes them: 32 hex digits and a route. */
    static String sessionId(int i) {
        long a = i * 0x9E3779B97F4A7C15L;
        long b = Long.rotateLeft(a, 29) ^ 0xD1B54A32D192ED03L;
        return String.format(Locale.ROOT, "%016X%016X.node%d", a, b, i & 3);
    }

    static void fill(EhcacheSessionTable table, int from, int to) {
        for (int i = from; i < to; i++) {
            table.bind(sessionId(i), SERVERS[i & 3]);
        }
    }

    static long usedHeapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /**
     * Outside JMH: {@code java -Xmx4g -cp target/test-classes:target/classes:$(cat cp.txt)
     * org.jwd.bench.SessionTableBenchmark}. Prints the memory per entry (heap on heap and off heap; off-heap bytes
     * per entry), then the thread CPU time per operation: unlike JMH's wall time it leaves out the time the
     * thread waits for a CPU, which dominates on a loaded machine. A {@code ConcurrentHashMap} of the same
     * 1,000,000 ids is the baseline.
     */
    public static void main(String[] args) {
        for (String storage : new String[] {"heap", "offheap"}) {
            Storage s = new Storage();
            s.storage = storage;
            long before = usedHeapAfterGc();
            EhcacheSessionTable table = s.newTable(LIVE);
            long empty = usedHeapAfterGc();
            long start = System.nanoTime();
            fill(table, 0, LIVE);
            long filled = System.nanoTime();
            long after = usedHeapAfterGc();
            System.out.printf(Locale.ROOT, "%s: %d entries filled in %d ms; heap: table structure %.1f MB, "
                            + "%.0f bytes per entry (key included)%n", storage, table.stats().entries(),
                    (filled - start) / 1_000_000, (empty - before) / 1048576.0, (after - empty) / (double) LIVE);
            table.close();
        }
        // Off-heap bytes per entry: fill a 64 MB off-heap table until Ehcache evicts.
        int mb = 64;
        EhcacheSessionTable small = new EhcacheSessionTable(TIMEOUT, 10 * LIVE, 10 * LIVE, mb);
        int n = 0;
        while (small.evictions() == 0) {
            small.bind(sessionId(n++), SERVERS[n & 3]);
        }
        System.out.printf(Locale.ROOT, "offheap: %d MB held %d entries before the first eviction: %.0f bytes "
                + "per entry%n", mb, n - 1, (mb << 20) / (double) (n - 1));
        small.close();

        String[] ids = new String[LIVE];
        String[] fresh = new String[LIVE];
        for (int i = 0; i < LIVE; i++) {
            ids[i] = sessionId(i);
            fresh[i] = sessionId(LIVE + i);
        }
        java.util.concurrent.ConcurrentHashMap<String, String> map = new java.util.concurrent.ConcurrentHashMap<>();
        for (int i = 0; i < LIVE; i++) {
            map.put(sessionId(i), SERVERS[i & 3]);
        }
        cpuTime("baseline ConcurrentHashMap.get", ids, map::get);
        map = null;
        for (String storage : new String[] {"heap", "offheap"}) {
            Storage s = new Storage();
            s.storage = storage;
            EhcacheSessionTable table = s.newTable(2L * LIVE);
            fill(table, 0, LIVE);
            cpuTime(storage + " lookup", ids, table::lookup);
            cpuTime(storage + " bindExisting", ids, id -> table.bind(id, SERVERS[id.length() & 3]));
            int[] next = {0};
            cpuTime(storage + " bindNew (1M -> 2M entries)", fresh, 1,
                    id -> table.bind(fresh[next[0]++], SERVERS[id.length() & 3]));
            System.out.println("  " + table.stats());
            table.close();
        }
    }

    private static void cpuTime(String what, String[] ids, java.util.function.Function<String, String> op) {
        cpuTime(what, ids, 12, op);
    }

    /** Runs {@code rounds} rounds of 1,000,000 random operations; prints CPU and wall ns/op of the later rounds. */
    private static void cpuTime(String what, String[] ids, int rounds, java.util.function.Function<String, String> op) {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Cursor cursor = new Cursor();
        double[] cpu = new double[rounds];
        double[] wall = new double[rounds];
        int sink = 0;
        for (int r = 0; r < rounds; r++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            for (int i = 0; i < LIVE; i++) {
                String answer = op.apply(ids[cursor.next()]);
                sink += answer == null ? 0 : answer.length();
            }
            cpu[r] = (threads.getCurrentThreadCpuTime() - c0) / (double) LIVE;
            wall[r] = (System.nanoTime() - w0) / (double) LIVE;
        }
        int from = rounds > 4 ? rounds / 2 : 0; // the first rounds warm up
        double[] c = java.util.Arrays.copyOfRange(cpu, from, rounds);
        double[] w = java.util.Arrays.copyOfRange(wall, from, rounds);
        java.util.Arrays.sort(c);
        java.util.Arrays.sort(w);
        System.out.printf(Locale.ROOT, "%-40s CPU %6.0f ns/op (best %6.0f), wall %6.0f ns/op (best %6.0f)  [%d]%n",
                what, c[c.length / 2], c[0], w[w.length / 2], w[0], sink & 1);
    }
}
