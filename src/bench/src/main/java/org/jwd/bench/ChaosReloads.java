package org.jwd.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The reloads of {@code src/bench/soak --chaos}: jwd's configuration file rewritten every {@code every}, each
 * server's capacity drawn anew (1 to 4) and one extra server (never killed) added or removed in turn. The lines
 * that are not a server's ({@code server.*}) are kept as the file had them.
 */
final class ChaosReloads implements Runnable {
    private final Path config;
    private final String base;
    private final List<SoakLoad.Backend> backends;
    private final SoakLoad.Backend extra;
    private final Duration every;
    private final PrintStream log;
    private final Random random = new Random(38);
    private final AtomicLong writes = new AtomicLong();
    private volatile boolean stop;

    /**
     * @param backends the servers of the configuration, killed in turn by the soak
     * @param extra    a running server that comes and goes with the rewrites
     */
    ChaosReloads(Path config, List<SoakLoad.Backend> backends, SoakLoad.Backend extra, Duration every,
                 PrintStream log) throws IOException {
        this.config = config;
        this.base = Files.readAllLines(config).stream().filter(line -> !line.startsWith("server."))
                .collect(Collectors.joining("\n", "", "\n"));
        this.backends = backends;
        this.extra = extra;
        this.every = every;
        this.log = log;
    }

    long writes() {
        return writes.get();
    }

    void stop() {
        stop = true;
    }

    @Override
    public void run() {
        long next = System.nanoTime();
        while (!stop) {
            next += every.toNanos();
            try {
                long left;
                while (!stop && (left = next - System.nanoTime()) > 0) {
                    Thread.sleep(Math.min(200, left / 1_000_000 + 1));
                }
                if (!stop) {
                    write(writes.get() % 2 == 0);
                }
            } catch (IOException e) {
                log.println("soak: rewriting " + config + " failed: " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void write(boolean withExtra) throws IOException {
        StringBuilder text = new StringBuilder(base);
        for (SoakLoad.Backend b : backends) {
            server(text, b);
        }
        if (withExtra) {
            server(text, extra);
        }
        Path written = config.resolveSibling(config.getFileName() + ".new");
        Files.writeString(written, text);
        Files.move(written, config, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        writes.incrementAndGet();
    }

    private void server(StringBuilder text, SoakLoad.Backend b) {
        String key = "server." + b.id() + ".";
        text.append(key).append("url=").append(b.url()).append('\n')
                .append(key).append("type=j2ee\n")
                .append(key).append("health_path=/sap/public/icman/ping\n")
                .append(key).append("capacity=").append(1 + random.nextInt(4)).append('\n');
    }
}
