package org.jwd.bench;

import org.jwd.runtime.ConfigReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;

import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTables;
import org.jwd.config.DispatcherConfig;

/**
 * What a restart of a persistent session table ({@code SessionTable.disk_path}) costs with N bindings: the last
 * write at the stop, the read at the start, and the bytes on disk per binding. One run per N, on a fresh
 * directory; 40-character session ids over four servers, as in {@link SessionTableBenchmark}. A measurement, run on
 * purpose:
 *
 * <pre>java -cp target/classes:target/test-classes:$(cat target/test-classpath.txt) \
 *     org.jwd.bench.PersistentRestartCost 100000 1000000</pre>
 */
public final class PersistentRestartCost {
    private static final String[] SERVERS = {"server-1", "server-2", "server-3", "server-4"};

    private PersistentRestartCost() {
    }

    public static void main(String[] args) throws Exception {
        System.out.printf("%10s %12s %12s %12s %14s%n", "bindings", "bind ms", "stop ms", "start ms", "bytes/binding");
        for (String arg : args.length > 0 ? args : new String[] {"100000"}) {
            measure(Integer.parseInt(arg));
        }
    }

    private static void measure(int n) throws Exception {
        Path dir = Files.createTempDirectory("jwd-restart-cost");
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            DispatcherConfig config = config(n, dir);
            long t0 = System.nanoTime();
            SessionTable before = SessionTables.create(config, scheduler);
            for (int i = 0; i < n; i++) {
                before.bind(String.format("%032x.node%02d", i, i % 4), SERVERS[i % SERVERS.length]);
            }
            long t1 = System.nanoTime();
            before.close();
            long t2 = System.nanoTime();
            long bytes = size(dir.resolve("table"));
            SessionTable after = SessionTables.create(config, scheduler);
            long t3 = System.nanoTime();
            if (after.stats().entries() != n) {
                throw new IllegalStateException("restored " + after.stats().entries() + " of " + n);
            }
            after.close();
            System.out.printf("%10d %12d %12d %12d %14d%n", n, (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000,
                    (t3 - t2) / 1_000_000, bytes / n);
        } finally {
            scheduler.shutdownNow();
            delete(dir);
        }
    }

    private static DispatcherConfig config(int n, Path dir) throws Exception {
        StringBuilder text = new StringBuilder("SessionTableTimeout = 30m\nSessionTable.disk_path = table\n"
                + "SessionTable.disk_flush_interval = 1h\nwdisp/HTTP/max_session_tab_entries = " + n + "\n");
        for (String server : SERVERS) {
            text.append("server.").append(server).append(".url = http://127.0.0.1:1\nserver.").append(server)
                    .append(".type = j2ee\n");
        }
        return ConfigReader.parse(text.toString(), "restart-cost", dir);
    }

    private static long size(Path tree) throws IOException {
        try (Stream<Path> files = Files.walk(tree)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static void delete(Path tree) throws IOException {
        try (Stream<Path> paths = Files.walk(tree)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
