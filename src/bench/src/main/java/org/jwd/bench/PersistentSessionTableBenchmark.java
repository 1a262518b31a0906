package org.jwd.bench;

import org.jwd.runtime.ConfigReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTables;
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
 * A bind and a lookup with the disk tier on ({@code SessionTable.disk_path}, flushed every 5 s on a scheduler of its
 * own, as in jwd) against the heap-only table, {@value #LIVE} live entries:
 * <ul>
 *   <li>{@code lookup}: a random live session (the per-request operation; with the disk tier it also notes the
 *       use for the next flush);</li>
 *   <li>{@code bindNew}: a new session.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PersistentSessionTableBenchmark {
    static final int LIVE = 100_000;
    static final String[] SERVERS = {"server-1", "server-2", "server-3", "server-4"};

    @State(Scope.Benchmark)
    public static class Table {
        @Param({"heap", "disk"})
        public String tier;

        SessionTable table;
        String[] ids;
        long next;
        private Path dir;
        private ScheduledExecutorService scheduler;

        @Setup(Level.Iteration)
        public void fill() throws Exception {
            dir = Files.createTempDirectory("jwd-bench-disk");
            scheduler = Executors.newSingleThreadScheduledExecutor();
            StringBuilder text = new StringBuilder("SessionTableTimeout = 30m\n"
                    + "wdisp/HTTP/max_session_tab_entries = 10000000\n");
            if (tier.equals("disk")) {
                text.append("SessionTable.disk_path = table\nSessionTable.disk_flush_interval = 5s\n");
            }
            for (String server : SERVERS) {
                text.append("server.").append(server).append(".url = http://127.0.0.1:1\nserver.").append(server)
                        .append(".type = j2ee\n");
            }
            table = SessionTables.create(ConfigReader.parse(text.toString(), "bench", dir), scheduler);
            ids = new String[LIVE];
            for (int i = 0; i < LIVE; i++) {
                ids[i] = String.format("%032x.node%02d", i, i % 4);
                table.bind(ids[i], SERVERS[i % SERVERS.length]);
            }
            next = LIVE;
        }

        @TearDown(Level.Iteration)
        public void close() throws IOException {
            table.close();
            scheduler.shutdownNow();
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Benchmark
    public String lookup(Table t) {
        return t.table.lookup(t.ids[ThreadLocalRandom.current().nextInt(LIVE)]);
    }

    @Benchmark
    public String bindNew(Table t) {
        long n = t.next++;
        return t.table.bind(String.format("%032x.node%02d", n, n % 4), SERVERS[(int) (n % SERVERS.length)]);
    }
}
