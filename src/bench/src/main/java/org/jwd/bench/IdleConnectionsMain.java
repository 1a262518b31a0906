package org.jwd.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@link IdleConnections} from the command line, as {@code src/bench/run idle} runs it:
 * <pre>
 * java org.jwd.bench.IdleConnectionsMain --url http://127.0.0.1:8080/irj/portal --connections 10000
 *     [--rate 1000] [--sticky] [--answer-timeout 30s] [--status FILE] [--stdin]
 * </pre>
 * It prints {@code ready: <counts>} once every connection is held or failed, and {@code end: <counts>} after the
 * stop, with the first error met; {@code --status FILE} gets the counts (one line, see {@link IdleCounts}) every
 * second and at the end, replaced whole each time. It holds the connections until SIGTERM or SIGINT, or, with
 * {@code --stdin}, until its standard input ends (a script's background job has /dev/null there, hence the option).
 * Exits 2 on a wrong argument, naming it.
 */
public final class IdleConnectionsMain {
    private IdleConnectionsMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("idle: " + e.getMessage());
            System.exit(2);
            return;
        }
        IdleConnections client = new IdleConnections(options.settings());
        CountDownLatch ended = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            client.stop();
            awaitQuietly(ended);
        }, "idle-stop"));
        if (options.stdin()) {
            Thread watcher = new Thread(() -> {
                drainQuietly();
                client.stop();
            }, "idle-stdin");
            watcher.setDaemon(true);
            watcher.start();
        }
        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "idle-status");
            t.setDaemon(true);
            return t;
        });
        boolean[] ready = {false};
        reporter.scheduleAtFixedRate(() -> {
            IdleCounts counts = client.counts();
            write(options.status(), counts);
            if (!ready[0] && counts.settled()) {
                ready[0] = true;
                System.out.println("ready: " + counts + error(client));
            }
        }, 1, 1, TimeUnit.SECONDS);
        try {
            IdleCounts last = client.run();
            reporter.shutdownNow();
            reporter.awaitTermination(5, TimeUnit.SECONDS);
            write(options.status(), last);
            System.out.println("end: " + last + error(client));
        } finally {
            ended.countDown();
        }
    }

    private static String error(IdleConnections client) {
        return client.firstError().isEmpty() ? "" : " (first error: " + client.firstError() + ")";
    }

    /** Replaces the status file whole, so that a reader never sees half a line. */
    private static void write(Path status, IdleCounts counts) {
        if (status == null) {
            return;
        }
        try {
            Path next = status.resolveSibling(status.getFileName() + ".next");
            Files.writeString(next, counts + "\n", StandardCharsets.US_ASCII);
            Files.move(next, status, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void drainQuietly() {
        try {
            while (System.in.read() >= 0) {
                // only its end matters
            }
        } catch (IOException e) {
            // a broken stdin is an ended one
        }
    }

    private static void awaitQuietly(CountDownLatch ended) {
        try {
            ended.await(15, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The command line, parsed. */
    record Options(IdleConnections.Settings settings, Path status, boolean stdin) {
        static Options parse(String[] args) {
            URI url = null;
            int connections = -1;
            int rate = 1000;
            boolean sticky = false;
            boolean stdin = false;
            Duration answerTimeout = Duration.ofSeconds(30);
            Path status = null;
            List<String> a = new ArrayList<>(List.of(args));
            while (!a.isEmpty()) {
                String option = a.remove(0);
                switch (option) {
                    case "--sticky" -> sticky = true;
                    case "--stdin" -> stdin = true;
                    case "--url" -> url = URI.create(value(a, option));
                    case "--connections" -> connections = number(value(a, option), option);
                    case "--rate" -> rate = number(value(a, option), option);
                    case "--answer-timeout" -> answerTimeout = duration(value(a, option), option);
                    case "--status" -> status = Path.of(value(a, option));
                    default -> throw new IllegalArgumentException("unknown option '" + option + "': expected --url,"
                            + " --connections, --rate, --sticky, --answer-timeout, --status or --stdin");
                }
            }
            if (url == null || !"http".equals(url.getScheme()) || url.getHost() == null || url.getPort() < 0
                    || connections < 0) {
                throw new IllegalArgumentException("need --url http://HOST:PORT/PATH (with its port) and"
                        + " --connections N, got " + url + " and " + connections);
            }
            String path = url.getRawPath().isEmpty() ? "/" : url.getRawPath();
            return new Options(new IdleConnections.Settings(url.getHost(), url.getPort(), path, connections, rate,
                    sticky, answerTimeout), status, stdin);
        }

        private static String value(List<String> rest, String option) {
            if (rest.isEmpty()) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return rest.remove(0);
        }

        private static int number(String value, String option) {
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " '" + value + "': expected a whole number");
            }
        }

        private static Duration duration(String value, String option) {
            if (value.matches("\\d+ms")) {
                return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
            }
            if (value.matches("\\d+s")) {
                return Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
            }
            throw new IllegalArgumentException(option + " '" + value + "': expected a duration with its unit (500ms,"
                    + " 30s)");
        }
    }
}
