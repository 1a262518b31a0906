package org.jwd.bench;

import static org.jwd.bench.MainOptions.number;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reload storm: jwd's configuration file rewritten every {@code every} (a server added or removed each time,
 * every capacity drawn anew) while sticky clients (a {@code JSESSIONID} each) and stateless clients load it. One
 * class for both users: {@code ReloadStormIT} (25 s) and {@code src/bench/reload-storm} ({@link #main}, 5 minutes).
 *
 * <p>The servers: {@code stable} ones stay in every configuration (only their capacities change);
 * {@code transient} ones come and go, one of them added or removed at each rewrite. What is counted:
 * <ul>
 *   <li><b>errors, servers that stayed</b>: a failed request of a stateless client, of a session not bound yet,
 *       or of a session whose server is a stable one. The target is 0.</li>
 *   <li><b>bindings lost, servers that stayed</b>: a session answered by another server than its last one, which
 *       is stable. The target is 0.</li>
 *   <li><b>moves, servers that left</b>: a session of a transient server answered elsewhere (expected: its
 *       server was removed and jwd rebound it). Errors of such sessions are counted apart (expected 0 too: a
 *       removed server is still running and finishes what it has).</li>
 * </ul>
 * The reloads jwd applied are read from its metrics ({@code jwd_config_reloads_total}) at the start and the end.
 */
public final class ReloadStorm {

    /** The run's settings; {@code base} holds every line but the servers' (admin, session table, cluster...). */
    public record Settings(URI jwd, Path config, String base, Map<String, String> stable,
                           Map<String, String> transients, Duration duration, Duration every, int sticky,
                           int stateless, String adminUser, String adminPassword) {
    }

    /** What the run saw; {@link #failures()} is empty when every target is met. */
    public record Result(long writes, long applied, long rejected, long requests, long sticky, long stateless,
                         Map<String, Long> stayedErrors, Map<String, Long> leftErrors, long lost, long moves,
                         List<String> lostSamples) {

        public List<String> failures() {
            List<String> failures = new ArrayList<>();
            long stayed = stayedErrors.values().stream().mapToLong(Long::longValue).sum();
            if (stayed > 0) {
                failures.add("failed requests for servers that stayed: " + stayedErrors);
            }
            if (lost > 0) {
                failures.add("bindings lost to servers that stayed: " + lost + " " + lostSamples);
            }
            if (applied < writes / 2) {
                failures.add("only " + applied + " of " + writes + " rewrites were applied");
            }
            return failures;
        }

        public String report() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(Locale.ROOT, "configuration rewrites: %d; reloads applied %d, rejected %d%n",
                    writes, applied, rejected));
            sb.append(String.format(Locale.ROOT, "requests: %,d (sticky %,d, stateless %,d)%n", requests, sticky,
                    stateless));
            sb.append("errors, servers that stayed (and stateless): ").append(stayedErrors).append('\n');
            sb.append("errors, sessions of servers that left: ").append(leftErrors).append('\n');
            sb.append("bindings lost to servers that stayed: ").append(lost).append(lostSamples.isEmpty() ? ""
                    : " " + lostSamples).append('\n');
            sb.append("sessions moved because their server left: ").append(moves).append('\n');
            sb.append(failures().isEmpty() ? "RELOAD STORM: PASS\n" : "RELOAD STORM: FAIL " + failures() + "\n");
            return sb.toString();
        }
    }

    private static final Pattern RELOADS = Pattern.compile(
            "(?m)^jwd_config_reloads_total\\{outcome=\"(\\w+)\"}\\s+([0-9.eE+]+)$");

    private final Settings settings;
    private final PrintStream log;
    private final Random random = new Random(38);
    private final LongAdder requests = new LongAdder();
    private final LongAdder stickyRequests = new LongAdder();
    private final LongAdder statelessRequests = new LongAdder();
    private final LongAdder lost = new LongAdder();
    private final LongAdder moves = new LongAdder();
    private final List<String> lostSamples = new CopyOnWriteArrayList<>();
    private final Map<String, LongAdder> stayedErrors = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> leftErrors = new ConcurrentHashMap<>();
    private volatile boolean stop;

    public ReloadStorm(Settings settings, PrintStream log) {
        this.settings = settings;
        this.log = log;
    }

    /** The first configuration: every server, capacity 1. Write it before jwd starts. */
    public static String initial(Settings settings) {
        Map<String, Integer> all = new TreeMap<>();
        settings.stable().keySet().forEach(id -> all.put(id, 1));
        settings.transients().keySet().forEach(id -> all.put(id, 1));
        return text(settings, all);
    }

    private static String text(Settings settings, Map<String, Integer> capacities) {
        StringBuilder sb = new StringBuilder(settings.base());
        capacities.forEach((id, capacity) -> {
            String url = settings.stable().getOrDefault(id, settings.transients().get(id));
            sb.append("server.").append(id).append(".url=").append(url).append('\n')
                    .append("server.").append(id).append(".type=j2ee\n")
                    .append("server.").append(id).append(".capacity=").append(capacity).append('\n');
        });
        return sb.toString();
    }

    /** Load, a rewrite every {@code every}, for the duration; returns what was seen. */
    public Result run() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        long[] before = reloads(http);
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < settings.sticky(); i++) {
            String id = "storm-" + i + "." + Long.toHexString(System.nanoTime());
            clients.add(start("storm-sticky-" + i, () -> client(id)));
        }
        for (int i = 0; i < settings.stateless(); i++) {
            clients.add(start("storm-stateless-" + i, () -> client(null)));
        }
        long writes = 0;
        try {
            writes = rewrite();
        } finally {
            stop = true;
            for (Thread t : clients) {
                t.join(60_000);
            }
        }
        long[] after = reloads(http);
        return new Result(writes, after[0] - before[0], after[1] - before[1], requests.sum(), stickyRequests.sum(),
                statelessRequests.sum(), snapshot(stayedErrors), snapshot(leftErrors), lost.sum(), moves.sum(),
                List.copyOf(lostSamples));
    }

    /** Rewrites the file every {@code every} until the duration has passed; returns how often. */
    private long rewrite() throws IOException, InterruptedException {
        long start = System.nanoTime();
        long end = start + settings.duration().toNanos();
        List<String> transients = new ArrayList<>(settings.transients().keySet());
        Map<String, Boolean> present = new LinkedHashMap<>();
        transients.forEach(id -> present.put(id, true));
        long writes = 0;
        for (long next = start + settings.every().toNanos(); next < end; next += settings.every().toNanos()) {
            sleepUntil(next);
            Map<String, Integer> capacities = new TreeMap<>();
            settings.stable().keySet().forEach(id -> capacities.put(id, 1 + random.nextInt(4)));
            // one transient server added or removed at each rewrite, in turn; at least one always stays
            String toggled = transients.get((int) (writes % transients.size()));
            present.put(toggled, !present.get(toggled) || present.values().stream().filter(p -> p).count() == 1);
            present.forEach((id, in) -> {
                if (in) {
                    capacities.put(id, 1 + random.nextInt(4));
                }
            });
            replace(text(settings, capacities));
            writes++;
            if (writes % 60 == 0) {
                log.printf(Locale.ROOT, "reload-storm: %d rewrites, %,d requests, %d errors, %d lost%n", writes,
                        requests.sum(), stayedErrors.values().stream().mapToLong(LongAdder::sum).sum(), lost.sum());
            }
        }
        sleepUntil(end);
        return writes;
    }

    /** As an editor that writes a new file and renames it over the old one. */
    private void replace(String text) throws IOException {
        Path written = settings.config().resolveSibling(settings.config().getFileName() + ".new");
        Files.writeString(written, text);
        Files.move(written, settings.config(), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    /** One client's loop: a sticky one ({@code sessionId} not null) or a stateless one. */
    private void client(String sessionId) {
        LoadClient client = new LoadClient(settings.jwd(), "/irj/storm/page", sessionId);
        String servedBy = null;
        while (!stop) {
            LoadClient.Answer answer;
            try {
                answer = client.send();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            classify(sessionId, servedBy, answer.servedBy(), answer.error());
            if (answer.servedBy() != null) {
                servedBy = answer.servedBy();
            }
        }
    }

    /** @param bound the server of the session's last answer (null: none yet, or stateless) */
    private void classify(String sessionId, String bound, String now, String error) {
        requests.increment();
        (sessionId == null ? statelessRequests : stickyRequests).increment();
        boolean left = bound != null && settings.transients().containsKey(bound);
        if (error != null) {
            (left ? leftErrors : stayedErrors).computeIfAbsent(error, e -> new LongAdder()).increment();
            return;
        }
        if (sessionId == null || bound == null || bound.equals(now)) {
            return;
        }
        if (left) {
            moves.increment(); // its server comes and goes: removed, its sessions are rebound elsewhere
        } else {
            lost.increment();
            if (lostSamples.size() < 10) {
                lostSamples.add(sessionId + ": " + bound + " -> " + now);
            }
        }
    }

    /** Applied and rejected reloads so far, from jwd's metrics. */
    private long[] reloads(HttpClient http) throws IOException, InterruptedException {
        String auth = java.util.Base64.getEncoder().encodeToString((settings.adminUser() + ":"
                + settings.adminPassword()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(settings.jwd().resolve("/jwd/admin/metrics"))
                .header("Authorization", "Basic " + auth).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET /jwd/admin/metrics: " + r.statusCode());
        }
        long[] counts = new long[2];
        Matcher m = RELOADS.matcher(r.body());
        while (m.find()) {
            counts[m.group(1).equals("applied") ? 0 : 1] = (long) Double.parseDouble(m.group(2));
        }
        return counts;
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.start();
        return t;
    }

    private static void sleepUntil(long deadline) throws InterruptedException {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
        Map<String, Long> m = new TreeMap<>();
        counters.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }
    // -------------------------------------------------------------------------------------------------------------

    /**
     * src/bench/reload-storm's entry point: {@code --project DIR --out DIR} and optional {@code --seconds N (300)
     * --every-ms N (1000) --stable N (3) --transient N (3) --sticky N (12) --stateless N (2) --watch D (250ms:
     * jwd.config_watch)}. Starts the demo
     * servers in this JVM and jwd ({@code bin/jwd run}) on loopback, runs, prints the report, stops everything;
     * exits 0 when every target is met, 1 otherwise.
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = MainOptions.parse(args);
        Path project = Path.of(options.get("project"));
        Path out = Path.of(options.get("out"));
        List<org.jwd.demo.DemoBackend> servers = new ArrayList<>();
        Process jwd = null;
        try {
            Map<String, String> stable = start(servers, "s", number(options, "stable", 3));
            Map<String, String> transients = start(servers, "t", number(options, "transient", 3));
            String password = "storm-" + Long.toHexString(System.nanoTime());
            String base = "# src/bench/reload-storm\nadmin.user=storm\nadmin.password_hash="
                    + org.jwd.config.PasswordHash.create(password.toCharArray(), 10_000)
                    + "\nSessionTableTimeout=10m\njwd.config_watch=" + options.getOrDefault("watch", "250ms") + "\n";
            int port;
            try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
                    java.net.InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            Path config = out.resolve("storm.properties");
            Settings settings = new Settings(URI.create("http://127.0.0.1:" + port + "/"), config, base, stable,
                    transients, Duration.ofSeconds(number(options, "seconds", 300)),
                    Duration.ofMillis(number(options, "every-ms", 1000)), number(options, "sticky", 12),
                    number(options, "stateless", 2), "storm", password);
            Files.writeString(config, initial(settings));
            jwd = startJwd(project, config, port, out);
            Result result = new ReloadStorm(settings, System.err).run();
            System.out.print(result.report());
            System.out.flush();
            System.exit(result.failures().isEmpty() ? 0 : 1);
        } finally {
            if (jwd != null) {
                jwd.destroy();
                jwd.waitFor(30, TimeUnit.SECONDS);
            }
            servers.forEach(org.jwd.demo.DemoBackend::close);
        }
    }

    private static Map<String, String> start(List<org.jwd.demo.DemoBackend> servers, String prefix, int count) {
        Map<String, String> urls = new TreeMap<>();
        for (int i = 1; i <= count; i++) {
            org.jwd.demo.DemoBackend server = org.jwd.demo.DemoBackend.start(
                    org.jwd.demo.DemoBackend.Options.j2ee(prefix + i));
            servers.add(server);
            urls.put(prefix + i, server.url());
        }
        return urls;
    }

    /** {@code bin/jwd run} of the project, until it prints that it is ready (120 s at most). */
    private static Process startJwd(Path project, Path config, int port, Path out) throws Exception {
        Path log = out.resolve("jwd.out");
        Process jwd = new ProcessBuilder(project.resolve("bin/jwd").toString(), "run", "--config", config.toString(),
                "--port", String.valueOf(port), "--host", "127.0.0.1")
                .redirectOutput(log.toFile()).redirectError(out.resolve("jwd.err").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.readString(log).contains("jwd: ready on")) {
            if (!jwd.isAlive() || System.nanoTime() > deadline) {
                jwd.destroyForcibly();
                throw new IllegalStateException("jwd did not start; see " + out.resolve("jwd.err"));
            }
            Thread.sleep(100); // polling a process's output file: no event to wait for
        }
        return jwd;
    }
}
