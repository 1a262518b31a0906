package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * jwd in its Jetty distribution in front of two real Tomcat 10.1 processes, {@code jvmRoute} tc1 and tc2, configured
 * with nothing but each server's {@code url} and {@code type}: the route suffix Tomcat appends to its session ids
 * ({@code <id>.tc1}) is learned from its {@code Set-Cookie} and keeps each session on its Tomcat. Each Tomcat serves
 * the same small webapp ({@link SessionCounterServlet}) at {@code /app}, and as the portal's two iViews at
 * {@code /iview-a} and {@code /iview-b} (a session each: Tomcat scopes the cookie to its context path). One set-up
 * for the class; the test that kills a Tomcat runs last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TomcatLandscapeIT {
    private static final Pattern ANSWER = Pattern.compile("session=(\\S+)\\.(tc\\d) count=(\\d+)");
    private static TomcatProcess tc1;
    private static TomcatProcess tc2;
    private static JwdProcess jwd;

    @BeforeAll
    static void startLandscape() throws Exception {
        Path webapp = counterWebapp();
        CompletableFuture<TomcatProcess> first = CompletableFuture.supplyAsync(() -> startTomcat("tc1", webapp));
        CompletableFuture<TomcatProcess> second = CompletableFuture.supplyAsync(() -> startTomcat("tc2", webapp));
        try {
            tc1 = first.join();
        } finally {
            tc2 = second.join();
        }
        jwd = JwdProcess.start("""
                server.tc1.url=%s
                server.tc1.type=j2ee
                server.tc2.url=%s
                server.tc2.type=j2ee
                SessionTableTimeout=10m
                jwd.debug_headers=true
                """.formatted(tc1.uri(), tc2.uri()) + AdminClient.CONFIG);
    }

    /** The test webapp as a directory: the servlet's class from the test classes, a web.xml mapping it to /. */
    private static Path counterWebapp() throws IOException {
        Path dir = Files.createTempDirectory(JwdProcess.target(), "tomcat-webapp-");
        Path classFile = Path.of("org", "jwd", "it", "SessionCounterServlet.class");
        Path target = dir.resolve("WEB-INF/classes").resolve(classFile);
        Files.createDirectories(target.getParent());
        Files.copy(Path.of(System.getProperty("jwd.testClasses", "target/test-classes")).resolve(classFile), target);
        Files.writeString(dir.resolve("WEB-INF/web.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0" metadata-complete="true">
                  <servlet>
                    <servlet-name>counter</servlet-name>
                    <servlet-class>org.jwd.it.SessionCounterServlet</servlet-class>
                  </servlet>
                  <servlet-mapping>
                    <servlet-name>counter</servlet-name>
                    <url-pattern>/</url-pattern>
                  </servlet-mapping>
                </web-app>
                """);
        return dir;
    }

    private static TomcatProcess startTomcat(String jvmRoute, Path webapp) {
        try {
            Path base = TomcatProcess.newBase(jvmRoute, jvmRoute);
            for (String context : List.of("app", "iview-a", "iview-b")) {
                TomcatProcess.deploy(base, context, webapp);
            }
            return TomcatProcess.start(base, "");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stopLandscape() {
        for (AutoCloseable c : new AutoCloseable[] {jwd, tc1, tc2}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // stop the others all the same
            }
        }
    }

    /** A browser: its own cookie jar. */
    private static HttpClient browser() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL)).build();
    }

    private static HttpRequest get(String path) {
        return HttpRequest.newBuilder(jwd.uri(path)).timeout(Duration.ofSeconds(30)).build();
    }

    /** What the counter answered, and where jwd says it sent the request and why. */
    private record Answer(int status, String session, String tomcat, int count, String route) {
        static Answer of(HttpResponse<String> r) {
            Matcher m = ANSWER.matcher(r.body());
            assertThat(m.find()).as("status %d: %s", r.statusCode(), r.body()).isTrue();
            return new Answer(r.statusCode(), m.group(1) + "." + m.group(2), m.group(2), Integer.parseInt(m.group(3)),
                    r.headers().firstValue("X-Jwd-Route").orElse(""));
        }
    }

    private static Answer send(HttpClient client, String path) throws Exception {
        return Answer.of(client.send(get(path), HttpResponse.BodyHandlers.ofString()));
    }

    @Test
    @Order(1)
    void twentyRequestsOfOneClientKeepOneSessionByTheLearnedRouteSuffix() throws Exception {
        HttpClient browser = browser();
        Answer first = send(browser, "/app/");
        List<Answer> next = new ArrayList<>();
        for (int i = 2; i <= 20; i++) {
            next.add(send(browser, "/app/"));
        }

        assertThat(first.count()).isEqualTo(1);
        assertThat(first.route()).endsWith("reason=balanced");
        for (int i = 0; i < next.size(); i++) {
            Answer a = next.get(i);
            assertThat(a.session()).as("request %d", i + 2).isEqualTo(first.session());
            assertThat(a.count()).as("request %d", i + 2).isEqualTo(i + 2);
            assertThat(a.route()).as("request %d", i + 2)
                    .isEqualTo("group=!J2EE; server=" + first.tomcat() + "; reason=route suffix (learned)");
        }
    }

    @Test
    @Order(2)
    void theAdministrationApiShowsEachTomcatsLearnedRoute() throws Exception {
        // two new clients: one balanced to each Tomcat, so that both have set a session id
        send(browser(), "/app/");
        send(browser(), "/app/");

        HttpResponse<String> servers = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        jwd.uri("/jwd/admin/api/servers"))
                .header("Authorization", AdminClient.basic(AdminClient.USER, AdminClient.PASSWORD)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(servers.statusCode()).isEqualTo(200);
        assertThat(servers.body()).contains("\"id\":\"tc1\"", "\"route\":\"tc1\",\"route_source\":\"learned\"",
                "\"id\":\"tc2\"", "\"route\":\"tc2\",\"route_source\":\"learned\"");
    }

    @Test
    @Order(3)
    void thePortalsTwoConcurrentIViewRequestsKeepBothSessions() throws Exception {
        HttpClient browser = browser();
        List<Answer> a = new ArrayList<>();
        List<Answer> b = new ArrayList<>();
        for (int round = 1; round <= 5; round++) {
            CompletableFuture<HttpResponse<String>> iviewA = browser.sendAsync(get("/iview-a/"),
                    HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> iviewB = browser.sendAsync(get("/iview-b/"),
                    HttpResponse.BodyHandlers.ofString());
            a.add(Answer.of(iviewA.join()));
            b.add(Answer.of(iviewB.join()));
        }

        for (List<Answer> iview : List.of(a, b)) {
            for (int round = 1; round <= 5; round++) {
                Answer answer = iview.get(round - 1);
                assertThat(answer.session()).as("round %d: %s", round, iview).isEqualTo(iview.get(0).session());
                assertThat(answer.count()).as("round %d: %s", round, iview).isEqualTo(round);
            }
        }
    }

    @Test
    @Order(4)
    void aKilledTomcatsSessionsMoveToTheOtherAndRequestsWithoutOneSeeNoError() throws Exception {
        HttpClient browser = browser();
        Answer before = send(browser, "/app/");
        send(browser, "/app/");
        TomcatProcess killed = before.tomcat().equals("tc1") ? tc1 : tc2;
        String survivor = before.tomcat().equals("tc1") ? "tc2" : "tc1";

        killed.kill();

        Answer after = send(browser, "/app/");
        assertThat(after.status()).isEqualTo(200);
        assertThat(after.tomcat()).isEqualTo(survivor);
        assertThat(after.session()).isNotEqualTo(before.session());
        assertThat(after.count()).as("a new session on %s", survivor).isEqualTo(1);
        Answer again = send(browser, "/app/");
        assertThat(again.session()).isEqualTo(after.session());
        assertThat(again.count()).isEqualTo(2);
        for (int i = 0; i < 10; i++) {
            Answer fresh = send(browser(), "/app/");
            assertThat(fresh.status()).isEqualTo(200);
            assertThat(fresh.tomcat()).isEqualTo(survivor);
        }
    }
}
