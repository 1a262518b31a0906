package org.jwd.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.CRC32;

/**
 * The rolling restart: jwd nodes that share one session table (cluster mode) behind a load balancer
 * ({@link FrontBalancer}: HAProxy or nginx as the project ships them), under steady load from sticky clients, each
 * node restarted in turn (SIGTERM, then a start), {@code rounds} times. One class for {@code RollingRestartIT} and
 * {@code src/bench/rolling-restart} ({@link RollingRestartMain}).
 *
 * <p>Each client has a {@code JSESSIONID} of its own, which jwd binds at its first request (the temporary session
 * table: {@code SessionTableTimeout}), and sends one request after the other through the balancer, every
 * {@code postEvery}-th a POST with a body of {@code bodyBytes} (which a balancer cannot send again), the others GETs.
 * What is counted:
 * <ul>
 *   <li><b>failed requests</b>: an answer other than 200, a failed connection, or a POST whose body did not reach
 *       the server whole (the server's byte count and CRC-32 echoed). The target is 0.</li>
 *   <li><b>moved sessions</b>: a session answered by another server than the one that answered its first request.
 *       The target is 0.</li>
 * </ul>
 */
public final class RollingRestart {

    /** A jwd node the run restarts. */
    public interface Node {
        /** Stops it as an operator does (SIGTERM), waits for its end, and starts it again until it is ready. */
        void restart() throws Exception;

        /** Its own address, {@code http://127.0.0.1:<port>/}, where its readiness is asked. */
        URI uri();
    }

    /**
     * @param warmUp load before the first restart
     * @param settle how long a node serves, once ready, before the load begins, before the next node's restart and
     *               before the load ends
     */
    public record Settings(URI front, List<Node> nodes, int rounds, int clients, int postEvery, int bodyBytes,
                           Duration warmUp, Duration settle) {
    }

    /** What the run saw; {@link #passed()} when every target is met. */
    public record Result(String front, long requests, long posts, Map<String, Long> failures, long sessions,
                         long moved, List<String> samples, List<String> restarts, int expectedRestarts) {

        public long failed() {
            return failures.values().stream().mapToLong(Long::longValue).sum();
        }

        public boolean passed() {
            return failed() == 0 && moved == 0 && requests > 0 && restarts.size() == expectedRestarts;
        }

        public String report() {
            StringBuilder sb = new StringBuilder();
            sb.append("front: ").append(front).append('\n');
            restarts.forEach(r -> sb.append("  ").append(r).append('\n'));
            sb.append(String.format(Locale.ROOT, "requests: %,d (POSTs with a body: %,d); sessions: %d%n", requests,
                    posts, sessions));
            sb.append("failed requests: ").append(failed()).append(failures.isEmpty() ? "" : " " + failures)
                    .append('\n');
            sb.append("sessions that changed their server: ").append(moved).append('\n');
            samples.forEach(s -> sb.append("  ").append(s).append('\n'));
            sb.append(passed() ? "ROLLING RESTART: PASS\n" : "ROLLING RESTART: FAIL\n");
            return sb.toString();
        }
    }

    private final Settings settings;
    private final PrintStream log;
    private final LongAdder requests = new LongAdder();
    private final LongAdder posts = new LongAdder();
    private final LongAdder moved = new LongAdder();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final List<String> samples = new CopyOnWriteArrayList<>();
    private final List<String> restarts = new CopyOnWriteArrayList<>();
    private final long startedAt = System.nanoTime();
    private volatile boolean stop;

    public RollingRestart(Settings settings, PrintStream log) {
        this.settings = settings;
        this.log = log;
    }

    /** Load, the restarts, load until {@code settle} after the last; returns what was seen. */
    public Result run(String front) throws Exception {
        for (Node node : settings.nodes()) {
            awaitReady(node);
        }
        TimeUnit.MILLISECONDS.sleep(settings.settle().toMillis()); // the balancer's checks see them ready
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < settings.clients(); i++) {
            int index = i;
            Thread t = new Thread(() -> client(index), "rolling-client-" + i);
            t.start();
            clients.add(t);
        }
        try {
            TimeUnit.MILLISECONDS.sleep(settings.warmUp().toMillis());
            for (int round = 1; round <= settings.rounds(); round++) {
                for (int n = 0; n < settings.nodes().size(); n++) {
                    restart(round, n);
                }
            }
        } finally {
            stop = true;
            for (Thread t : clients) {
                t.join(60_000);
            }
        }
        Map<String, Long> failed = new TreeMap<>();
        failures.forEach((k, v) -> failed.put(k, v.sum()));
        return new Result(front, requests.sum(), posts.sum(), failed, settings.clients(), moved.sum(),
                List.copyOf(samples), List.copyOf(restarts), settings.rounds() * settings.nodes().size());
    }

    /** One node down and up again, then serving for {@code settle} before the next. */
    private void restart(int round, int n) throws Exception {
        Node node = settings.nodes().get(n);
        long before = requests.sum();
        long failedBefore = failedCount();
        long t0 = System.nanoTime();
        node.restart();
        long up = System.nanoTime();
        awaitReady(node);
        long ready = System.nanoTime();
        TimeUnit.MILLISECONDS.sleep(settings.settle().toMillis());
        String line = String.format(Locale.ROOT, "t=%5.1fs round %d, node %d: stopped and started in %.1f s, ready"
                        + " %.1f s later; %,d requests meanwhile, %d failed", seconds(t0 - startedAt), round, n + 1,
                seconds(up - t0), seconds(ready - up), requests.sum() - before, failedCount() - failedBefore);
        restarts.add(line);
        log.println("rolling-restart: " + line);
    }

    private long failedCount() {
        return failures.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    /** The node's own {@code /jwd/health/ready} answers 200 (60 s at most). */
    private static void awaitReady(Node node) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(HttpRequest.newBuilder(node.uri().resolve("/jwd/health/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            TimeUnit.MILLISECONDS.sleep(100); // polling the node's readiness, as a balancer does
        }
        throw new IllegalStateException("node " + node.uri() + " not ready within 60 s of its start");
    }

    /** One client's loop: its session, a POST every {@code postEvery}-th request. */
    private void client(int index) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        String session = "rolling-" + index + "." + Long.toHexString(System.nanoTime());
        byte[] body = new byte[settings.bodyBytes()];
        new Random(index).nextBytes(body);
        CRC32 crc = new CRC32();
        crc.update(body);
        String expected = "\"bytes\":" + body.length + ",\"crc32\":\"" + String.format(Locale.ROOT, "%08x",
                crc.getValue()) + "\"";
        String first = null;
        for (long n = 1; !stop; n++) {
            boolean post = n % settings.postEvery() == 0;
            String servedBy = send(http, session, post ? body : null, expected);
            if (servedBy != null && first == null) {
                first = servedBy;
            } else if (servedBy != null && !servedBy.equals(first)) {
                moved.increment();
                if (samples.size() < 10) {
                    samples.add(session + ": " + first + " -> " + servedBy);
                }
                first = servedBy;
            }
        }
    }

    /** @return the server that answered (its {@code X-Served-By}), or null when the request failed */
    private String send(HttpClient http, String session, byte[] body, String expected) {
        HttpRequest.Builder request = HttpRequest.newBuilder(settings.front().resolve(body == null
                ? "/irj/rolling/page" : "/irj/rolling/upload")).timeout(Duration.ofSeconds(30))
                .header("Cookie", "JSESSIONID=" + session);
        if (body != null) {
            request.POST(HttpRequest.BodyPublishers.ofByteArray(body));
            posts.increment();
        }
        requests.increment();
        String method = body == null ? "GET" : "POST";
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return failed(method + " status " + response.statusCode());
            }
            if (body != null && !response.body().contains(expected)) {
                return failed("POST body not received whole: " + response.body());
            }
            return response.headers().firstValue("X-Served-By").orElseGet(() -> failed(method + " no X-Served-By"));
        } catch (IOException e) {
            return failed(method + " connection: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop = true;
            return null;
        }
    }

    private String failed(String what) {
        failures.computeIfAbsent(what, w -> new LongAdder()).increment();
        log.printf(Locale.ROOT, "rolling-restart: t=%.1fs failed: %s%n", seconds(System.nanoTime() - startedAt),
                what);
        return null;
    }
}
