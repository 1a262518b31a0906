package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlPage;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SAP's modification handler ({@code icm/HTTP/mod_<xx>}) through the distribution with echo servers: SAP's own
 * example action files, copied from SAP's pages ({@code src/core/src/test/resources/org/jwd/modification}), do what
 * SAP says they do — the rewritten path and the headers the server received, a redirect's status and
 * {@code Location}, 403 for a method SAP's example forbids — and a rewritten URL meets the permission table as the
 * new URL.
 */
class ModificationHandlerIT {
    private static final Path SAP_EXAMPLES = JwdProcess.projectDir()
            .resolve("src/core/src/test/resources/org/jwd/modification");

    @TempDir
    static Path dir;
    private static DemoBackend backend;
    private static JwdProcess jwd;
    private static AdminClient admin;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() throws IOException {
        backend = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        Files.copy(SAP_EXAMPLES.resolve("sap-defining-modification-actions.txt"), dir.resolve("sap.txt"));
        Files.writeString(dir.resolve("admin-alias.txt"), "RegRewriteUrl ^/admin(.*) /nwa$1\n");
        Files.writeString(dir.resolve("permissions.txt"), "D /nwa/*\n");
        jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                health.interval=1h
                jwd.debug_headers=true
                wdisp/permission_table=%s
                icm/HTTP/mod_0=PREFIX=/, FILE=%s
                icm/HTTP/mod_1=PREFIX=/admin, FILE=%s
                icm/HTTP/logging_0=PREFIX=/, LOGFILE=%s/access.log, LOGFORMAT=JWD
                jwd.config_watch=0
                """.formatted(backend.url(), dir.resolve("permissions.txt"), dir.resolve("sap.txt"),
                dir.resolve("admin-alias.txt"), dir) + AdminClient.CONFIG);
        admin = new AdminClient(jwd);
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

    private static HttpResponse<String> send(JwdProcess to, String method, String path, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(to.uri(path)).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Java's HTTP client sets no Host of its own choosing: the request goes over a socket as written. */
    private static String sendWithHost(String host, String path) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", jwd.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            in.transferTo(answer);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void sapsExampleSetsTheClientProtocolAndAccessPointHeadersTheServerReceives() throws Exception {
        HttpResponse<String> response = send(jwd, "GET", "/irj/echo");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"path\":\"/irj/echo\"", "\"clientProtocol\":[\"http\"]",
                "\"X-SAP-WEBDISP-AP\":[\"http=" + jwd.port() + "\"]");
    }

    @Test
    void sapsExampleForbidsEveryMethodButGetAndPost() throws Exception {
        HttpResponse<String> put = send(jwd, "PUT", "/irj/echo");
        HttpResponse<String> delete = send(jwd, "DELETE", "/irj/echo");
        HttpResponse<String> post = send(jwd, "POST", "/irj/echo");

        assertThat(put.statusCode()).isEqualTo(403);
        assertThat(put.body()).isEqualTo("jwd: this URL is forbidden (action file sap.txt, line 8)\n");
        assertThat(delete.statusCode()).isEqualTo(403);
        assertThat(post.statusCode()).isEqualTo(200);
        assertThat(backend.requestCount("/irj/echo")).as("only the POST reached the server").isEqualTo(1);
    }

    @Test
    void sapsExampleRewritesTheRootToIndexHtml() throws Exception {
        HttpResponse<String> response = send(jwd, "GET", "/");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(backend.requestCount("/index.html")).isEqualTo(1);
        assertThat(response.headers().firstValue("X-Jwd-Route")).hasValueSatisfying(route ->
                assertThat(route).endsWith("; rewritten by " + dir.resolve("sap.txt") + ":10"));
        Path log = dir.resolve("access.log");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(log)
                && Files.readString(log).contains("rewritten by " + dir.resolve("sap.txt") + ":10"));
    }

    @Test
    void sapsExampleRewritesPingOnlyForHostsStartingWithLdp() throws IOException {
        String ldp = sendWithHost("ldp1.example.com", "/ping");
        String other = sendWithHost("web.example.com", "/ping");

        assertThat(ldp).startsWith("HTTP/1.1 200").contains("OK");
        assertThat(backend.requestCount("/sap/public/icman/ping")).isEqualTo(1);
        assertThat(other).startsWith("HTTP/1.1 200");
        assertThat(backend.requestCount("/ping")).isEqualTo(1);
    }

    @Test
    void aRewriteWhoseResultADenyLineMeetsIsDenied() throws Exception {
        HttpResponse<String> response = send(jwd, "GET", "/admin/x");

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).isEqualTo("jwd: this URL is not permitted (permission table, line 1)\n");
        assertThat(forwarded()).isZero();
    }

    /** Requests the backend got, less jwd's health checks (of "/", which these tests expect to reach no server). */
    private static long forwarded() {
        return backend.requestCounts().entrySet().stream().filter(e -> !e.getKey().equals("/"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    @Test
    void sapsRedirectExampleAnswersWithItsCodeAndLocationAndReachesNoServer() throws Exception {
        Files.copy(SAP_EXAMPLES.resolve("sap-request-redirect.txt"), dir.resolve("redirect.txt"));
        try (JwdProcess redirecting = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                health.interval=1h
                icm/HTTP/mod_0=PREFIX=/, FILE=%s
                """.formatted(backend.url(), dir.resolve("redirect.txt")))) {
            HttpResponse<String> ping = send(redirecting, "GET", "/Ping/x?a=1");
            HttpResponse<String> root = send(redirecting, "GET", "/");

            assertThat(ping.statusCode()).isEqualTo(302);
            assertThat(ping.headers().firstValue("Location")).hasValue("/sap/public/icman/ping/x?a=1");
            assertThat(root.statusCode()).isEqualTo(301);
            assertThat(root.headers().firstValue("Location")).hasValue("http://server.domain:8080/default.html");
            assertThat(forwarded()).isZero();
        }
    }

    @Test
    void sapsFioriExampleSendsEachOriginToTheSystemItNames() throws Exception {
        Files.copy(SAP_EXAMPLES.resolve("sap-dispatch-to-different-systems.txt"), dir.resolve("origin.txt"));
        try (DemoBackend foo = DemoBackend.start(DemoBackend.Options.j2ee("foo1"));
             DemoBackend bar = DemoBackend.start(DemoBackend.Options.j2ee("bar1"));
             JwdProcess systems = JwdProcess.start("""
                     wdisp/system_0=SID=FOO, SRCURL=/foo/
                     wdisp/system_1=SID=BAR, SRCURL=/bar/
                     system.FOO.server.foo1.url=%s
                     system.FOO.server.foo1.type=j2ee
                     system.BAR.server.bar1.url=%s
                     system.BAR.server.bar1.type=j2ee
                     health.interval=1h
                     icm/HTTP/mod_0=PREFIX=/, FILE=%s
                     """.formatted(foo.url(), bar.url(), dir.resolve("origin.txt")))) {
            HttpResponse<String> sys = send(systems, "GET", "/sap/opu/odata/MY_SERVICE;o=SYS/echo");
            HttpResponse<String> other = send(systems, "GET", "/sap/opu/odata/MY_SERVICE;o=OTHER/echo");
            HttpResponse<String> none = send(systems, "GET", "/sap/opu/odata/MY_SERVICE/echo");
            HttpResponse<String> named = send(systems, "GET", "/sap/opu/odata/MY_SERVICE/echo",
                    "x-sap-webdisp-target-sid", "FOO");

            assertThat(sys.body()).contains("\"server\":\"foo1\"", "\"x-sap-webdisp-target-sid\":[\"FOO\"]");
            assertThat(other.body()).contains("\"server\":\"bar1\"", "\"x-sap-webdisp-target-sid\":[\"BAR\"]");
            assertThat(none.statusCode()).as("no rule names a system, no entry matches").isEqualTo(404);
            assertThat(named.statusCode()).as("a client's own header is not trusted").isEqualTo(404);
            assertThat(foo.requestCount("/sap/opu/odata/MY_SERVICE/echo")).isEqualTo(1);
            assertThat(bar.requestCount("/sap/opu/odata/MY_SERVICE/echo")).isEqualTo(1);
        }
    }

    private HttpResponse<String> reload() {
        return admin.send(admin.request("/jwd/admin/api/reload").header("X-Jwd-Admin", "1")
                .header("Origin", jwd.uri().toString()).POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    @Test
    void thePageShowsTheActionFilesInForceAndABrokenOnesErrorWhileItsRulesStay() throws Exception {
        Path alias = dir.resolve("admin-alias.txt");
        String good = Files.readString(alias);
        try (WebClient web = AdminClient.browser()) {
            Files.writeString(alias, good + "RegRewriteUrl ^/x /y [restart]\n");
            assertThat(reload().statusCode()).isEqualTo(422);

            HtmlPage page = web.getPage(jwd.uri("/jwd/admin/").toURL());
            await().atMost(Duration.ofSeconds(20)).until(() -> page.querySelector("[data-handler='icm/HTTP/mod_1']")
                    != null && page.querySelector("#reload-errors li") != null);

            assertThat(page.<DomElement>querySelector("#modification-section").hasAttribute("hidden")).isFalse();
            assertThat(page.querySelector("[data-handler='icm/HTTP/mod_0'] h3").getTextContent())
                    .isEqualTo("icm/HTTP/mod_0 = PREFIX=/, FILE=" + dir.resolve("sap.txt"));
            assertThat(page.querySelector("[data-handler='icm/HTTP/mod_0'] pre").getTextContent())
                    .contains("   3  SetHeader clientProtocol %{SERVER_PROTOCOL}",
                            "  13  RegIRewriteUrl ^/ping(.*) /sap/public/icman/ping$1");
            assertThat(page.querySelector("#reload-errors li").getTextContent())
                    .startsWith(alias + ":2: 'RegRewriteUrl ^/x /y [restart]': [restart] is not supported by jwd");
            assertThat(send(jwd, "GET", "/admin/x").statusCode()).as("the rules in force stay").isEqualTo(403);
        } finally {
            Files.writeString(alias, good);
            reload();
        }
    }
}
