package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.htmlunit.WebClient;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlPage;
import org.jwd.bench.SessionTableCost;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.jwd.sessiontable.SessionTable;

/**
 * Cluster mode through the real distribution: two dispatcher nodes ({@code bin/jwd run}, each its own Jetty)
 * share one session table on one Terracotta server (started once for the class, from the kit under
 * {@code target/}), in front of three Java server processes. The server is crashed last, so the tests before
 * run against a healthy cluster.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {
    /**
     * Short, so that expiry can be watched; the tests that lose the server use each session from a thread of its
     * own, so that a request held up by the lost server (up to 12 s for a new session's first) idles no other. Both tables': {@code SessionTableTimeout} for the request-time bindings,
     * {@code wdisp/HTTP/context_timeout} for the JSESSIONIDs the demo servers set in answer (they set every id they
     * do not know), which SAP's session ID table learns.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final String CONNECTED = "Session table cluster terracotta://";

    private static DemoBackend a;
    private static DemoBackend b;
    private static DemoBackend c;
    private static TerracottaServer terracotta;
    private static String config;
    private static JwdProcess node1;
    private static JwdProcess node2;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(32)).connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() throws Exception {
        a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
        c = DemoBackend.start(DemoBackend.Options.j2ee("c"));
        terracotta = TerracottaServer.start();
        config = """
                server.a.url=%s
                server.a.type=j2ee
                server.b.url=%s
                server.b.type=j2ee
                server.c.url=%s
                server.c.type=j2ee
                SessionTableTimeout=%dms
                wdisp/HTTP/context_timeout=%dms
                wdisp/HTTP/max_session_tab_entries=100000
                SessionTable.cluster_uri=%s
                jwd.debug_headers=true
                """.formatted(a.url(), b.url(), c.url(), TIMEOUT.toMillis(), TIMEOUT.toMillis(),
                terracotta.uri("jwd-it"))
                + AdminClient.CONFIG;
        CompletableFuture<JwdProcess> first = CompletableFuture.supplyAsync(() -> JwdProcess.start(config));
        CompletableFuture<JwdProcess> second = CompletableFuture.supplyAsync(() -> JwdProcess.start(config));
        node1 = first.get();
        node2 = second.get();
        assertConnected(node1);
        assertConnected(node2);
    }

    @AfterAll
    static void stop() throws Exception {
        // Kept for whoever reads a failure: target/tmp/ClusterIT-*.log
        Path dir = JwdProcess.target().resolve("tmp");
        Files.createDirectories(dir);
        if (node1 != null) {
            Files.write(dir.resolve("ClusterIT-node1.log"), node1.log());
        }
        if (node2 != null) {
            Files.write(dir.resolve("ClusterIT-node2.log"), node2.log());
        }
        if (terracotta != null) {
            Files.write(dir.resolve("ClusterIT-terracotta.log"), terracotta.log());
        }
        for (AutoCloseable closeable : new AutoCloseable[] {node1, node2, terracotta, a, b, c}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception ignored) {
                // the next one still stops
            }
        }
    }

    private static void assertConnected(JwdProcess node) {
        assertThat(node.log()).as("%s connected to the cluster at startup", node)
                .anySatisfy(line -> assertThat(line).contains(CONNECTED).contains(": connected;"));
    }

    private record Served(int status, String server, String route) {
    }

    private static Served request(JwdProcess node, String jsessionid) throws Exception {
        return request(node, "/irj/x", jsessionid);
    }

    private static Served request(JwdProcess node, String path, String jsessionid) throws Exception {
        HttpResponse<Void> response = http.send(HttpRequest.newBuilder(node.uri(path))
                .header("Cookie", "JSESSIONID=" + jsessionid).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.discarding());
        return new Served(response.statusCode(), response.headers().firstValue("X-Served-By").orElse(null),
                response.headers().firstValue("X-Jwd-Route").orElse(""));
    }

    private static String servedBy(JwdProcess node, String jsessionid) throws Exception {
        Served served = request(node, jsessionid);
        assertThat(served.status()).as("status through %s", node).isEqualTo(200);
        return served.server();
    }

    private static String freshId() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /**
     * Fresh session ids, each with 32 concurrent first requests ({@code -Djwd.it.firstRequestIds}; 300 in earlier
     * rounds, whose split under CPU pressure the stall test below now reproduces deterministically).
     */
    private static final int FIRST_REQUEST_IDS = Integer.getInteger("jwd.it.firstRequestIds", 100);

    @Test
    @Order(1)
    void concurrentFirstRequestsAtBothNodesLandOnOneServer() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(32);
        try {
            List<String> split = new ArrayList<>();
            Map<String, Integer> perServer = new ConcurrentHashMap<>();
            for (int id = 0; id < FIRST_REQUEST_IDS; id++) {
                String jsessionid = freshId();
                CyclicBarrier barrier = new CyclicBarrier(32);
                List<Future<String>> results = new ArrayList<>();
                for (int t = 0; t < 32; t++) {
                    JwdProcess node = t % 2 == 0 ? node1 : node2;
                    results.add(threads.submit(() -> {
                        barrier.await();
                        return servedBy(node, jsessionid);
                    }));
                }
                Set<String> servers = new HashSet<>();
                for (Future<String> r : results) {
                    servers.add(r.get());
                }
                if (servers.size() != 1) {
                    split.add(jsessionid + " -> " + servers);
                }
                perServer.merge(servers.iterator().next(), 1, Integer::sum);
            }

            assertThat(split).as("session ids whose concurrent requests split across servers").isEmpty();
            assertThat(perServer.keySet()).as("sessions are still balanced").containsExactlyInAnyOrder("a", "b", "c");
            // A node may lose the server for a moment on a loaded machine (an operation's 2 s timeout): its new
            // bindings then wait for the server, so no split follows (see the stall test below).
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    @Order(2)
    void aBindingMadeThroughOneNodeIsHonouredByTheOtherAndSurvivesARestartOfTheFirst() throws Exception {
        Map<String, String> bound = new LinkedHashMap<>();
        for (int i = 0; i < 20; i++) {
            String id = freshId();
            Served first = request(node1, id);
            assertThat(first.route()).contains("reason=session table bind");
            bound.put(id, first.server());
        }
        for (Map.Entry<String, String> e : bound.entrySet()) {
            Served other = request(node2, e.getKey());
            assertThat(other.server()).as("node 2 follows node 1's binding").isEqualTo(e.getValue());
            assertThat(other.route()).endsWith("reason=session table");
        }

        // The sessions stay in use (through node 2) while node 1 restarts: idle, they would expire in 5 s.
        AtomicBoolean restarted = new AtomicBoolean();
        List<String> wrong = new CopyOnWriteArrayList<>();
        Thread user = new Thread(() -> {
            while (!restarted.get()) {
                try {
                    for (Map.Entry<String, String> e : bound.entrySet()) {
                        String server = servedBy(node2, e.getKey());
                        if (!server.equals(e.getValue())) {
                            wrong.add(e.getKey() + " -> " + server);
                        }
                    }
                    Thread.sleep(500);
                } catch (Exception ex) {
                    wrong.add(ex.toString());
                }
            }
        }, "cluster-it-user");
        user.start();
        try {
            node1.close();
            node1 = JwdProcess.start(config);
            assertConnected(node1);
            for (Map.Entry<String, String> e : bound.entrySet()) {
                Served again = request(node1, e.getKey());
                assertThat(again.server()).as("restarted node 1, which keeps nothing itself").isEqualTo(e.getValue());
                assertThat(again.route()).endsWith("reason=session table");
            }
        } finally {
            restarted.set(true);
            user.join();
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    @Order(0)
    void eachNodeShowsTheClusterOnItsAdminPageAndInItsMetrics() throws Exception {
        for (JwdProcess node : List.of(node1, node2)) {
            // a new session's first request: its no-binding marker and its binding written on the server
            assertThat(request(node, "shown-" + node.uri("/").getPort()).status()).isEqualTo(200);
            assertThat(clusterStateInMetrics(node)).as("metrics of %s", node).isEqualTo("connected");
            String metrics = new AdminClient(node).get("/jwd/admin/metrics").body();
            assertThat(metricValue(metrics, "jwd_session_table_cluster_writes_total")).isGreaterThanOrEqualTo(2);
            assertThat(metricValue(metrics, "jwd_session_table_cluster_write_seconds_total")).isPositive();
            Map<String, Object> table = new AdminClient(node).object("/jwd/admin/api/sessiontable");
            assertThat(table).containsEntry("cluster", "CONNECTED");
            @SuppressWarnings("unchecked")
            Map<String, Object> status = (Map<String, Object>) table.get("cluster_status");
            assertThat(status).containsEntry("state", "CONNECTED")
                    .containsEntry("uri", terracotta.uri("jwd-it").toString());
            assertThat(((Number) status.get("writes")).longValue()).isGreaterThanOrEqualTo(2);
            assertThat(((Number) status.get("write_mean_micros")).longValue()).isPositive();
            try (WebClient web = AdminClient.browser()) {
                HtmlPage page = web.getPage(node.uri("/jwd/admin/").toURL());
                await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                    assertThat(cell(page, "cluster")).isEqualTo("CONNECTED");
                    assertThat(cell(page, "cluster server")).isEqualTo(terracotta.uri("jwd-it").toString());
                    assertThat(cell(page, "cluster outages")).isEqualTo("0");
                    assertThat(cell(page, "server writes")).matches("\\d+, \\d+ µs each on average since the start");
                });
            }
        }
    }

    private static String cell(HtmlPage page, String field) {
        DomNode node = page.querySelector("#sessiontable td[data-field='" + field + "']");
        return node == null ? null : node.getTextContent().strip();
    }

    /** The state {@code jwd_session_table_cluster_state} marks with 1 on the node's metrics page. */
    private static double metricValue(String metrics, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(metrics);
        assertThat(m.find()).as("%s on the metrics page", name).isTrue();
        return Double.parseDouble(m.group(1));
    }

        private static String clusterStateInMetrics(JwdProcess node) {
        HttpResponse<String> metrics = new AdminClient(node).get("/jwd/admin/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        Matcher m = Pattern.compile("(?m)^jwd_session_table_cluster_state\\{state=\"(\\w+)\"} 1\\.0$")
                .matcher(metrics.body());
        assertThat(m.find()).as("a cluster state on the metrics page of %s", node).isTrue();
        return m.group(1);
    }

    @Test
    @Order(3)
    void aSessionKeptBusyThroughOneNodeDoesNotExpireOnTheOther() throws Exception {
        String id = freshId();
        String server = servedBy(node1, id);

        // Three timeouts of use through node 2 only. Real time must pass here: the server keeps the clock.
        long until = System.nanoTime() + 3 * TIMEOUT.toNanos();
        while (System.nanoTime() < until) {
            assertThat(servedBy(node2, id)).isEqualTo(server);
            Thread.sleep(TIMEOUT.toMillis() / 10);
        }
        Served atNode1 = request(node1, id);
        assertThat(atNode1.server()).as("node 1, idle for three timeouts").isEqualTo(server);
        assertThat(atNode1.route()).endsWith("reason=session table");

        // Idle everywhere for the timeout plus its quarter (and a margin): gone on both nodes.
        await().pollDelay(TIMEOUT.plus(TIMEOUT.dividedBy(4)).plusSeconds(1)).atMost(TIMEOUT.multipliedBy(3))
                .until(() -> true);
        assertThat(request(node2, id).route()).as("expired, so bound anew").contains("reason=session table bind");
    }

    /**
     * Two systems ({@code wdisp/system_<xx>}) on two nodes that share one clustered table: each system's bindings
     * are made through one node and honoured by the other, and the same JSESSIONID value names a server of each
     * system (the table keys them {@code PRT/<id>} and {@code ERP/<id>}).
     */
    @Test
    @Order(4)
    void eachSystemsBindingsAreSharedByTheNodesAndKeptApart() throws Exception {
        try (DemoBackend d = DemoBackend.start(DemoBackend.Options.j2ee("d"))) {
            String systems = """
                    wdisp/system_0 = SID=PRT, SRCURL=/irj/
                    wdisp/system_1 = SID=ERP, SRCURL=/erp/
                    system.PRT.server.a.url=%s
                    system.PRT.server.a.type=j2ee
                    system.PRT.server.b.url=%s
                    system.PRT.server.b.type=j2ee
                    system.ERP.server.c.url=%s
                    system.ERP.server.c.type=j2ee
                    system.ERP.server.d.url=%s
                    system.ERP.server.d.type=j2ee
                    SessionTableTimeout=10m
                    wdisp/HTTP/max_session_tab_entries=10000
                    SessionTable.cluster_uri=%s
                    jwd.debug_headers=true
                    """.formatted(a.url(), b.url(), c.url(), d.url(), terracotta.uri("jwd-systems"))
                    + AdminClient.CONFIG;
            CompletableFuture<JwdProcess> first = CompletableFuture.supplyAsync(() -> JwdProcess.start(systems));
            CompletableFuture<JwdProcess> second = CompletableFuture.supplyAsync(() -> JwdProcess.start(systems));
            try (JwdProcess one = first.get(); JwdProcess two = second.get()) {
                assertConnected(one);
                assertConnected(two);
                Map<String, String> portal = new LinkedHashMap<>();
                Map<String, String> erp = new LinkedHashMap<>();
                for (int i = 0; i < 20; i++) {
                    String id = freshId();
                    Served inPortal = request(one, "/irj/x", id);
                    Served inErp = request(two, "/erp/x", id);
                    assertThat(inPortal.route()).contains("system=PRT").contains("reason=session table bind");
                    assertThat(inErp.route()).contains("system=ERP").contains("reason=session table bind");
                    portal.put(id, inPortal.server());
                    erp.put(id, inErp.server());
                }
                assertThat(portal.values()).as("PRT's servers only, balanced").containsOnly("a", "b").contains("a", "b");
                assertThat(erp.values()).as("ERP's servers only, balanced").containsOnly("c", "d").contains("c", "d");
                for (String id : portal.keySet()) {
                    Served portalAtTwo = request(two, "/irj/x", id);
                    Served erpAtOne = request(one, "/erp/x", id);
                    assertThat(portalAtTwo.server()).as("node 2 follows node 1's PRT binding").isEqualTo(portal.get(id));
                    assertThat(portalAtTwo.route()).endsWith("reason=session table");
                    assertThat(erpAtOne.server()).as("node 1 follows node 2's ERP binding").isEqualTo(erp.get(id));
                    assertThat(erpAtOne.route()).endsWith("reason=session table");
                }
            }
        }
    }

    private static HttpResponse<String> ready(JwdProcess node) throws Exception {
        return http.send(HttpRequest.newBuilder(node.uri("/jwd/health/ready")).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * An operator's drain through one node reaches the other within a refresh of the shared decisions (every
     * second), and both keep it: the time it takes is measured over rounds of drain and enable, alternating nodes,
     * and written to {@code target/operator-propagation.txt}.
     */
    @Test
    @Order(4)
    void anOperatorsActionOnOneNodeReachesEveryNode() throws Exception {
        List<Long> millis = new ArrayList<>();
        try {
            for (int round = 0; round < 10; round++) {
                JwdProcess acting = round % 2 == 0 ? node1 : node2;
                JwdProcess other = acting == node1 ? node2 : node1;
                String action = round % 4 < 2 ? "drain" : "enable";
                String expected = action.equals("drain") ? "drained" : "enabled";
                long start = System.nanoTime();
                assertThat(new AdminClient(acting).act("b", action).statusCode()).isEqualTo(200);
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() ->
                        expected.equals(new AdminClient(other).server("b").get("admin_state")));
                millis.add((System.nanoTime() - start) / 1_000_000);
                @SuppressWarnings("unchecked")
                Map<String, Object> operator = (Map<String, Object>) new AdminClient(other).server("b")
                        .get("operator");
                assertThat(operator).containsEntry("by", AdminClient.USER + " from 127.0.0.1");
                assertThat((String) operator.get("kept")).startsWith("cluster " + terracotta.uri("jwd-it"));
            }
        } finally {
            new AdminClient(node1).act("b", "enable");
        }
        List<Long> sorted = millis.stream().sorted().toList();
        String report = "ClusterIT: an action through one node seen by the other after (ms, 10 rounds): " + millis
                + "; median " + sorted.get(sorted.size() / 2) + ", max " + sorted.get(sorted.size() - 1);
        System.out.println(report);
        Files.writeString(JwdProcess.target().resolve("operator-propagation.txt"), report + "\n");
        await().atMost(Duration.ofSeconds(10)).until(() -> "enabled".equals(new AdminClient(node2).server("b")
                .get("admin_state")));
    }

    /** A log level set through one node holds on the other within a second, and so does its reset. */
    @Test
    @Order(4)
    void aLogLevelSetThroughOneNodeReachesTheOther() {
        String logger = "org.jwd.sessiontable";
        try {
            assertThat(logLevel(node1, "{\"logger\":\"" + logger + "\",\"level\":\"DEBUG\",\"for\":\"5m\"}")
                    .statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> levels(node2).contains("\"logger\":\"" + logger
                    + "\",\"level\":\"DEBUG\",\"configured\":\"INFO\",\"by\":\"admin from 127.0.0.1\""));
            assertThat(levels(node2)).contains("\"kept\":\"shared through " + terracotta.uri("jwd-it"));

            assertThat(logLevel(node2, "{\"logger\":\"" + logger + "\",\"level\":\"reset\"}").statusCode())
                    .isEqualTo(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> levels(node1).contains("\"levels\":[]"));
        } finally {
            logLevel(node1, "{\"logger\":\"" + logger + "\",\"level\":\"reset\"}");
        }
    }

    private static String levels(JwdProcess node) {
        return new AdminClient(node).get("/jwd/admin/api/loglevels").body();
    }

    private static HttpResponse<String> logLevel(JwdProcess node, String json) {
        AdminClient admin = new AdminClient(node);
        return admin.send(admin.request("/jwd/admin/api/loglevels").header("X-Jwd-Admin", "1")
                .header("Origin", node.uri().toString()).POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    @Test
    @Order(5)
    void measuresWhatAClusteredOperationCosts() throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        // 200 operations of each kind show that each works and what it costs roughly; docs/performance.md's figures
        // are of 2,000 (-Djwd.it.costOperations=2000)
        Map<String, Map<String, Double>> micros = SessionTableCost.measure(terracotta.uri("jwd-cost").toString(),
                Integer.getInteger("jwd.it.costOperations", 200), new PrintStream(text, true, StandardCharsets.UTF_8));
        System.out.println(text.toString(StandardCharsets.UTF_8));
        assertThat(micros.get("clustered")).containsKeys("bind", "lookup again", "lookup miss", "lookup with refresh");
    }

    /**
     * The cause of the split seen once under CPU pressure: a Terracotta operation that timed out on a starved
     * machine turned a node {@code DISCONNECTED}, and it bound the next first requests on its own while the other
     * node bound them on the server. Here the server is frozen (SIGSTOP, as starved of CPU) three times while concurrent
     * first requests of fresh sessions arrive at both nodes, four each; it goes on once both nodes have lost it, the
     * third time after {@link #LONGEST_STALL} (longer than a binding made just before it lives by the clock). No
     * session may be served by two servers; a split is reported with its routes, which tell a failover (a
     * {@code rebind}, a server marked down by a health check) from a table that bound twice ({@code bind}).
     * {@code -Djwd.it.stallSessions=N} (default 400), {@code -Djwd.it.stallRounds=N} (default 1) and
     * {@code -Djwd.it.stalls=N} (default 3) make it the measurement under {@code stress-ng}; each round appends a
     * line to {@code target/cluster-first-requests.txt}.
     */
    @Test
    @Order(6)
    void concurrentFirstRequestsAgreeWhileTheTerracottaServerStalls() throws Exception {
        int sessions = Integer.getInteger("jwd.it.stallSessions", 400);
        int rounds = Integer.getInteger("jwd.it.stallRounds", 1);
        for (int round = 1; round <= rounds; round++) {
            stallRound(round, sessions);
        }
    }

    /**
     * A stall's longest freeze: a starved server's, well within the nodes' 10 s bind wait. A longer loss binds new
     * sessions on one node alone past the wait, by design (a CI run froze it 14 s waiting for a node to notice).
     */
    private static final Duration LONGEST_STALL = Duration.ofSeconds(6);
    /** Stalls of the Terracotta server in each round, spread over it ({@code -Djwd.it.stalls=0}: CPU pressure alone). */
    private static final int STALLS = Integer.getInteger("jwd.it.stalls", 3);

    private void stallRound(int round, int sessions) throws Exception {
        int perSession = 8;
        int atOnce = 8;
        ExecutorService threads = Executors.newFixedThreadPool(perSession * atOnce);
        Map<String, Set<String>> routes = new ConcurrentHashMap<>();
        AtomicInteger done = new AtomicInteger();
        AtomicLong slowest = new AtomicLong();
        long lost1 = logged(node1, "unreachable");
        long lost2 = logged(node2, "unreachable");
        long downBefore = healthDowns();
        CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
            for (int next = 0; next < sessions; next += atOnce) {
                List<Future<?>> wave = new ArrayList<>();
                for (int s = next; s < Math.min(sessions, next + atOnce); s++) {
                    String id = freshId();
                    CyclicBarrier barrier = new CyclicBarrier(perSession);
                    for (int t = 0; t < perSession; t++) {
                        JwdProcess node = t % 2 == 0 ? node1 : node2;
                        wave.add(threads.submit(() -> {
                            barrier.await();
                            long start = System.nanoTime();
                            Served served = request(node, id);
                            slowest.accumulateAndGet((System.nanoTime() - start) / 1_000_000, Math::max);
                            routes.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(served.status()
                                    + " " + served.server() + " via " + node.port() + ": " + served.route());
                            return null;
                        }));
                    }
                }
                for (Future<?> f : wave) {
                    try {
                        f.get();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
                done.addAndGet(atOnce);
            }
        });
        List<Long> stalls = new ArrayList<>();
        try {
            for (int stall = 1; stall <= STALLS; stall++) {
                int after = sessions * stall / (STALLS + 1);
                await().atMost(Duration.ofSeconds(120)).until(() -> done.get() >= after || load.isDone());
                // the last freeze lasts the longest stall whatever the nodes noticed: a CI run froze it that long
                stalls.add(stall(lost1 + stall, lost2 + stall, stall == STALLS));
            }
            load.get(300, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
        Map<String, Set<String>> split = new LinkedHashMap<>();
        routes.forEach((id, seen) -> {
            if (seen.stream().map(r -> r.split(" ")[1]).distinct().count() != 1
                    || seen.stream().anyMatch(r -> !r.startsWith("200 "))) {
                split.put(id, seen);
            }
        });
        String figures = String.format("round %d: %d sessions x %d concurrent first requests over two nodes, "
                + "Terracotta frozen %s ms: %d split or failed, slowest request %d ms, servers marked down %d, "
                + "load average %s", round, routes.size(), perSession, stalls, split.size(), slowest.get(),
                healthDowns() - downBefore, Files.readString(Path.of("/proc/loadavg")).strip());
        System.out.println("ClusterIT: " + figures);
        Files.writeString(JwdProcess.target().resolve("cluster-first-requests.txt"), figures + "\n",
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        assertThat(routes).as("sessions requested").hasSize(sessions);
        assertThat(split).as("sessions served by two servers or failing (status server via node: route); what the "
                + "nodes said of the cluster:\n" + clusterLines(node1) + clusterLines(node2)).isEmpty();
    }

    /**
     * Freezes the Terracotta server until both nodes have lost it (their {@code unreachable} warnings reach these
     * counts) or for {@link #LONGEST_STALL}, then lets it go on.
     *
     * @param longest frozen for {@link #LONGEST_STALL} whatever the nodes noticed: longer than the live time of a
     *                binding made just before the freeze (the test's timeout and a quarter), which the first
     *                requests held up by it must follow all the same
     * @return how long it was frozen, in milliseconds
     */
    private static long stall(long lost1, long lost2, boolean longest) {
        long pausedAt = System.nanoTime();
        terracotta.pause();
        try {
            await().atMost(LONGEST_STALL.plusSeconds(10)).until(() -> logged(node1, "unreachable") >= lost1
                    && logged(node2, "unreachable") >= lost2 && !longest
                    || System.nanoTime() - pausedAt >= LONGEST_STALL.toNanos());
        } finally {
            terracotta.resume();
        }
        return (System.nanoTime() - pausedAt) / 1_000_000;
    }

    /** How many times the nodes logged a server down (a health check, or requests that could not reach it). */
    private static long healthDowns() {
        return List.of(node1, node2).stream().flatMap(n -> n.log().stream())
                .filter(l -> l.contains("jwd: server ") && l.contains(" is down")).count();
    }

    @Test
    @Order(7)
    void aCrashedTerracottaServerFailsNoRequestAndTheNodesResumeWhenItReturns() throws Exception {
        AtomicInteger phase = new AtomicInteger(); // 0 before the crash, 1 without the server, 2 after
        AtomicBoolean stop = new AtomicBoolean();
        List<String> failures = new CopyOnWriteArrayList<>();
        Map<String, Set<String>> serversOf = new ConcurrentHashMap<>();
        Map<String, Integer> bornIn = new ConcurrentHashMap<>();
        Map<String, JwdProcess> nodeOf = new ConcurrentHashMap<>();
        AtomicLong requests = new AtomicLong();
        AtomicLong slowest = new AtomicLong();
        AtomicLong heldUp = new AtomicLong();
        // Each user keeps one session from before the crash, one from during it, one from after, and renews one
        // every 20 requests; each session is used by a thread of its own, so that a new session's first request,
        // held up by the lost server (up to 12 s), never leaves another session idle past its 5 s timeout.
        ExecutorService load = Executors.newFixedThreadPool(24);
        for (int t = 0; t < 6; t++) {
            JwdProcess node = t % 2 == 0 ? node1 : node2;
            for (int kept = 0; kept <= 3; kept++) {
                int bornPhase = kept;
                load.submit(() -> {
                    String id = null;
                    int n = 0;
                    while (!stop.get()) {
                        int now = phase.get();
                        if (bornPhase == 3 ? n++ % 20 == 0 : id == null && now == bornPhase) {
                            id = born(node, now, bornIn, nodeOf);
                        }
                        if (id != null) {
                            use(node, id, requests, failures, serversOf, slowest, heldUp);
                        }
                        try {
                            Thread.sleep(20);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
            }
        }
        long lost1 = logged(node1, "unreachable");
        long lost2 = logged(node2, "unreachable");
        long killedAt = 0;
        long withoutMillis = 0;
        long back1 = logged(node1, "connected again");
        long back2 = logged(node2, "connected again");
        try {
            awaitMoreRequests(requests, 200);
            killedAt = System.nanoTime();
            terracotta.kill();
            phase.set(1);
            await().atMost(Duration.ofSeconds(30)).until(() -> logged(node1, "unreachable") > lost1
                    && logged(node2, "unreachable") > lost2);
            for (JwdProcess node : List.of(node1, node2)) {
                assertThat(clusterStateInMetrics(node)).as("metrics of %s without the server", node)
                        .isEqualTo("disconnected");
                HttpResponse<String> ready = ready(node);
                assertThat(ready.statusCode()).as("/jwd/health/ready of %s without the server", node).isEqualTo(503);
                assertThat(ready.body()).startsWith("cluster mode: the session table's Terracotta server cannot be"
                        + " reached");
            }
            awaitMoreRequests(requests, 200);
            terracotta.restart();
            await().atMost(Duration.ofSeconds(90)).until(() -> logged(node1, "connected again") > back1
                    && logged(node2, "connected again") > back2);
            withoutMillis = (System.nanoTime() - killedAt) / 1_000_000;
            phase.set(2);
            for (JwdProcess node : List.of(node1, node2)) {
                assertThat(clusterStateInMetrics(node)).as("metrics of %s with the server back", node)
                        .isEqualTo("connected");
                assertThat(ready(node).statusCode()).as("/jwd/health/ready of %s", node).isEqualTo(200);
                @SuppressWarnings("unchecked")
                Map<String, Object> status = (Map<String, Object>) new AdminClient(node)
                        .object("/jwd/admin/api/sessiontable").get("cluster_status");
                assertThat(((Number) status.get("outages")).longValue()).as("outages seen by %s", node)
                        .isGreaterThanOrEqualTo(1);
                assertThat(((Number) status.get("served_locally")).longValue()).as("served locally by %s", node)
                        .isPositive();
            }
            awaitMoreRequests(requests, 200);
        } finally {
            stop.set(true);
            load.shutdown();
            load.awaitTermination(60, java.util.concurrent.TimeUnit.SECONDS);
        }
        String figures = String.format("%d requests through a Terracotta crash and restart (%d ms without it): %d "
                + "failed, %d took 1 s or more, slowest %d ms; load average %s", requests.get(), withoutMillis,
                failures.size(), heldUp.get(), slowest.get(), Files.readString(Path.of("/proc/loadavg")).strip());
        System.out.println("ClusterIT: " + figures);
        Files.writeString(JwdProcess.target().resolve("cluster-terracotta-restart.txt"), figures + "\n",
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);

        assertThat(failures).as("failed requests").isEmpty();
        Map<String, Set<String>> moved = new LinkedHashMap<>();
        serversOf.forEach((id, servers) -> {
            if (servers.size() != 1) {
                moved.put(id + " (born in phase " + bornIn.get(id) + ")", servers);
            }
        });
        assertThat(moved).as("sessions served by more than one server").isEmpty();
        List<String> duringTheCrash = bornIn.entrySet().stream().filter(e -> e.getValue() == 1)
                .map(Map.Entry::getKey).filter(serversOf::containsKey).toList();
        assertThat(duringTheCrash).as("sessions bound while the server was down").isNotEmpty();
        List<String> beforeTheCrash = bornIn.entrySet().stream().filter(e -> e.getValue() == 0)
                .map(Map.Entry::getKey).filter(serversOf::containsKey).toList();

        // The kept sessions bound before the crash, and those bound while the server was down, were carried over
        // to the restarted (empty) server: the other node honours them now. Twelve are kept in use (6 users x 2);
        // at least half must be found: on a starved machine a kept session may idle past its 5 s and expire, by
        // design, and the renewed ones, no longer used, expire anyway. A binding not carried over finds none.
        int checked = 0;
        List<String> routes = new ArrayList<>();
        for (String id : java.util.stream.Stream.concat(beforeTheCrash.stream(), duringTheCrash.stream()).toList()) {
            JwdProcess other = nodeOf.get(id) == node1 ? node2 : node1;
            Served served = request(other, id);
            routes.add(id + " " + serversOf.get(id) + " -> " + served);
            if (served.route().endsWith("reason=session table")) {
                assertThat(served.server()).as(id).isEqualTo(serversOf.get(id).iterator().next());
                checked++;
            }
        }
        assertThat(checked).as("kept sessions from before and during the outage found through the other node; %s; "
                + "node logs:%n%s", routes, clusterLines()).isGreaterThanOrEqualTo(6);
    }

    /** Lets the load run on until it has sent {@code more} requests (in each phase, sessions are born and used). */
    private static void awaitMoreRequests(AtomicLong requests, long more) {
        long target = requests.get() + more;
        await().atMost(Duration.ofSeconds(60)).until(() -> requests.get() >= target);
    }

    /** One request of the crash test's load, its outcome and time recorded. */
    private static void use(JwdProcess node, String id, AtomicLong requests, List<String> failures,
            Map<String, Set<String>> serversOf, AtomicLong slowest, AtomicLong heldUp) {
        long start = System.nanoTime();
        try {
            Served served = request(node, id);
            requests.incrementAndGet();
            if (served.status() != 200) {
                failures.add(id + " via " + node + ": " + served.status());
            } else {
                serversOf.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(served.server());
            }
        } catch (Exception e) {
            failures.add(id + " via " + node + ": " + e);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        slowest.accumulateAndGet(millis, Math::max);
        if (millis >= 1000) {
            heldUp.incrementAndGet();
        }
    }

    private static String born(JwdProcess node, int phase, Map<String, Integer> bornIn, Map<String, JwdProcess> nodeOf) {
        String id = freshId();
        bornIn.put(id, phase);
        nodeOf.put(id, node);
        return id;
    }

    private static String clusterLines() {
        List<String> lines = new ArrayList<>();
        for (JwdProcess node : List.of(node1, node2)) {
            node.log().stream().filter(l -> l.contains("Session table cluster") || l.contains("ehcache.clustered"))
                    .forEach(l -> lines.add(node.port() + ": " + l));
        }
        return String.join("\n", lines);
    }

    /** How many of the node's cluster messages say {@code text}. */
    /** What a node logged of its Terracotta server, one line each, to tell how long it went without it. */
    private static String clusterLines(JwdProcess node) {
        return node.log().stream().filter(line -> line.contains("Session table cluster"))
                .map(line -> "node " + node.port() + ": " + line + "\n").collect(java.util.stream.Collectors.joining());
    }

    private static long logged(JwdProcess node, String text) {
        return node.log().stream().filter(line -> line.contains("Session table cluster") && line.contains(text))
                .count();
    }
}
