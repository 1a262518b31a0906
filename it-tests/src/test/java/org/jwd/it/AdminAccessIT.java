package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.jwd.config.PasswordHash;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The administration where {@code icm/HTTP/admin_0} puts it: its own prefix on a port of its own, which the
 * launcher opens, for one client address only; users of role {@code monitor} read and cannot act; the metrics
 * without credentials there; the health URLs on that listener alone ({@code jwd.health_urls=admin}).
 */
@Timeout(120)
class AdminAccessIT {
    private static final String MONITOR_PASSWORD = "read only";
    private static DemoBackend a;
    private static DemoBackend b;
    private static JwdProcess jwd;
    private static Path config;
    private static URI adminBase;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() throws IOException {
        a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
        int adminPort;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            adminPort = free.getLocalPort();
        }
        config = Files.createTempFile("jwd-admin-access", ".properties");
        Files.writeString(config, """
                server.a.url=%s
                server.a.type=j2ee
                server.b.url=%s
                server.b.type=j2ee
                icm/HTTP/admin_0=PREFIX=/ops, PORT=%d, HOST=127.0.0.1, CLIENTHOST=127.0.0.1;::1
                admin.users.prometheus.password_hash=%s
                admin.metrics_anonymous=true
                jwd.health_urls=admin
                """.formatted(a.url(), b.url(), adminPort, PasswordHash.create(MONITOR_PASSWORD.toCharArray(), 10_000))
                + AdminClient.CONFIG);
        jwd = JwdProcess.startWith(config, Map.of());
        adminBase = URI.create("http://127.0.0.1:" + adminPort);
    }

    @AfterAll
    static void stop() throws IOException {
        if (jwd != null) {
            jwd.close();
        }
        a.close();
        b.close();
        Files.deleteIfExists(config);
    }

    private static HttpResponse<String> send(URI base, String method, String path, String user, String password)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (user != null) {
            request.header("Authorization", AdminClient.basic(user, password));
        }
        if (!method.equals("GET")) {
            request.header("X-Jwd-Admin", "1").header("Origin", base.toString());
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theLauncherOpensTheAdministrationsPortAndTheAdministrationAnswersThereAlone() throws Exception {
        assertThat(jwd.log()).anyMatch(l -> l.contains("jwd: ready on " + adminBase + "/"));

        HttpResponse<String> there = send(adminBase, "GET", "/ops/api/status", AdminClient.USER,
                AdminClient.PASSWORD);
        HttpResponse<String> mainPort = send(jwd.uri(), "GET", "/ops/api/status", AdminClient.USER,
                AdminClient.PASSWORD);
        HttpResponse<String> oldPrefix = send(jwd.uri(), "GET", "/jwd/admin/api/status", AdminClient.USER,
                AdminClient.PASSWORD);

        assertThat(there.statusCode()).isEqualTo(200);
        assertThat(there.body()).contains("\"ready\":");
        assertThat(mainPort.statusCode()).as("no administration on the main listener").isEqualTo(404);
        assertThat(mainPort.body()).isEqualTo("Not Found\n");
        assertThat(oldPrefix.headers().firstValue("X-Served-By")).as("/jwd/admin is a URL like any other now")
                .isPresent();
    }

    @Test
    void aClientOutsideClienthostIsRefusedNamingTheEntry() throws Exception {
        String response = AdminClient.rawGet(adminBase, "127.0.0.2", "/ops/api/status",
                AdminClient.basic(AdminClient.USER, AdminClient.PASSWORD));

        assertThat(response).startsWith("HTTP/1.1 403").endsWith("jwd: the administration does not answer"
                + " 127.0.0.2 (CLIENTHOST of icm/HTTP/admin_0)\n");
    }

    @Test
    void aMonitorReadsEverythingAndMayNotActWhileTheAdministratorActsAndEachActionIsLoggedWithWhoAndWhence()
            throws Exception {
        HttpResponse<String> servers = send(adminBase, "GET", "/ops/api/servers", "prometheus", MONITOR_PASSWORD);
        HttpResponse<String> page = send(adminBase, "GET", "/ops/", "prometheus", MONITOR_PASSWORD);
        HttpResponse<String> drain = send(adminBase, "POST", "/ops/api/servers/b/drain", "prometheus",
                MONITOR_PASSWORD);
        HttpResponse<String> reload = send(adminBase, "POST", "/ops/api/reload", "prometheus", MONITOR_PASSWORD);
        HttpResponse<String> lookup = send(adminBase, "POST", "/ops/api/session", "prometheus", MONITOR_PASSWORD);

        assertThat(servers.statusCode()).isEqualTo(200);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(drain.statusCode()).isEqualTo(403);
        assertThat(drain.body()).contains("jwd: user prometheus has role monitor: POST /api/servers/b/drain needs"
                + " role admin");
        assertThat(reload.statusCode()).isEqualTo(403);
        assertThat(lookup.statusCode()).as("a lookup is a read: an empty value is refused as such").isEqualTo(400);

        try {
            assertThat(send(adminBase, "POST", "/ops/api/servers/b/drain", AdminClient.USER, AdminClient.PASSWORD)
                    .statusCode()).isEqualTo(200);
            assertThat(jwd.log()).anyMatch(l -> l.contains("jwd: server b: drain by admin from 127.0.0.1"));
        } finally {
            send(adminBase, "POST", "/ops/api/servers/b/enable", AdminClient.USER, AdminClient.PASSWORD);
        }
    }

    @Test
    void theMetricsNeedNoCredentialsThereButEverythingElseDoes() throws Exception {
        HttpResponse<String> metrics = send(adminBase, "GET", "/ops/metrics", null, null);
        HttpResponse<String> status = send(adminBase, "GET", "/ops/api/status", null, null);

        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("jwd_server_requests_total");
        assertThat(status.statusCode()).isEqualTo(401);
    }

    @Test
    void theHealthUrlsAnswerWithoutCredentialsOnTheAdministrationsListenerAlone() throws Exception {
        HttpResponse<String> live = send(adminBase, "GET", "/jwd/health/live", null, null);
        HttpResponse<String> elsewhere = send(jwd.uri(), "GET", "/jwd/health/ready", null, null);

        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).isEqualTo("live\n");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            HttpResponse<String> ready = send(adminBase, "GET", "/jwd/health/ready", null, null);
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.body()).isEqualTo("ready: 2 of 2 servers up\n");
        });
        assertThat(elsewhere.statusCode()).isEqualTo(404);
    }

    /** The tools read where the administration answers (its PREFIX, PORT and HOST) from the file jwd runs with. */
    @Test
    void theToolsFindTheAdministrationInTheConfigurationTheyAreGiven() throws Exception {
        Map<String, String> password = Map.of("JWD_ADMIN_PASSWORD", AdminClient.PASSWORD);
        String file = config.toString();

        JwdProcess.Result lgtst = JwdProcess.runToEnd(Duration.ofSeconds(60), password, "lgtst", "--config", file,
                "--group", "!J2EE");
        JwdProcess.Result status = JwdProcess.runToEnd(Duration.ofSeconds(60), password, "status", "--config", file);
        JwdProcess.Result elsewhere = JwdProcess.runToEnd(Duration.ofSeconds(60), password, "status", "--config",
                file, "--url", jwd.uri().toString());

        assertThat(lgtst.exitCode()).as(lgtst.output()).isZero();
        assertThat(lgtst.output()).contains("group !J2EE (internal group, j2ee servers)", "[a] [", "[b] [");
        assertThat(status.output()).contains("jwd ", " at " + adminBase, "a ", "b ");
        assertThat(elsewhere.exitCode()).as("--url wins: the main listener has no administration").isEqualTo(1);
        assertThat(elsewhere.output()).contains(jwd.uri() + " has no administration at /ops");
        try {
            JwdProcess.Result drain = JwdProcess.runToEnd(Duration.ofSeconds(60), password, "drain", "b",
                    "--config", file);
            assertThat(drain.exitCode()).as(drain.output()).isZero();
            assertThat(drain.output()).contains("server b: drained");
        } finally {
            JwdProcess.runToEnd(Duration.ofSeconds(60), password, "enable", "b", "--config", file);
        }
    }
}
