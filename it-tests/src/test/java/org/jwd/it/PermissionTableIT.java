package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The URL filter ({@code wdisp/permission_table}) through the real Jetty distribution, over HTTP and HTTPS: a
 * refused URL gets 403 and reaches no server, and the filter sees the path as the server would.
 */
class PermissionTableIT {
    /** Its line numbers are what the answers and the explain endpoint name. */
    private static final String TABLE = """
            # jwd test permission table
            P /irj/public/*
            D /irj/secret*
            S /irj/secure/*
            D *.jsp
            P /irj/*
            D /sap/*
            D /jwd/*
            """;

    @TempDir
    static Path dir;
    private static TestPki pki;
    private static DemoBackend backend;
    private static JwdProcess jwd;
    private static AdminClient admin;
    private static HttpClient https;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() throws IOException {
        pki = TestPki.get();
        backend = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        Files.writeString(dir.resolve("permissions.txt"), TABLE);
        Path config = dir.resolve("jwd.properties");
        // A relative name: read from the properties file's directory, wherever jwd runs.
        Files.writeString(config, """
                server.a.url=%s
                server.a.type=j2ee
                SessionTableTimeout=60s
                jwd.debug_headers=true
                wdisp/permission_table=permissions.txt
                jwd.ssl_keystore=%s
                jwd.ssl_keystore_password=%s
                """.formatted(backend.url(), pki.keyStore("jwd"), TestPki.PASSWORD) + AdminClient.CONFIG);
        jwd = JwdProcess.startWith(config, Map.of(), "--https-port", "0");
        admin = new AdminClient(jwd);
        https = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(pki.clientContext())
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    @BeforeEach
    void resetCounts() {
        backend.resetCounts();
    }

    /** Requests the backend got, less jwd's health checks (of "/", which no test asks for). */
    private static long forwarded() {
        return backend.requestCounts().entrySet().stream().filter(e -> !e.getKey().equals("/"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    private static HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(jwd.uri(path)).timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> getOverHttps(String path) throws Exception {
        return https.send(HttpRequest.newBuilder(jwd.httpsUri(path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void assertRefused(HttpResponse<String> response, int line) {
        assertThat(response.statusCode()).as(response.uri() + " " + response.body()).isEqualTo(403);
        assertThat(response.body()).isEqualTo("jwd: this URL is not permitted (permission table, line " + line + ")\n");
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t ->
                assertThat(t).startsWith("text/plain"));
    }

    @Test
    void aPermittedUrlIsForwarded() throws Exception {
        HttpResponse<String> response = get("/irj/public/echo");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"server\":\"a\"", "\"path\":\"/irj/public/echo\"");
        assertThat(forwarded()).isEqualTo(1);
    }

    @Test
    void aDeniedUrlGets403AndReachesNoServerAndBindsNoSession() throws Exception {
        HttpResponse<String> response = get("/irj/secret/echo", "Cookie", "JSESSIONID=denied-session");

        assertRefused(response, 3);
        assertThat(response.headers().allValues("Set-Cookie")).isEmpty();
        assertThat(forwarded()).isZero();
        // The session is still unknown: a permitted request with it would bind it now.
        HttpResponse<String> explain = admin.send(admin.request("/jwd/admin/api/explain?url=/irj/public/x")
                .header("Cookie", "JSESSIONID=denied-session").build());
        assertThat(explain.body()).contains("\"reason\":\"session table bind\"");
    }

    @Test
    void theFirstMatchingLineWinsAndWildcardsStandAtEitherEnd() throws Exception {
        // /irj/public/x.jsp: line 2 (P /irj/public/*) comes before line 5 (D *.jsp)
        assertThat(get("/irj/public/x.jsp").statusCode()).isEqualTo(200);
        // /irj/x.jsp: line 5 comes before line 6 (P /irj/*)
        assertRefused(get("/irj/x.jsp"), 5);
        // D /irj/secret* covers /irj/secretary too: a wildcard at the end is any text, not a segment
        assertRefused(get("/irj/secretary"), 3);
        // P /irj/* covers the rest of /irj
        assertThat(get("/irj/portal").statusCode()).isEqualTo(200);
        // D /sap/*
        assertRefused(get("/sap/bc/gui/sap/its/webgui"), 7);
        // no line matches /webdynpro/x: permitted, as in SAP
        assertThat(get("/webdynpro/x").statusCode()).isEqualTo(200);
        assertThat(forwarded()).isEqualTo(3);
        assertThat(backend.requestCount("/irj/x.jsp")).isZero();
        assertThat(backend.requestCount("/irj/secretary")).isZero();
    }

    @Test
    void aSecureOnlyUrlIsRefusedOverHttpAndForwardedOverHttps() throws Exception {
        HttpResponse<String> overHttp = get("/irj/secure/echo");
        HttpResponse<String> overHttps = getOverHttps("/irj/secure/echo");

        assertThat(overHttp.statusCode()).isEqualTo(403);
        assertThat(overHttp.body()).isEqualTo("jwd: this URL is permitted over HTTPS only (permission table, line 4)\n");
        assertThat(overHttps.statusCode()).isEqualTo(200);
        assertThat(overHttps.body()).contains("\"path\":\"/irj/secure/echo\"");
        assertThat(forwarded()).isEqualTo(1);
        // P and D lines do not care for the connection
        assertRefused(getOverHttps("/irj/secret/x"), 3);
        assertThat(getOverHttps("/irj/public/echo").statusCode()).isEqualTo(200);
    }

    @Test
    void encodedAndDottedPathsAreFilteredAsTheirNormalizedForm() throws Exception {
        assertRefused(get("/%73ap/bc/gui"), 7);
        assertRefused(get("/x/../sap/bc/gui"), 7);
        assertRefused(get("/irj/%73ecret/x"), 3);
        assertRefused(get("/irj/public/../secret/x"), 3);
        assertRefused(get("/irj/./secret/x"), 3);
        assertRefused(get("/irj/secret;jsessionid=x/y"), 3);
        assertThat(forwarded()).isZero();
    }

    @Test
    void administrationRequestsAreServedBeforeTheFilter() {
        // D /jwd/* would refuse them, but the admin interface is never filtered.
        assertThat(admin.get("/jwd/admin/api/status").statusCode()).isEqualTo(200);
    }

    @Test
    void refusedRequestsAreCountedInTheMetrics() throws Exception {
        long before = refusedCount();

        assertRefused(get("/sap/x"), 7);
        assertRefused(get("/sap/y"), 7);

        assertThat(refusedCount()).isEqualTo(before + 2);
    }

    private static long refusedCount() {
        HttpResponse<String> r = admin.get("/jwd/admin/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        String prefix = "jwd_requests_total{group=\"none\",server=\"none\",status_class=\"4xx\"} ";
        for (String line : r.body().split("\n")) {
            if (line.startsWith(prefix)) {
                return (long) Double.parseDouble(line.substring(prefix.length()));
            }
        }
        return 0;
    }

    @Test
    @SuppressWarnings("unchecked")
    void explainNamesTheRuleThatMatchedOrSaysNoneDid() {
        Map<String, Object> denied = admin.object("/jwd/admin/api/explain?url=/sap/bc/gui");
        Map<String, Object> rule = (Map<String, Object>) ((Map<String, Object>) denied.get("permission")).get("rule");
        assertThat(denied).containsEntry("status", 403L).containsEntry("server", null);
        assertThat(rule).containsEntry("file", dir.resolve("permissions.txt").toAbsolutePath().toString())
                .containsEntry("line", 7L).containsEntry("text", "D /sap/*");
        assertThat((Map<String, Object>) denied.get("permission")).containsEntry("verdict", "denied");

        Map<String, Object> permitted = admin.object("/jwd/admin/api/explain?url=/irj/public/x");
        assertThat((Map<String, Object>) permitted.get("permission")).containsEntry("verdict", "permitted");
        assertThat(permitted).containsEntry("status", 200L).containsEntry("server", "a");

        Map<String, Object> secure = admin.object("/jwd/admin/api/explain?url=/irj/secure/x");
        assertThat((Map<String, Object>) secure.get("permission"))
                .containsEntry("verdict", "permitted over HTTPS only");

        Map<String, Object> none = admin.object("/jwd/admin/api/explain?url=/webdynpro/x");
        assertThat((Map<String, Object>) none.get("permission")).containsEntry("rule", null)
                .containsEntry("verdict", "no rule matched: permitted");
        assertThat(forwarded()).isZero();
    }

    @Test
    void aMalformedLineKeepsTheDispatcherFromStartingAndNamesFileAndLine(@TempDir Path bad) throws Exception {
        Files.writeString(bad.resolve("ptab.txt"), "P /irj/*\n\nD /sap/*/x\nX /y\n");
        Path config = bad.resolve("jwd.properties");
        Files.writeString(config, "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n"
                + "wdisp/permission_table=ptab.txt\n");

        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(90), "run", "--config", config.toString(),
                "--port", "0");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains(
                bad.resolve("ptab.txt") + ":3: 'D /sap/*/x': '*' stands in the middle of '/sap/*/x'",
                bad.resolve("ptab.txt") + ":4: 'X /y': expected P, D or S");
        assertThat(result.output()).doesNotContain("jwd: ready");
    }

    @Test
    void aMissingTableKeepsTheDispatcherFromStarting(@TempDir Path bad) throws Exception {
        Path config = bad.resolve("jwd.properties");
        Files.writeString(config, "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n"
                + "wdisp/permission_table=nope.txt\n");

        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(90), "run", "--config", config.toString(),
                "--port", "0");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("wdisp/permission_table = 'nope.txt': permission table "
                + bad.resolve("nope.txt") + " does not exist");
    }
}
