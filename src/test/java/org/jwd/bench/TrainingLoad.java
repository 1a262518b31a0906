package org.jwd.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load of the build's training run on a JDK with AOT caches (25 and later; {@code bin/jwd appcds-archive}):
 * sticky clients against a dispatcher for some seconds, so that its JVM records not only the classes it loaded but
 * the profiles of the methods every request runs through (JEP 515). At the next start the JIT compiles those
 * methods from the recorded profiles at once instead of profiling them first: what is left of the warm-up after
 * class loading (README, Performance). A few requests would leave the profiles empty.
 *
 * <p>Each client sends {@code GET URL} in a loop, each request with one of {@value #SESSIONS} {@code JSESSIONID}s
 * ({@code TRAINING<n>.b1}, the route suffix of the demo backend {@code b1}), as the sticky clients of
 * {@code bench/run} do, until the time is up.
 *
 * <p>{@code java org.jwd.bench.TrainingLoad URL SECONDS [CLIENTS]} prints
 * {@code training: N requests in S s (E not 200)} and exits 0, or 1 when no request was answered 200.
 */
public final class TrainingLoad {
    static final int SESSIONS = 1000;
    private static final int DEFAULT_CLIENTS = 16;

    /** What the load did: requests answered, and how many of them not with 200. */
    public record Result(long requests, long errors, Duration took) {
        @Override
        public String toString() {
            return "training: " + requests + " requests in " + took.toSeconds() + " s (" + errors + " not 200)";
        }
    }

    private TrainingLoad() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: java " + TrainingLoad.class.getName() + " URL SECONDS [CLIENTS]");
            System.exit(2);
        }
        Result result = run(URI.create(args[0]), Duration.ofSeconds(Long.parseLong(args[1])),
                args.length == 3 ? Integer.parseInt(args[2]) : DEFAULT_CLIENTS);
        System.out.println(result);
        System.exit(result.requests() > result.errors() ? 0 : 1);
    }

    /** Loads {@code url} with {@code clients} sticky clients for {@code duration}: real time, as a training must. */
    public static Result run(URI url, Duration duration, int clients) throws InterruptedException {
        AtomicLong requests = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        // the clients' own threads: the HttpClient's executor must stay free to complete the answers they wait for
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                running.add(threads.submit(() -> load(http, url, client, end, requests, errors)));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a training client failed", e.getCause());
        } finally {
            threads.shutdownNow();
        }
        return new Result(requests.get(), errors.get(), Duration.ofNanos(System.nanoTime() - start));
    }

    /**
     * One client's requests until {@code end}, at least one: a client thread that a busy machine starts only after
     * the end still sends its first request (a training of no requests trains nothing, and TrainingLoadTest's 500
     * ms load saw none while a build ran beside it).
     */
    private static void load(HttpClient http, URI url, int client, long end, AtomicLong requests, AtomicLong errors) {
        long n = client;
        do {
            HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10))
                    .header("Cookie", "JSESSIONID=TRAINING" + n % SESSIONS + ".b1").build();
            try {
                int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
                requests.incrementAndGet();
                if (status != 200) {
                    errors.incrementAndGet();
                }
            } catch (IOException e) {
                // a connection the dispatcher closed: counted, and the client goes on
                requests.incrementAndGet();
                errors.incrementAndGet();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            n += SESSIONS / 7 + 1;
        } while (System.nanoTime() < end);
    }
}
