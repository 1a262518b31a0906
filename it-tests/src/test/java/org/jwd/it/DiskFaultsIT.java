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
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.htmlunit.WebClient;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlPage;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local disk failing under a dispatcher that serves through it ({@link DiskFaults}: a directory made read-only,
 * a size-limited file system filled up): the access log and the persistent session table lose what they must,
 * count it, warn once, and go on by themselves when the disk is writable again; no request fails for it.
 */
@Timeout(300)
class DiskFaultsIT {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    @Test
    void anAccessLogDirectoryMadeReadOnlyLosesOnlyCountedLinesAndIsWrittenAgainOnceWritable() throws Exception {
        Path logDir = Files.createDirectory(dir.resolve("logs"));
        Path file = logDir.resolve("access");
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start(accessLogged(a, file))) {
            AdminClient admin = new AdminClient(jwd);
            AtomicInteger sent = new AtomicInteger();
            sendServed(jwd, sent, 5);
            await().until(() -> completeLines(file) == 5);

            DiskFaults.readOnly(logDir);
            try {
                sendServed(jwd, sent, 20);
                await().until(() -> metric(admin, "jwd_access_log_dropped_lines_total") == 20);
                @SuppressWarnings("unchecked")
                Map<String, Object> status = (Map<String, Object>) admin.object("/jwd/admin/api/status")
                        .get("access_log");
                assertThat(status.get("failure")).asString().contains("Operation not permitted");
                assertThat(status.get("dropped_lines")).isEqualTo(20L);
                assertThat(pageRow(jwd, "#accesslog td[data-field='dropped lines']")).isEqualTo("20");
                assertThat(pageRow(jwd, "#accesslog td[data-field='writing']")).startsWith("no: ")
                        .contains("Operation not permitted");
            } finally {
                DiskFaults.writable(logDir);
            }
            // the file is opened again at most once a second, when a line comes: lines come until one is written
            await().until(() -> {
                sendServed(jwd, sent, 1);
                return completeLines(file) > 5;
            });
            await().untilAsserted(() -> assertThat(completeLines(file)
                    + metric(admin, "jwd_access_log_dropped_lines_total")).as("written or counted, every one")
                    .isEqualTo(sent.get()));
            assertThat(warnings(jwd, "access log")).as("one warning for the whole failure").hasSize(1);
            assertThat(jwd.log()).anyMatch(line -> line.contains("the access log " + file + " is written again"));
        }
    }

    @Test
    void aFullFileSystemUnderTheAccessLogLosesOnlyCountedLinesAndTheLogGoesOnOnceThereIsRoom() throws Exception {
        Path mount = Files.createDirectory(dir.resolve("disk"));
        try (DiskFaults.SmallDisk disk = DiskFaults.smallDisk(mount, "1m");
             DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start(accessLogged(a, mount.resolve("access")))) {
            Path file = mount.resolve("access");
            AdminClient admin = new AdminClient(jwd);
            AtomicInteger sent = new AtomicInteger();
            sendServed(jwd, sent, 5);
            await().until(() -> completeLines(file) == 5);

            disk.fill();
            // the file's last page may still take a few lines: requests come until lines are dropped
            await().until(() -> {
                sendServed(jwd, sent, 10);
                return metric(admin, "jwd_access_log_dropped_lines_total") > 0;
            });
            assertThat(admin.object("/jwd/admin/api/status").get("access_log")).asString()
                    .contains("No space left on device");

            disk.makeRoom();
            long before = completeLines(file);
            await().until(() -> {
                sendServed(jwd, sent, 1);
                return completeLines(file) > before;
            });
            await().untilAsserted(() -> assertThat(completeLines(file)
                    + metric(admin, "jwd_access_log_dropped_lines_total")).as("written or counted, every one")
                    .isEqualTo(sent.get()));
            // a line cut off by the full disk is ended before the next: every whole line is one JSON object
            Files.readAllLines(file).stream().filter(line -> line.startsWith("{") && line.endsWith("}"))
                    .forEach(ClientJson::parse);
            assertThat(warnings(jwd, "access log")).hasSize(1);
        }
    }

    @Test
    void aPersistentTableWhoseDirectoryIsMadeReadOnlyKeepsItsLastGoodWriteAndCatchesUpOnceWritable()
            throws Exception {
        Path table = dir.resolve("table");
        Path config = dir.resolve("jwd.properties");
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"))) {
            Files.writeString(config, persistent(table, a, b));
            String one;
            String two;
            try (JwdProcess jwd = JwdProcess.startWith(config, Map.of())) {
                AdminClient admin = new AdminClient(jwd);
                one = bind(jwd, "one");
                await().until(() -> metric(admin, "jwd_session_table_flushed_timestamp_seconds") > 0);
                List<String> good = generations(table);

                DiskFaults.readOnly(table);
                try {
                    two = bind(jwd, "two");
                    await().until(() -> metric(admin, "jwd_session_table_flush_failures_total") >= 2);
                    assertThat(generations(table)).as("the last good write, untouched").isEqualTo(good);
                    assertThat(persistence(admin).get("flush_failure")).asString()
                            .contains("Operation not permitted");
                    assertThat(pageRow(jwd, "#sessiontable td[data-field='writing fails']"))
                            .contains("Operation not permitted", "the last good write is kept");
                } finally {
                    DiskFaults.writable(table);
                }
                await().until(() -> persistence(admin).get("flush_failure") == null);
                assertThat(warnings(jwd, "Session table on disk")).as("one warning within the minute").hasSize(1);
                assertThat(jwd.log()).anyMatch(line -> line.contains("written again after"));
                assertThat(jwd.terminate(Duration.ofSeconds(120))).isZero();
            }
            try (JwdProcess restarted = JwdProcess.startWith(config, Map.of())) {
                assertThat(boundTo(restarted, "one")).isEqualTo(one);
                assertThat(boundTo(restarted, "two")).as("written once the disk was writable").isEqualTo(two);
            }
        }
    }

    @Test
    void aPersistentTableOnAFullDiskKeepsItsLastGoodWriteAcrossACrash() throws Exception {
        Path mount = Files.createDirectory(dir.resolve("disk"));
        Path table = mount.resolve("table");
        Path config = dir.resolve("jwd.properties");
        try (DiskFaults.SmallDisk disk = DiskFaults.smallDisk(mount, "8m");
             DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"))) {
            Files.writeString(config, persistent(table, a, b));
            String one;
            try (JwdProcess jwd = JwdProcess.startWith(config, Map.of())) {
                AdminClient admin = new AdminClient(jwd);
                one = bind(jwd, "one");
                await().until(() -> metric(admin, "jwd_session_table_flushed_timestamp_seconds") > 0);
                List<String> good = generations(table);

                disk.fill();
                bind(jwd, "two");
                await().until(() -> metric(admin, "jwd_session_table_flush_failures_total") >= 1);
                assertThat(generations(table)).as("the last good write, untouched").isEqualTo(good);
                assertThat(persistence(admin).get("flush_failure")).asString().contains("free");
                // the process dies while the disk is full: no last write
                ProcessHandle jetty = ProcessHandle.of(jwd.jettyPid()).orElseThrow();
                jetty.destroyForcibly();
                jetty.onExit().get();
            }
            disk.makeRoom();
            try (JwdProcess restarted = JwdProcess.startWith(config, Map.of())) {
                assertThat(boundTo(restarted, "one")).as("the last good write survived").isEqualTo(one);
                assertThat(route(restarted, "two")).as("bound after the last good write: balanced anew")
                        .doesNotEndWith("reason=session table");
            }
        }
    }

    private static String accessLogged(DemoBackend a, Path file) {
        return """
                server.a.url=%s
                server.a.type=j2ee
                icm/HTTP/logging_0=PREFIX=/irj/, LOGFILE=%s, LOGFORMAT=JSON
                """.formatted(a.url(), file) + AdminClient.CONFIG;
    }

    private static String persistent(Path table, DemoBackend a, DemoBackend b) {
        return """
                server.a.url=%s
                server.a.type=j2ee
                server.b.url=%s
                server.b.type=j2ee
                SessionTableTimeout=10m
                SessionTable.disk_path=%s
                SessionTable.disk_flush_interval=1s
                jwd.debug_headers=true
                """.formatted(a.url(), b.url(), table) + AdminClient.CONFIG;
    }

    /** Sends {@code count} requests, each served: no request fails for the disk. */
    private void sendServed(JwdProcess jwd, AtomicInteger sent, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            HttpResponse<Void> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertThat(response.statusCode()).isEqualTo(200);
            sent.incrementAndGet();
        }
    }

    /** Lines of the JSON format that are whole: a line cut off by a full disk is not. */
    private static long completeLines(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return 0;
        }
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(line -> line.startsWith("{") && line.endsWith("}")).count();
        }
    }

    private static double metric(AdminClient admin, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(admin.get("/jwd/admin/metrics").body());
        if (!m.find()) {
            throw new AssertionError("no metric " + name);
        }
        return Double.parseDouble(m.group(1));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> persistence(AdminClient admin) {
        return (Map<String, Object>) admin.object("/jwd/admin/api/sessiontable").get("persistence");
    }

    private static List<String> warnings(JwdProcess jwd, String about) {
        return jwd.log().stream().filter(line -> line.contains("WARN") && line.contains(about)).toList();
    }

    /** The text of the admin page's cell {@code selector}, once its script has filled it. */
    private static String pageRow(JwdProcess jwd, String selector) throws Exception {
        try (WebClient web = AdminClient.browser()) {
            HtmlPage page = web.getPage(jwd.uri("/jwd/admin/").toURL());
            await().atMost(Duration.ofSeconds(20)).until(() -> page.querySelector(selector) != null);
            DomNode cell = page.querySelector(selector);
            return cell.getTextContent().strip();
        }
    }

    /** Binds the session {@code JSESSIONID=id} at its first request; the server it went to. */
    private String bind(JwdProcess jwd, String id) throws Exception {
        HttpResponse<Void> response = send(jwd, id);
        assertThat(response.headers().firstValue("X-Jwd-Route").orElse("")).contains("session table bind");
        return response.headers().firstValue("X-Served-By").orElseThrow();
    }

    /** The server the session's next request goes to, asserting that the session table sent it there. */
    private String boundTo(JwdProcess jwd, String id) throws Exception {
        HttpResponse<Void> response = send(jwd, id);
        assertThat(response.headers().firstValue("X-Jwd-Route").orElse("")).endsWith("reason=session table");
        return response.headers().firstValue("X-Served-By").orElseThrow();
    }

    private String route(JwdProcess jwd, String id) throws Exception {
        return send(jwd, id).headers().firstValue("X-Jwd-Route").orElse("");
    }

    private HttpResponse<Void> send(JwdProcess jwd, String id) throws Exception {
        HttpResponse<Void> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x"))
                .header("Cookie", "JSESSIONID=" + id).build(), HttpResponse.BodyHandlers.discarding());
        assertThat(response.statusCode()).isEqualTo(200);
        return response;
    }

    private static List<String> generations(Path table) throws IOException {
        try (Stream<Path> children = Files.list(table)) {
            return children.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("gen-")).sorted().toList();
        }
    }
}
