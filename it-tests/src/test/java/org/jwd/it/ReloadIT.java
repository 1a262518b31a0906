package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.htmlunit.WebClient;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlPage;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hot reload through the real dispatcher, under continuous load from client threads that hold sessions (a
 * JSESSIONID each, bound through the session table) and send stateless requests in between: a server added, a
 * capacity changed and a server removed, by the file watch and by {@code POST api/reload}; and an invalid change
 * rejected. No request may fail, and every session stays on its server unless that server was removed — then it
 * moves once and stays.
 */
@Timeout(300)
class ReloadIT {
    private static final int THREADS = 4;
    private static final int SESSIONS_PER_THREAD = 3;
    private static final Map<String, DemoBackend> backends = new LinkedHashMap<>();

    private JwdProcess jwd;
    private AdminClient admin;
    private Path config;
    private Load load;

    @BeforeAll
    static void startServers() {
        for (String id : List.of("a", "b", "c", "d")) {
            backends.put(id, DemoBackend.start(DemoBackend.Options.j2ee(id)));
        }
    }

    @AfterAll
    static void stopServers() {
        backends.values().forEach(DemoBackend::close);
    }

    @AfterEach
    void stop() {
        if (load != null) {
            load.close();
        }
        if (jwd != null) {
            jwd.close();
        }
    }

    /** The configuration with these servers (id -> capacity) and extra lines. */
    private static String properties(Map<String, Integer> servers, String extra) {
        StringBuilder text = new StringBuilder();
        new java.util.TreeMap<>(servers).forEach((id, capacity) -> text.append("server.").append(id).append(".url=")
                .append(backends.get(id).url()).append("\nserver.").append(id).append(".type=j2ee\nserver.")
                .append(id).append(".capacity=").append(capacity).append('\n'));
        return text + "SessionTableTimeout=60s\njwd.debug_headers=true\n" + extra + AdminClient.CONFIG;
    }

    private void start(String extra) throws IOException {
        config = Files.createTempFile("jwd-reload-it", ".properties");
        config.toFile().deleteOnExit();
        Files.writeString(config, properties(Map.of("a", 1, "b", 1, "c", 1), extra));
        jwd = JwdProcess.startWith(config, Map.of());
        admin = new AdminClient(jwd);
        load = new Load(jwd);
        // every session bound and served a few times before anything changes
        await().atMost(Duration.ofSeconds(60)).until(() -> load.sessions().stream()
                .allMatch(s -> load.served(s).size() >= 3));
    }

    /** As an editor that writes a new file and renames it over the old one. */
    private void replace(String text) throws IOException {
        Path written = config.resolveSibling(config.getFileName() + ".new");
        Files.writeString(written, text);
        Files.move(written, config, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private HttpResponse<String> postReload() {
        return admin.send(admin.request("/jwd/admin/api/reload").header("X-Jwd-Admin", "1")
                .header("Origin", jwd.uri().toString()).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> reloadStatus() {
        return (Map<String, Object>) admin.object("/jwd/admin/api/config").get("reload");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String body) {
        return (Map<String, Object>) ClientJson.parse(body);
    }

    private List<String> serverIds() {
        return admin.list("/jwd/admin/api/servers").stream().map(s -> (String) s.get("id")).toList();
    }

    private Object capacity(String id) {
        return admin.server(id).get("capacity");
    }

    private String metrics() {
        return admin.get("/jwd/admin/metrics").body();
    }

    /** The sessions bound to {@code id} now (by their last answer). */
    private List<String> sessionsOn(String id) {
        return load.sessions().stream().filter(s -> id.equals(last(load.served(s)))).toList();
    }

    private static String last(List<String> list) {
        return list.isEmpty() ? null : list.get(list.size() - 1);
    }

    /** Waits until every session has been served {@code more} times after now. */
    private void everySessionServedAgain(int more) {
        Map<String, Integer> now = new LinkedHashMap<>();
        load.sessions().forEach(s -> now.put(s, load.served(s).size()));
        await().atMost(Duration.ofSeconds(60)).until(() -> now.entrySet().stream()
                .allMatch(e -> load.served(e.getKey()).size() >= e.getValue() + more));
    }

    /**
     * After the load stopped: nothing failed, and each session stayed on one server, except those on
     * {@code removed}, which moved exactly once, to another server.
     */
    private void assertNothingLost(String removed, List<String> onRemoved) {
        load.close();
        assertThat(load.failures()).isEmpty();
        assertThat(load.ok()).isGreaterThan(THREADS * SESSIONS_PER_THREAD * 10L);
        System.out.printf("ReloadIT: %d answers, all 200; sessions moved from %s: %s%n", load.ok(), removed, onRemoved);
        for (String session : load.sessions()) {
            List<String> runs = runs(load.served(session));
            if (onRemoved.contains(session)) {
                assertThat(runs).as("session %s, on the removed server %s", session, removed).hasSize(2);
                assertThat(runs.get(0)).isEqualTo(removed);
                assertThat(runs.get(1)).isNotEqualTo(removed);
            } else {
                assertThat(runs).as("session %s", session).hasSize(1);
            }
        }
    }

    /** The servers in order of service, repeats collapsed: [a, a, b, b] -> [a, b]. */
    private static List<String> runs(List<String> served) {
        List<String> runs = new ArrayList<>();
        for (String s : served) {
            if (runs.isEmpty() || !last(runs).equals(s)) {
                runs.add(s);
            }
        }
        return runs;
    }

    @Test
    void theFileWatchAddsAServerChangesACapacityAndRemovesAServerUnderLoad() throws Exception {
        start("jwd.config_watch=200ms\n");
        assertThat(reloadStatus()).containsEntry("watch", "200ms").containsEntry("outcome", null);

        Files.writeString(config, properties(Map.of("a", 1, "b", 1, "c", 1, "d", 1), "jwd.config_watch=200ms\n"));
        await().atMost(Duration.ofSeconds(30)).until(() -> load.stateless("d") > 0);
        assertThat(serverIds()).containsExactly("a", "b", "c", "d");
        assertThat(reloadStatus()).containsEntry("outcome", "applied").containsEntry("trigger", "file change");

        replace(properties(Map.of("a", 3, "b", 1, "c", 1, "d", 1), "jwd.config_watch=200ms\n"));
        await().atMost(Duration.ofSeconds(30)).until(() -> Long.valueOf(3).equals(capacity("a")));
        everySessionServedAgain(2);

        List<String> onC = sessionsOn("c");
        assertThat(onC).as("sessions bound to c before it is removed").isNotEmpty();
        Files.writeString(config, properties(Map.of("a", 3, "b", 1, "d", 1), "jwd.config_watch=200ms\n"));
        await().atMost(Duration.ofSeconds(30)).until(() -> !serverIds().contains("c"));
        everySessionServedAgain(3);

        assertNothingLost("c", onC);
        assertThat(metrics()).contains("jwd_config_reloads_total{outcome=\"applied\"} 3.0")
                .contains("jwd_config_reloads_total{outcome=\"rejected\"} 0.0");
    }

    @Test
    void postApiReloadAppliesTheSameChangesUnderLoad() throws Exception {
        start("jwd.config_watch=0\n");
        assertThat(reloadStatus()).containsEntry("watch", "off");

        Files.writeString(config, properties(Map.of("a", 1, "b", 1, "c", 1, "d", 1), "jwd.config_watch=0\n"));
        HttpResponse<String> added = postReload();
        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        assertThat(json(added.body())).containsEntry("outcome", "applied")
                .containsEntry("trigger", "api").containsEntry("errors", List.of());
        assertThat(serverIds()).containsExactly("a", "b", "c", "d");
        await().atMost(Duration.ofSeconds(30)).until(() -> load.stateless("d") > 0);

        // the same file again: nothing to swap
        HttpResponse<String> same = postReload();
        assertThat(json(same.body())).containsEntry("outcome", "unchanged");

        replace(properties(Map.of("a", 3, "b", 1, "c", 1, "d", 1), "jwd.config_watch=0\n"));
        assertThat(json(postReload().body())).containsEntry("outcome", "applied");
        assertThat(capacity("a")).isEqualTo(3L);
        everySessionServedAgain(2);

        List<String> onC = sessionsOn("c");
        assertThat(onC).as("sessions bound to c before it is removed").isNotEmpty();
        Files.writeString(config, properties(Map.of("a", 3, "b", 1, "d", 1), "jwd.config_watch=0\n"));
        assertThat(json(postReload().body())).containsEntry("outcome", "applied");
        assertThat(serverIds()).containsExactly("a", "b", "d");
        everySessionServedAgain(3);

        assertNothingLost("c", onC);
        assertThat(metrics()).contains("jwd_config_reloads_total{outcome=\"applied\"} 3.0");
        // an action: without the cross-site proofs it is refused, and GET is not allowed
        assertThat(admin.send(admin.request("/jwd/admin/api/reload").POST(HttpRequest.BodyPublishers.noBody())
                .build()).statusCode()).isEqualTo(403);
        assertThat(admin.get("/jwd/admin/api/reload").statusCode()).isEqualTo(405);
    }

    @Test
    void anInvalidChangeIsRejectedAndTrafficGoesOnUnchanged() throws Exception {
        start("jwd.config_watch=200ms\n");
        String bad = properties(Map.of("a", 1, "b", 1, "c", 1, "d", 1), "jwd.config_watch=200ms\n")
                .replace("server.b.capacity=1", "server.b.capacity=zero") + "jwd.no_such_key=1\n";
        Files.writeString(config, bad);

        await().atMost(Duration.ofSeconds(30)).until(() -> "rejected".equals(reloadStatus().get("outcome")));
        @SuppressWarnings("unchecked")
        List<String> errors = (List<String>) reloadStatus().get("errors");
        assertThat(errors).hasSize(2);
        assertThat(errors).anySatisfy(e -> assertThat(e).startsWith(config + ":6: server.b.capacity = 'zero'"));
        assertThat(errors).anySatisfy(e -> assertThat(e).startsWith(config + ":18: jwd.no_such_key = '1'"));
        assertThat(serverIds()).containsExactly("a", "b", "c");
        everySessionServedAgain(3);
        assertThat(load.stateless("d")).isZero();

        HttpResponse<String> asked = postReload();
        assertThat(asked.statusCode()).isEqualTo(422);
        assertThat(json(asked.body())).containsEntry("outcome", "rejected")
                .containsEntry("errors", errors);

        try (WebClient web = AdminClient.browser()) {
            HtmlPage page = web.getPage(jwd.uri("/jwd/admin/").toURL());
            await().atMost(Duration.ofSeconds(15)).until(() -> "rejected".equals(text(page,
                    "#reload td[data-field=outcome]")));
            assertThat(text(page, "#reload td[data-field=file]")).isEqualTo(config.toString());
            assertThat(text(page, "#reload-errors")).contains(config + ":6: server.b.capacity = 'zero'")
                    .contains(config + ":18: jwd.no_such_key = '1'");
        }

        assertNothingLost(null, List.of());
        assertThat(metrics()).contains("jwd_config_reloads_total{outcome=\"rejected\"} 2.0")
                .contains("jwd_config_reloads_total{outcome=\"applied\"} 0.0");
    }

    private static String text(HtmlPage page, String selector) {
        DomNode node = page.querySelector(selector);
        return node == null ? null : node.getTextContent().strip();
    }

    /**
     * Client threads, each with its own sessions (a JSESSIONID the session table binds at the first request),
     * sending in turn a request of each session and a stateless one, until closed. Every answer is counted.
     */
    static final class Load implements AutoCloseable {
        private final JwdProcess jwd;
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).executor(Executors.newFixedThreadPool(THREADS)).build();
        private final Map<String, List<String>> served = new ConcurrentHashMap<>();
        private final Map<String, LongAdder> stateless = new ConcurrentHashMap<>();
        private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        private final AtomicLong ok = new AtomicLong();
        private final List<String> sessions = new ArrayList<>();
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean running = true;

        Load(JwdProcess jwd) {
            this.jwd = jwd;
            for (int t = 0; t < THREADS; t++) {
                List<String> mine = new ArrayList<>();
                for (int s = 0; s < SESSIONS_PER_THREAD; s++) {
                    String id = "reload" + t + "x" + s + "x" + System.nanoTime();
                    mine.add(id);
                    sessions.add(id);
                    served.put(id, Collections.synchronizedList(new ArrayList<>()));
                }
                Thread thread = new Thread(() -> run(mine), "reload-load-" + t);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
        }

        private void run(List<String> mine) {
            while (running) {
                for (String session : mine) {
                    String server = send("JSESSIONID=" + session);
                    if (server != null) {
                        served.get(session).add(server);
                    }
                    server = send(null);
                    if (server != null) {
                        stateless.computeIfAbsent(server, k -> new LongAdder()).increment();
                    }
                }
            }
        }

        /** The server that answered, or {@code null} when the request failed (noted in {@link #failures}). */
        private String send(String cookie) {
            HttpRequest.Builder request = HttpRequest.newBuilder(jwd.uri("/irj/echo")).timeout(Duration.ofSeconds(30));
            if (cookie != null) {
                request.header("Cookie", cookie);
            }
            try {
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    failures.add(cookie + ": " + response.statusCode() + " " + response.body());
                    return null;
                }
                ok.incrementAndGet();
                return response.headers().firstValue("X-Served-By").orElse("?");
            } catch (IOException e) {
                failures.add(cookie + ": " + e);
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }

        List<String> sessions() {
            return sessions;
        }

        /** The servers that answered this session's requests, in order. */
        List<String> served(String session) {
            synchronized (served.get(session)) {
                return List.copyOf(served.get(session));
            }
        }

        long stateless(String server) {
            LongAdder n = stateless.get(server);
            return n == null ? 0 : n.sum();
        }

        long ok() {
            return ok.get();
        }

        List<String> failures() {
            synchronized (failures) {
                return List.copyOf(failures);
            }
        }

        @Override
        public void close() {
            running = false;
            for (Thread t : threads) {
                try {
                    t.join(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
