package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The built WAR ({@code target/jwd.war}) copied as {@code ROOT.war} into a stock Tomcat 10.1 started with
 * {@code -Djwd.config=FILE}, as the README tells a user: it forwards, balances, keeps sessions and serves the
 * administration API, with its HTTP client on a pool of its own (Tomcat lends no Jetty thread pool). One Tomcat for
 * the class; the bad configuration gets a Tomcat of its own.
 */
class TomcatDeploymentIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static DemoBackend a;
    private static DemoBackend b;
    private static TomcatProcess tomcat;

    @BeforeAll
    static void deployInTomcat() throws IOException {
        a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
        Path base = TomcatProcess.newBase("jwd", null);
        Path config = base.resolve("dispatcher.properties");
        Files.writeString(config, """
                server.a.url=%s
                server.a.type=j2ee
                server.b.url=%s
                server.b.type=j2ee
                SessionTableTimeout=60s
                jwd.debug_headers=true
                """.formatted(a.url(), b.url()) + AdminClient.CONFIG);
        tomcat = start(base, config);
    }

    /** The user's way: the WAR copied as webapps/ROOT.war, the configuration's path as a system property. */
    private static TomcatProcess start(Path base, Path config) throws IOException {
        Files.copy(Path.of(System.getProperty("jwd.war", "target/jwd.war")), base.resolve("webapps/ROOT.war"));
        return TomcatProcess.start(base, "-Djwd.config=" + config);
    }

    @AfterAll
    static void stopAll() {
        for (AutoCloseable c : new AutoCloseable[] {tomcat, a, b}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // stop the others all the same
            }
        }
    }

    private static HttpResponse<String> get(String path, String cookie) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(tomcat.uri(path)).timeout(Duration.ofSeconds(30));
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void forwardsAndBalancesOverTheClientsOwnThreadPool() throws Exception {
        List<String> servedBy = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = get("/irj/portal", null);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(r.headers().firstValue("X-Jwd-Route").orElseThrow()).endsWith("reason=balanced");
            servedBy.add(r.headers().firstValue("X-Served-By").orElseThrow());
        }

        // weighted_round_robin, equal capacities, one request at a time: one to each in turn
        assertThat(servedBy).containsExactlyInAnyOrder("a", "a", "b", "b");
        assertThat(servedBy.get(1)).isNotEqualTo(servedBy.get(0));
        assertThat(tomcat.log()).anySatisfy(line -> assertThat(line).contains(
                "the HTTP client runs on its own, at most 200 threads (jwd.client_threads)"));
    }

    @Test
    void keepsASessionThroughTheSessionTable() throws Exception {
        HttpResponse<String> first = get("/irj/portal", "JSESSIONID=tomcat-it-session");
        assertThat(first.headers().firstValue("X-Jwd-Route").orElseThrow()).endsWith("reason=session table bind");
        String server = first.headers().firstValue("X-Served-By").orElseThrow();

        for (int i = 0; i < 5; i++) {
            HttpResponse<String> next = get("/irj/portal", "JSESSIONID=tomcat-it-session");
            assertThat(next.statusCode()).isEqualTo(200);
            assertThat(next.headers().firstValue("X-Jwd-Route").orElseThrow()).endsWith("reason=session table");
            assertThat(next.headers().firstValue("X-Served-By")).hasValue(server);
        }
    }

    @Test
    void servesTheAdministrationApiToItsAdministratorOnly() throws Exception {
        HttpResponse<String> anonymous = get("/jwd/admin/api/servers", null);
        HttpResponse<String> admin = HTTP.send(HttpRequest.newBuilder(tomcat.uri("/jwd/admin/api/servers"))
                .header("Authorization", AdminClient.basic(AdminClient.USER, AdminClient.PASSWORD)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(admin.statusCode()).isEqualTo(200);
        assertThat(admin.body()).contains("\"id\":\"a\"", "\"id\":\"b\"", "\"url\":\"" + a.url() + "\"");
    }

    @Test
    void aBadConfigurationFailsTheDeploymentWithOneLinePerProblemInTomcatsLog() throws Exception {
        Path base = TomcatProcess.newBase("jwd-bad", null);
        Path config = base.resolve("dispatcher.properties");
        Files.writeString(config, """
                server.a.url=http://127.0.0.1:1
                server.a.type=j2e
                server.b.url=ftp://x
                server.b.type=j2ee
                jwd.client_threads=2
                """);
        try (TomcatProcess bad = start(base, config)) {
            List<String> problems = bad.log().stream().filter(line -> line.contains("jwd: configuration error: "))
                    .map(line -> line.substring(line.indexOf("dispatcher.properties:"))).toList();
            assertThat(problems).containsExactly(
                    "dispatcher.properties:2: server.a.type = 'j2e': expected j2ee or abap",
                    "dispatcher.properties:3: server.b.url = 'ftp://x': expected http://host:port",
                    "dispatcher.properties:5: jwd.client_threads = '2': expected an integer from 8 to 10000");
            // Tomcat's own verdict, in its log: the webapp is not deployed, and nothing is served in its place
            assertThat(bad.log()).anySatisfy(line -> assertThat(line).contains("startup failed due to previous errors"));
            assertThat(HTTP.send(HttpRequest.newBuilder(bad.uri("/irj/portal")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(404);
        }
    }
}
