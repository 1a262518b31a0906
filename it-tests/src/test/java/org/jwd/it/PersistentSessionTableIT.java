package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single jwd with {@code SessionTable.disk_path}, stopped with SIGTERM and started again on the same directory
 * through the real distribution: 1,000 sessions (temporary bindings of JSESSIONIDs, JSESSIONIDs learned from the
 * servers' Set-Cookie, ESIDs), bound over three Java and three ABAP server processes that set no route suffix the
 * requests carry and whose {@code saplb_*} cookies the client never sends back: only the table keeps them.
 */
class PersistentSessionTableIT {
    private static final int TEMPORARY = 400;
    private static final int LEARNED = 300;
    private static final int ESIDS = 300;

    private static final List<DemoBackend> backends = new ArrayList<>();
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    @BeforeAll
    static void startServers() {
        for (String id : List.of("a", "b", "c")) {
            backends.add(DemoBackend.start(DemoBackend.Options.j2ee(id)));
        }
        for (String id : List.of("x", "y", "z")) {
            backends.add(DemoBackend.start(DemoBackend.Options.abap(id).withName("h" + id + "_JWD_00")));
        }
    }

    @AfterAll
    static void stopServers() {
        backends.forEach(DemoBackend::close);
    }

    private Path config(String timeout, String... without) throws IOException {
        StringBuilder text = new StringBuilder();
        for (DemoBackend backend : backends) {
            String id = backend.id();
            if (List.of(without).contains(id)) {
                continue;
            }
            boolean abap = List.of("x", "y", "z").contains(id);
            text.append("server.").append(id).append(".url=").append(backend.url()).append('\n')
                    .append("server.").append(id).append(".type=").append(abap ? "abap" : "j2ee").append('\n');
            if (abap) {
                text.append("server.").append(id).append(".name=h").append(id).append("_JWD_00\n");
            }
        }
        text.append("""
                icf.url_prefixes=/sap/
                SessionTableTimeout=%s
                wdisp/HTTP/context_timeout=%s
                SessionTable.disk_path=table
                jwd.debug_headers=true
                """.formatted(timeout, timeout));
        Path file = dir.resolve("jwd.properties");
        Files.writeString(file, text);
        return file;
    }

    /** Binds every kind of session; the value is the server each is bound to, the key the cookie that names it. */
    private static Map<String, Bound> bindSessions(JwdProcess jwd) throws Exception {
        Map<String, Bound> sessions = new LinkedHashMap<>();
        for (int i = 0; i < TEMPORARY; i++) {
            String cookie = "JSESSIONID=" + UUID.randomUUID().toString().replace("-", "");
            sessions.put(cookie, new Bound("/irj/x", send(jwd, "/irj/x", cookie).server()));
        }
        for (int i = 0; i < LEARNED; i++) {
            Answer first = send(jwd, "/irj/x", null);
            String jsessionid = first.response().headers().allValues("Set-Cookie").stream()
                    .filter(h -> h.startsWith("JSESSIONID=")).findFirst().orElseThrow()
                    .substring("JSESSIONID=".length()).split(";")[0];
            sessions.put("JSESSIONID=" + jsessionid, new Bound("/irj/x", first.server()));
        }
        for (int i = 0; i < ESIDS; i++) {
            String cookie = "sap-ext-sid=EXT" + UUID.randomUUID();
            sessions.put(cookie, new Bound("/sap/bc/x", send(jwd, "/sap/bc/x", cookie).server()));
        }
        return sessions;
    }

    private record Bound(String path, String server) {
    }

    private record Answer(HttpResponse<Void> response, String server, String route) {
    }

    private static Answer send(JwdProcess jwd, String path, String cookie) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(jwd.uri(path));
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        HttpResponse<Void> response = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
        assertThat(response.statusCode()).isEqualTo(200);
        return new Answer(response, response.headers().firstValue("X-Served-By").orElseThrow(),
                response.headers().firstValue("X-Jwd-Route").orElse(""));
    }

    private static List<String> mismatches(JwdProcess jwd, Map<String, Bound> sessions) throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Bound> session : sessions.entrySet()) {
            Answer next = send(jwd, session.getValue().path(), session.getKey());
            if (!next.server().equals(session.getValue().server()) || !next.route().contains("reason=session table")) {
                wrong.add(session.getKey() + ": bound to " + session.getValue().server() + ", now " + next.server()
                        + " (" + next.route() + ")");
            }
        }
        return wrong;
    }

    /**
     * SIGTERM, as an operator stops it: 128 + SIGTERM once Jetty stopped the webapp, which wrote the table into a
     * generation that Ehcache closed cleanly.
     */
    private void stop(JwdProcess jwd) throws Exception {
        assertThat(jwd.terminate(Duration.ofSeconds(120))).isZero();
        try (Stream<Path> generations = Files.list(dir.resolve("table"))) {
            assertThat(generations.filter(gen -> gen.getFileName().toString().startsWith("gen-")))
                    .singleElement().satisfies(gen -> assertThat(gen.resolve(".clean")).exists());
        }
    }

    @Test
    void afterSigtermAndAStartEverySessionsNextRequestGoesToItsServer() throws Exception {
        Path config = config("1h");
        Map<String, Bound> sessions;
        try (JwdProcess before = JwdProcess.startWith(config, Map.of())) {
            sessions = bindSessions(before);
            stop(before);
        }
        assertThat(sessions).hasSize(TEMPORARY + LEARNED + ESIDS);
        assertThat(sessions.values().stream().map(Bound::server).distinct())
                .containsExactlyInAnyOrder("a", "b", "c", "x", "y", "z");

        try (JwdProcess after = JwdProcess.startWith(config, Map.of())) {
            assertThat(mismatches(after, sessions)).as("sessions not on their server after the restart").isEmpty();
            assertThat(after.log()).anyMatch(line -> line.matches(".*Session table on disk .*: ([0-9]{4,}) bindings "
                    + "restored, 0 dropped.*"));
        }
    }

    @Test
    void bindingsIdleLongerThanTheirTimeoutWhileJwdWasDownAreGone() throws Exception {
        Path config = config("3s");
        try (JwdProcess before = JwdProcess.startWith(config, Map.of())) {
            for (int i = 0; i < 20; i++) {
                send(before, "/irj/x", "JSESSIONID=" + UUID.randomUUID().toString().replace("-", ""));
                send(before, "/sap/bc/x", "sap-ext-sid=EXT" + UUID.randomUUID());
            }
            stop(before);
        }
        long stoppedAt = System.nanoTime();
        // the downtime must pass the 3 s timeout; a restart of the distribution alone takes longer here, but
        // the test must not depend on the machine's speed
        await().pollDelay(Duration.ofSeconds(3)).until(
                () -> System.nanoTime() - stoppedAt >= Duration.ofSeconds(3).toNanos());

        try (JwdProcess after = JwdProcess.startWith(config, Map.of())) {
            assertThat(after.log()).anyMatch(line -> line.matches(
                    ".*Session table on disk .*: 0 bindings restored, [0-9]+ dropped.*"));
            assertThat(after.log()).noneMatch(line -> line.matches(".*: [1-9][0-9]* bindings restored.*"));
        }
    }

    @Test
    void aServerRemovedFromTheConfigurationWhileJwdWasDownGetsNoneOfTheRestoredSessions() throws Exception {
        Map<String, Bound> sessions;
        try (JwdProcess before = JwdProcess.startWith(config("1h"), Map.of())) {
            sessions = bindSessions(before);
            stop(before);
        }
        Map<String, Bound> ofC = new LinkedHashMap<>();
        Map<String, Bound> others = new LinkedHashMap<>();
        sessions.forEach((cookie, bound) -> (bound.server().equals("c") ? ofC : others).put(cookie, bound));
        assertThat(ofC).isNotEmpty();

        try (JwdProcess after = JwdProcess.startWith(config("1h", "c"), Map.of())) {
            assertThat(mismatches(after, others)).as("sessions of the servers that stay").isEmpty();
            for (Map.Entry<String, Bound> session : ofC.entrySet()) {
                // c still runs, but is no longer configured: its sessions are balanced anew, never sent there
                assertThat(send(after, session.getValue().path(), session.getKey()).server()).isIn("a", "b");
            }
            assertThat(after.log()).anyMatch(line -> line.matches(
                    ".*Session table on disk .*: [0-9]+ bindings restored, " + "[1-9][0-9]* dropped.*"));
        }
    }
}
