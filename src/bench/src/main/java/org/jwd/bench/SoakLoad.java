package org.jwd.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The soak and fault run: steady load through a running jwd while its demo backends are killed (SIGKILL) and
 * restarted one after the other; then what went wrong, classified. One class for both users: {@code SoakIT}
 * (60 s, two kills) and {@code src/bench/soak} ({@link #main}, 10 minutes by default).
 *
 * <p>The load: {@code sticky} clients, each with its own {@code JSESSIONID} (jwd binds it in its session table),
 * and {@code stateless} clients without cookies on {@code /sap/public/icman/ping} (the demo backend keeps no
 * session for it, so that neither the backends nor jwd's table grow with the load). No think time.
 *
 * <p>How a request is classified, when it ends (the kill instants are known by then):
 * <ul>
 *   <li><b>in flight at a kill</b>: it started before the killed process was gone and ended after the signal
 *       was sent. Its error is excused only when it may have been on the killed server: a sticky request whose
 *       session was bound there, or a stateless one (its server is unknown when it failed).</li>
 *   <li><b>bound</b>: a sticky request whose session was, when it started, on a server that was killed and not
 *       yet back up. jwd must rebind it (the session table) or retry it elsewhere: an error is a failure unless
 *       in flight at the kill.</li>
 *   <li><b>unbound</b>: every other request. Any error is a failure.</li>
 * </ul>
 * Resource flatness of the jwd JVM: heap after a full GC (the live objects' bytes, {@code jcmd GC.class_histogram}),
 * open file descriptors ({@code /proc/<pid>/fd}) and threads ({@code /proc/<pid>/status}), sampled after the warm-up,
 * periodically, and at the end.
 */
public final class SoakLoad {

    /** The run's settings; {@link #kills} is the number of kill-restart cycles, one every {@code killEvery}. */
    public record Settings(URI jwd, long jwdPid, Duration duration, Duration warmUp, Duration killEvery,
                           Duration downFor, int sticky, int stateless, Duration sampleEvery, String adminUser,
                           String adminPassword, Limits limits) {
        int kills() {
            return (int) ((duration.toMillis() - 1) / killEvery.toMillis());
        }
    }

    /**
     * What "flat" means: after the warm-up, the heap after a full GC may grow by {@code heapPercent} percent of
     * the start or {@code heapSlackMb} MB, whichever is more; descriptors by {@code fdSlack}.
     */
    public record Limits(int heapPercent, int heapSlackMb, int fdSlack) {
    }

    /**
     * {@code src/bench/soak --chaos}: besides the kills, the configuration file rewritten every {@code reloadEvery}
     * ({@link ChaosReloads}: capacities drawn anew, {@code extra} added and removed in turn) and {@code slowClients}
     * connections that send a byte every {@code slowPace} ({@link SlowClients}). The Terracotta server's restart is
     * the script's.
     */
    public record Chaos(Path config, Backend extra, Duration reloadEvery, int slowClients, Duration slowPace) {
    }

    /** A server killed at {@code killNanos} (signal sent), gone at {@code goneNanos}, listening again at {@code backNanos}. */
    private static final class Kill {
        final String server;
        final long killNanos;
        volatile long goneNanos = Long.MAX_VALUE;
        volatile long backNanos = Long.MAX_VALUE;

        Kill(String server, long killNanos) {
            this.server = server;
            this.killNanos = killNanos;
        }
    }

    /** One sample of the jwd JVM. */
    public record Resources(long atMillis, long heapUsedKb, long fds, long threads) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "t=%4ds heap after GC %,7d KB, %4d fds, %4d threads", atMillis / 1000,
                    heapUsedKb, fds, threads);
        }
    }

    /** What the run saw; {@link #failures()} is empty when every target is met. */
    public record Result(long requests, long sticky, long stateless, long boundRequests,
                         Map<String, Long> unboundErrors, Map<String, Long> boundInFlightErrors,
                         Map<String, Long> boundLateErrors, Map<String, Long> statelessInFlightErrors,
                         long clientSawMove, long tableRebindingsStart, long tableRebindingsEnd,
                         List<String> kills, List<Resources> resources, Limits limits, List<String> chaos) {

        public long unboundErrorCount() {
            return sum(unboundErrors);
        }

        public long boundLateErrorCount() {
            return sum(boundLateErrors);
        }

        public Resources first() {
            return resources.get(0);
        }

        public Resources last() {
            return resources.get(resources.size() - 1);
        }

        public long heapLimitKb() {
            long start = first().heapUsedKb();
            return start + Math.max(start * limits.heapPercent() / 100, limits.heapSlackMb() * 1024L);
        }

        public long fdLimit() {
            return first().fds() + limits.fdSlack();
        }

        /** Every target missed, in words; empty when all are met. */
        public List<String> failures() {
            List<String> failures = new ArrayList<>();
            if (unboundErrorCount() > 0) {
                failures.add("errors for requests not bound to a killed server: " + unboundErrors);
            }
            if (boundLateErrorCount() > 0) {
                failures.add("errors for requests bound to a killed server, not in flight at the kill: "
                        + boundLateErrors);
            }
            if (last().heapUsedKb() > heapLimitKb()) {
                failures.add("heap after GC grew from " + first().heapUsedKb() + " KB to " + last().heapUsedKb()
                        + " KB (limit " + heapLimitKb() + " KB)");
            }
            if (last().fds() > fdLimit()) {
                failures.add("open descriptors grew from " + first().fds() + " to " + last().fds() + " (limit "
                        + fdLimit() + ")");
            }
            return failures;
        }

        public String report() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(Locale.ROOT, "requests: %,d (sticky %,d, stateless %,d); bound to a killed server"
                    + " while it was down: %,d%n", requests, sticky, stateless, boundRequests));
            sb.append("kills: ").append(String.join("; ", kills)).append('\n');
            sb.append("errors, unbound requests: ").append(unboundErrors).append('\n');
            sb.append("errors, bound, in flight at the kill (excused): ").append(boundInFlightErrors).append('\n');
            sb.append("errors, stateless, in flight at a kill (excused: may have been on it): ")
                    .append(statelessInFlightErrors).append('\n');
            sb.append("errors, bound, after the kill: ").append(boundLateErrors).append('\n');
            sb.append(String.format(Locale.ROOT, "rebindings: session table %d -> %d (+%d); sticky clients that saw"
                            + " their server change: %d%n", tableRebindingsStart, tableRebindingsEnd,
                    tableRebindingsEnd - tableRebindingsStart, clientSawMove));
            chaos.forEach(line -> sb.append(line).append('\n'));
            sb.append("jwd JVM after warm-up, every sample, at the end:\n");
            resources.forEach(r -> sb.append("  ").append(r).append('\n'));
            sb.append(String.format(Locale.ROOT, "flat means: heap after GC at the end <= start + max(%d%%, %d MB)"
                            + " = %,d KB; fds at the end <= start + %d = %d%n", limits.heapPercent(),
                    limits.heapSlackMb(), heapLimitKb(), limits.fdSlack(), fdLimit()));
            sb.append(verdict(unboundErrorCount() == 0, "0 errors for requests not bound to a killed server"));
            sb.append(verdict(boundLateErrorCount() == 0,
                    "no errors for bound requests beyond those in flight at the kill"));
            sb.append(verdict(last().heapUsedKb() <= heapLimitKb(), "heap flat"));
            sb.append(verdict(last().fds() <= fdLimit(), "file descriptors flat"));
            sb.append(failures().isEmpty() ? "SOAK: PASS\n" : "SOAK: FAIL\n");
            return sb.toString();
        }

        private static String verdict(boolean ok, String what) {
            return (ok ? "PASS  " : "FAIL  ") + what + "\n";
        }

        private static long sum(Map<String, Long> m) {
            return m.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private static final Pattern REBINDINGS = Pattern.compile("\"rebindings\"\\s*:\\s*(\\d+)");
    /** The last line of {@code GC.class_histogram}: instances and bytes of every live object. */
    private static final Pattern LIVE_TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");

    private final Settings settings;
    private final List<Backend> backends;
    private final PrintStream log;
    private final Chaos chaos;
    private final CopyOnWriteArrayList<Kill> kills = new CopyOnWriteArrayList<>();
    private final HttpClient admin = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final LongAdder requests = new LongAdder();
    private final LongAdder stickyRequests = new LongAdder();
    private final LongAdder statelessRequests = new LongAdder();
    private final LongAdder boundRequests = new LongAdder();
    private final LongAdder clientSawMove = new LongAdder();
    /** sticky client's session id -> the server that answered its last request */
    private final Map<String, String> stickyServer = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> unboundErrors = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> boundInFlightErrors = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> boundLateErrors = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> statelessInFlightErrors = new ConcurrentHashMap<>();
    private volatile boolean measuring;
    private volatile boolean stop;

    /**
     * @param backends the servers of jwd's configuration, running; the run kills and restarts them, one at a time
     * @param log      progress lines (kills, samples)
     */
    public SoakLoad(Settings settings, List<Backend> backends, PrintStream log) {
        this(settings, backends, log, null);
    }

    /** @param chaos the reloads and slow clients of {@code src/bench/soak --chaos}, or {@code null} for none */
    public SoakLoad(Settings settings, List<Backend> backends, PrintStream log, Chaos chaos) {
        this.settings = settings;
        this.backends = backends;
        this.log = log;
        this.chaos = chaos;
    }

    /** Warm-up, then load with kills for the duration; returns what was seen. */
    public Result run() throws Exception {
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < settings.sticky(); i++) {
            int n = i;
            clients.add(start("soak-sticky-" + n, () -> client("soak-" + n + "."
                    + Long.toHexString(System.nanoTime()))));
        }
        for (int i = 0; i < settings.stateless(); i++) {
            clients.add(start("soak-stateless-" + i, () -> client(null)));
        }
        List<Resources> resources = new CopyOnWriteArrayList<>();
        List<Thread> helpers = new ArrayList<>();
        long rebindingsStart;
        long start;
        ChaosReloads reloads = null;
        SlowClients slow = null;
        long[] reloadsStart = {0, 0};
        try {
            Thread.sleep(settings.warmUp().toMillis());
            measuring = true;
            start = System.nanoTime();
            rebindingsStart = rebindings();
            resources.add(sample(0));
            log.println("soak: warm-up done; " + resources.get(0));
            if (chaos != null) {
                reloadsStart = reloads();
                reloads = new ChaosReloads(chaos.config(), backends, chaos.extra(), chaos.reloadEvery(), log);
                helpers.add(start("soak-reloads", reloads));
                slow = new SlowClients(settings.jwd(), chaos.slowClients(), chaos.slowPace());
                slow.start();
            }
            long end = start + settings.duration().toNanos();
            // Samples on a thread of their own: jcmd can take seconds on a busy machine, kills must stay on time.
            helpers.add(start("soak-sampler", () -> {
                long next = start + settings.sampleEvery().toNanos();
                while (end - next > settings.sampleEvery().toNanos() / 2 && sleepUntil(next)) {
                    try {
                        Resources r = sample((System.nanoTime() - start) / 1_000_000);
                        resources.add(r);
                        log.println("soak: " + r);
                    } catch (Exception e) {
                        log.println("soak: sampling failed: " + e);
                    }
                    next += settings.sampleEvery().toNanos();
                }
            }));
            Thread previous = null;
            for (int k = 0; k < settings.kills(); k++) {
                if (!sleepUntil(start + (k + 1) * settings.killEvery().toNanos())) {
                    break;
                }
                // One server down at a time, as the targets assume: on a busy machine a restart can take longer
                // than the interval, and then the next kill waits for it.
                if (previous != null) {
                    previous.join();
                }
                if (System.nanoTime() >= end) {
                    break;
                }
                Backend victim = busiest(k);
                previous = start("soak-kill-" + k, () -> killAndRestart(victim));
                helpers.add(previous);
            }
            sleepUntil(end);
        } finally {
            stop = true;
            if (reloads != null) {
                reloads.stop();
            }
            if (slow != null) {
                slow.stop();
            }
            for (Thread t : clients) {
                t.join(60_000);
            }
            for (Thread t : helpers) {
                t.join(120_000);
            }
        }
        long rebindingsEnd = rebindings();
        resources.add(sample((System.nanoTime() - start) / 1_000_000));
        List<String> chaosLines = chaos == null ? List.of() : chaosLines(reloads, reloadsStart, slow);
        List<String> killTexts = kills.stream().map(k -> String.format(Locale.ROOT,
                "%s at %.1f s (gone after %d ms, back after %.1f s)", k.server, (k.killNanos - start) / 1e9,
                (k.goneNanos - k.killNanos) / 1_000_000, (k.backNanos - k.killNanos) / 1e9)).toList();
        return new Result(requests.sum(), stickyRequests.sum(), statelessRequests.sum(), boundRequests.sum(),
                snapshot(unboundErrors), snapshot(boundInFlightErrors), snapshot(boundLateErrors),
                snapshot(statelessInFlightErrors), clientSawMove.sum(), rebindingsStart, rebindingsEnd, killTexts,
                resources, settings.limits(), chaosLines);
    }

    /** The reloads written and applied, the slow clients, and the session table's cluster figures. */
    private List<String> chaosLines(ChaosReloads reloads, long[] reloadsStart, SlowClients slow)
            throws IOException, InterruptedException {
        long[] reloadsEnd = reloads();
        String table = adminGet("/jwd/admin/api/sessiontable");
        Matcher cluster = Pattern.compile("\"cluster_status\"\\s*:\\s*(\\{[^}]*})").matcher(table);
        return List.of(String.format(Locale.ROOT, "reloads: %d rewrites every %d s; applied %d, rejected %d",
                        reloads.writes(), chaos.reloadEvery().toSeconds(), reloadsEnd[0] - reloadsStart[0],
                        reloadsEnd[1] - reloadsStart[1]),
                slow.report(),
                "session table cluster at the end: " + (cluster.find() ? cluster.group(1) : "(not clustered)"));
    }

    /** Applied and rejected reloads so far ({@code jwd_config_reloads_total}). */
    private long[] reloads() throws IOException, InterruptedException {
        long[] counts = new long[2];
        Matcher m = Pattern.compile("(?m)^jwd_config_reloads_total\\{outcome=\"(\\w+)\"}\\s+([0-9.eE+]+)$")
                .matcher(adminGet("/jwd/admin/metrics"));
        while (m.find()) {
            counts[m.group(1).equals("applied") ? 0 : 1] = (long) Double.parseDouble(m.group(2));
        }
        return counts;
    }

    /**
     * The server that serves the most sticky clients now (ties: the k-th in turn), so that every kill hits
     * sessions: the run is about what the clients of a killed server see.
     */
    private Backend busiest(int k) {
        Map<String, Integer> clients = new HashMap<>();
        stickyServer.values().forEach(server -> clients.merge(server, 1, Integer::sum));
        Backend busiest = null;
        for (int i = 0; i < backends.size(); i++) {
            Backend b = backends.get((k + i) % backends.size());
            if (busiest == null || clients.getOrDefault(b.id(), 0) > clients.getOrDefault(busiest.id(), 0)) {
                busiest = b;
            }
        }
        return busiest;
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.start();
        return t;
    }

    /** Sleeps until {@code System.nanoTime()} reaches {@code deadline}; false when interrupted. */
    private static boolean sleepUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /**
     * SIGKILL now; the same server, on the same port, is started again after {@code downFor} (it is back when
     * it listens: a JVM's start on a busy machine takes seconds more).
     */
    private void killAndRestart(Backend backend) {
        try {
            Kill kill = new Kill(backend.id(), System.nanoTime());
            kills.add(kill);
            backend.kill();
            kill.goneNanos = System.nanoTime();
            log.println("soak: killed " + backend.id() + " (SIGKILL)");
            Thread.sleep(settings.downFor().toMillis());
            backend.start();
            kill.backNanos = System.nanoTime();
            log.println("soak: restarted " + backend.id());
        } catch (Exception e) {
            log.println("soak: kill and restart of " + backend.id() + " failed: " + e);
        }
    }

    /** One client's loop: a sticky one ({@code sessionId} not null) or a stateless one. */
    private void client(String sessionId) {
        LoadClient client = new LoadClient(settings.jwd(), "/irj/soak/page", sessionId);
        String servedBy = null;
        while (!stop) {
            String bound = servedBy;
            long started = System.nanoTime();
            LoadClient.Answer answer;
            try {
                answer = client.send();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            String error = answer.error();
            String nowServedBy = answer.servedBy();
            long ended = System.nanoTime();
            if (sessionId != null && nowServedBy != null) {
                if (bound != null && !bound.equals(nowServedBy) && measuring) {
                    clientSawMove.increment();
                }
                servedBy = nowServedBy;
                stickyServer.put(sessionId, nowServedBy);
            }
            if (measuring) {
                classify(sessionId != null, bound, started, ended, error);
            }
        }
    }

    private void classify(boolean sticky, String bound, long started, long ended, String error) {
        requests.increment();
        (sticky ? stickyRequests : statelessRequests).increment();
        boolean inFlightAtKill = false;
        boolean boundToKilled = false;
        for (Kill k : kills) {
            if (k.killNanos > ended) {
                continue;
            }
            boolean atKill = started < k.goneNanos && ended > k.killNanos;
            boolean onIt = sticky && k.server.equals(bound);
            if (onIt && started < k.backNanos) {
                boundToKilled = true;
                inFlightAtKill |= atKill;
            } else if (!sticky && atKill) {
                inFlightAtKill = true;
            }
        }
        if (boundToKilled) {
            boundRequests.increment();
        }
        if (error == null) {
            return;
        }
        Map<String, LongAdder> counter;
        if (boundToKilled) {
            counter = inFlightAtKill ? boundInFlightErrors : boundLateErrors;
        } else if (!sticky && inFlightAtKill) {
            counter = statelessInFlightErrors;
        } else {
            counter = unboundErrors;
        }
        counter.computeIfAbsent(error, e -> new LongAdder()).increment();
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
        Map<String, Long> m = new TreeMap<>();
        counters.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    /** The session table's rebindings from jwd's admin JSON; -1 when the admin interface is not configured. */
    private long rebindings() throws IOException, InterruptedException {
        if (settings.adminUser() == null) {
            return -1;
        }
        String body = adminGet("/jwd/admin/api/sessiontable");
        Matcher m = REBINDINGS.matcher(body);
        if (!m.find()) {
            throw new IllegalStateException("GET /jwd/admin/api/sessiontable: no rebindings in " + body);
        }
        return Long.parseLong(m.group(1));
    }

    private String adminGet(String path) throws IOException, InterruptedException {
        String auth = Base64.getEncoder().encodeToString((settings.adminUser() + ":" + settings.adminPassword())
                .getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = admin.send(HttpRequest.newBuilder(settings.jwd().resolve(path))
                .header("Authorization", "Basic " + auth).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    /** Heap after a full GC and open descriptors of the jwd JVM. */
    private Resources sample(long atMillis) throws IOException, InterruptedException {
        // The histogram follows a full GC at the same safepoint: its total is the live heap, with nothing the
        // load allocated meanwhile (GC.run, then GC.heap_info a second later, counted that too: +-25 MB).
        Matcher m = LIVE_TOTAL.matcher(jcmd("GC.class_histogram"));
        if (!m.find()) {
            throw new IllegalStateException("jcmd GC.class_histogram printed no 'Total <instances> <bytes>'");
        }
        long fds;
        try (Stream<Path> entries = Files.list(Path.of("/proc", String.valueOf(settings.jwdPid()), "fd"))) {
            fds = entries.count();
        }
        long threads = Files.readAllLines(Path.of("/proc", String.valueOf(settings.jwdPid()), "status")).stream()
                .filter(line -> line.startsWith("Threads:")).mapToLong(line -> Long.parseLong(line.substring(8).strip()))
                .findFirst().orElse(-1);
        return new Resources(atMillis, Long.parseLong(m.group(1)) / 1024, fds, threads);
    }

    private String jcmd(String command) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), String.valueOf(settings.jwdPid()), command)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + settings.jwdPid() + " " + command + " failed: " + out);
        }
        return out;
    }

    // -------------------------------------------------------------------------------------------------------------

    /**
     * A demo backend ({@code org.jwd.demo.DemoBackend}) in a process of its own, so that it can be killed for real.
     * It keeps its port across restarts: jwd's configuration names it.
     */
    public static final class Backend implements AutoCloseable {
        private static final AtomicLong STARTS = new AtomicLong();
        private final String id;
        private final int port;
        private final String classpath;
        private final Path logDir;
        private final Path pidFile;
        private volatile Process process;

        /**
         * @param classpath the demo backends' class path ({@link #testClasspath})
         * @param pidFile   when not null, every started process's pid is appended to it (for a script's clean-up)
         */
        public Backend(String id, int port, String classpath, Path logDir, Path pidFile) {
            this.id = id;
            this.port = port;
            this.classpath = classpath;
            this.logDir = logDir;
            this.pidFile = pidFile;
        }

        public String id() {
            return id;
        }

        public int port() {
            return port;
        }

        public String url() {
            return "http://127.0.0.1:" + port;
        }

        /** Starts the process and waits for its "ready" line (60 s at most). */
        public synchronized void start() throws IOException, InterruptedException {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Path log = logDir.resolve("backend-" + id + "-" + STARTS.incrementAndGet() + ".log");
            Process p = new ProcessBuilder(java.toString(), "-Xmx128m", "-XX:+UseSerialGC", "-cp", classpath,
                    "org.jwd.demo.DemoBackend", "--id", id, "--port", String.valueOf(port))
                    .redirectError(log.toFile()).start();
            process = p;
            if (pidFile != null) {
                Files.writeString(pidFile, p.pid() + "\n", StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            String line;
            while ((line = out.readLine()) != null) {
                if (line.contains("ready on")) {
                    // keep reading (and dropping) its output, so that the process never blocks on a full pipe
                    Thread drainer = new Thread(() -> drain(out), "backend-" + id + "-out");
                    drainer.setDaemon(true);
                    drainer.start();
                    return;
                }
                if (System.nanoTime() > deadline) {
                    break;
                }
            }
            p.destroyForcibly();
            throw new IllegalStateException("backend " + id + " did not start on port " + port + "; log: " + log);
        }

        private static void drain(BufferedReader out) {
            try {
                while (out.readLine() != null) {
                    // nothing: the backend prints one line only
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }

        /** SIGKILL, and wait until the process is gone. */
        public synchronized void kill() throws InterruptedException {
            Process p = process;
            if (p != null) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            }
        }

        @Override
        public void close() {
            Process p = process;
            if (p != null) {
                p.destroy();
                try {
                    if (!p.waitFor(10, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    p.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** The demo backends' class path: src/demo/target/classes and src/demo/target/classpath.txt under the project. */
        public static String testClasspath(Path projectDir) {
            try {
                return projectDir.resolve("src/demo/target/classes") + java.io.File.pathSeparator
                        + Files.readString(projectDir.resolve("src/demo/target/classpath.txt")).strip();
            } catch (IOException e) {
                throw new UncheckedIOException("no src/demo/target/classpath.txt: build first (bin/jwd build)", e);
            }
        }

        /** A port nothing listens on now (the backend binds it a moment later). */
        public static int freePort() throws IOException {
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            }
        }
    }

    // -------------------------------------------------------------------------------------------------------------

    /**
     * src/bench/soak's entry point: {@code --jwd URL --jwd-pid PID --project DIR --log-dir DIR --backend ID=PORT...}
     * and optional {@code --seconds N --kill-every N --down N --sticky N --stateless N --sample-every N
     * --warm-up N --admin-user U --admin-password P --pid-file FILE}; for {@code src/bench/soak --chaos} also
     * {@code --chaos-config FILE --extra-backend ID=PORT --reload-every N --slow N --slow-pace-ms N} ({@link Chaos}).
     * Starts the backends, runs, prints the report; exits 0 when every target is met, 1 otherwise.
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = new TreeMap<>();
        List<String[]> backendArgs = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (args[i].equals("--backend")) {
                backendArgs.add(args[i + 1].split("=", 2));
            } else {
                options.put(args[i].substring(2), args[i + 1]);
            }
        }
        Path project = Path.of(options.get("project"));
        Path logDir = Path.of(options.get("log-dir"));
        String cp = Backend.testClasspath(project);
        Path pidFile = options.containsKey("pid-file") ? Path.of(options.get("pid-file")) : null;
        List<Backend> backends = new ArrayList<>();
        for (String[] b : backendArgs) {
            backends.add(new Backend(b[0], Integer.parseInt(b[1]), cp, logDir, pidFile));
        }
        Chaos chaos = null;
        if (options.containsKey("chaos-config")) {
            String[] extra = options.get("extra-backend").split("=", 2);
            chaos = new Chaos(Path.of(options.get("chaos-config")),
                    new Backend(extra[0], Integer.parseInt(extra[1]), cp, logDir, pidFile),
                    seconds(options, "reload-every", 10), Integer.parseInt(options.getOrDefault("slow", "50")),
                    Duration.ofMillis(Long.parseLong(options.getOrDefault("slow-pace-ms", "2000"))));
        }
        Settings settings = new Settings(URI.create(options.get("jwd")), Long.parseLong(options.get("jwd-pid")),
                seconds(options, "seconds", 600), seconds(options, "warm-up", 20), seconds(options, "kill-every", 20),
                seconds(options, "down", 5), Integer.parseInt(options.getOrDefault("sticky", "6")),
                Integer.parseInt(options.getOrDefault("stateless", "2")), seconds(options, "sample-every", 60),
                options.get("admin-user"), options.get("admin-password"), new Limits(10, 8, 20));
        List<Backend> all = new ArrayList<>(backends);
        if (chaos != null) {
            all.add(chaos.extra());
        }
        Thread cleanup = new Thread(() -> all.forEach(Backend::close), "soak-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        for (Backend b : all) {
            b.start();
        }
        Result result = new SoakLoad(settings, backends, System.err, chaos).run();
        System.out.print(result.report());
        System.out.flush();
        all.forEach(Backend::close);
        System.exit(result.failures().isEmpty() ? 0 : 1);
    }

    private static Duration seconds(Map<String, String> options, String key, long defaultSeconds) {
        String v = options.get(key);
        try {
            return Duration.ofSeconds(v == null ? defaultSeconds : Long.parseLong(v));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " '" + v + "': expected a whole number of seconds");
        }
    }
}
