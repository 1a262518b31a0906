package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jwd.config.PasswordHash;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Log levels set while jwd runs, through the distribution (Logback, shared by the server's classes and the WAR's): a
 * level set through the API shows in the log at once, for jwd's classes (the WAR's) and Jetty's server (the server's
 * class path) alike, and the logger returns to its configured level when the level expires; a user of role
 * {@code monitor} cannot set one; {@code bin/jwd log-level} sets, lists and resets.
 */
@Timeout(180)
class LogLevelsIT {
    private static final String MONITOR_PASSWORD = "read only";

    @Test
    void aLevelSetThroughTheApiShowsInTheLogAtOnceAndReturnsWhenItExpires() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     admin.users.prometheus.password_hash=%s
                     """.formatted(a.url(), PasswordHash.create(MONITOR_PASSWORD.toCharArray(), 10_000))
                     + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);
            assertThat(admin.through("/irj/before").statusCode()).isEqualTo(200);
            HttpResponse<String> monitor = admin.send(setLevel(jwd, admin, "org.jwd", "DEBUG", "3s")
                    .setHeader("Authorization", AdminClient.basic("prometheus", MONITOR_PASSWORD)).build());
            assertThat(monitor.statusCode()).as(monitor.body()).isEqualTo(403);

            HttpResponse<String> set = admin.send(setLevel(jwd, admin, "org.jwd", "DEBUG", "3s").build());
            HttpResponse<String> server = admin.send(setLevel(jwd, admin, "org.eclipse.jetty.server", "DEBUG", "3s")
                    .build());
            assertThat(admin.through("/irj/during", "Cookie", "JSESSIONID=never-in-the-log").statusCode())
                    .isEqualTo(200);

            assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
            assertThat(set.body()).contains("\"logger\":\"org.jwd\",\"level\":\"DEBUG\",\"configured\":\"INFO\"",
                    "\"by\":\"admin from 127.0.0.1\"");
            assertThat(server.statusCode()).as(server.body()).isEqualTo(200);
            // jwd's classes are the WAR's, Jetty's server classes the server's: one log for both
            await().atMost(Duration.ofSeconds(10)).until(() -> debugLines(jwd).stream().anyMatch(l ->
                    l.contains(":o.j.p.RequestEnds:") && l.contains("jwd: GET /irj/during -> 200 in ")
                            && l.contains("group=!J2EE; server=a; reason=")));
            assertThat(debugLines(jwd)).anyMatch(l -> l.contains(":o.e.j.s."))
                    .noneMatch(l -> l.contains("/irj/before"));
            // Jetty's proxy servlet writes every header at DEBUG, under Jetty's name: jwd's DEBUG shows no cookie
            assertThat(jwd.log()).noneMatch(l -> l.contains("never-in-the-log"));

            await().atMost(Duration.ofSeconds(15)).until(() -> ((List<?>) admin.object("/jwd/admin/api/loglevels")
                    .get("levels")).isEmpty());
            assertThat(jwd.log()).anyMatch(l -> l.contains("jwd: log level of org.jwd back to INFO: the DEBUG set by"
                    + " admin from 127.0.0.1 expired"));
            int before = debugLines(jwd).size();
            assertThat(admin.through("/irj/after").statusCode()).isEqualTo(200);
            assertThat(admin.through("/irj/after-again").statusCode()).isEqualTo(200);
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                    .until(() -> debugLines(jwd).size() == before);
        }
    }

    @Test
    void theCommandLineSetsListsAndResetsALevel() throws Exception {
        try (JwdProcess jwd = JwdProcess.start("server.a.url=http://127.0.0.1:9\nserver.a.type=j2ee\nhealth.interval=1h\n"
                + AdminClient.CONFIG)) {
            Map<String, String> password = Map.of("JWD_ADMIN_PASSWORD", AdminClient.PASSWORD);
            String url = jwd.uri().toString();

            JwdProcess.Result set = JwdProcess.runToEnd(Duration.ofSeconds(60), password, "log-level",
                    "org.eclipse.jetty.client", "debug", "--for", "10m", "--url", url);
            JwdProcess.Result list = JwdProcess.runToEnd(Duration.ofSeconds(60), password, "log-level", "--url", url);
            JwdProcess.Result wrong = JwdProcess.runToEnd(Duration.ofSeconds(60), password, "log-level",
                    "org.jwd", "loud", "--url", url);
            JwdProcess.Result reset = JwdProcess.runToEnd(Duration.ofSeconds(60), password, "log-level",
                    "org.eclipse.jetty.client", "reset", "--url", url);

            assertThat(set.exitCode()).as(set.output()).isZero();
            assertThat(set.output()).containsPattern("org.eclipse.jetty.client DEBUG until \\S+Z, then INFO \\(set by "
                    + "admin from 127.0.0.1; kept this node only, until it restarts\\)");
            assertThat(list.exitCode()).as(list.output()).isZero();
            assertThat(list.output()).contains("org.eclipse.jetty.client DEBUG until ", "org.jwd INFO",
                    "com.tc WARN");
            assertThat(wrong.exitCode()).isEqualTo(1);
            assertThat(wrong.output()).contains("jwd log-level: 400: level 'loud': expected TRACE, DEBUG, INFO, WARN,"
                    + " ERROR, OFF");
            assertThat(reset.exitCode()).as(reset.output()).isZero();
            assertThat(reset.output()).contains("org.eclipse.jetty.client has its configured level again");
            assertThat(jwd.log()).anyMatch(l -> l.contains("jwd: log level of org.eclipse.jetty.client back to INFO by"
                    + " admin from 127.0.0.1"));
        }
    }

    /** {@code POST api/loglevels} as the page sends it, with the administrator's credentials unless replaced. */
    private static HttpRequest.Builder setLevel(JwdProcess jwd, AdminClient admin, String logger, String level,
                                                String forHowLong) {
        return admin.request("/jwd/admin/api/loglevels").header("X-Jwd-Admin", "1")
                .header("Origin", jwd.uri().toString()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"logger\":\"%s\",\"level\":\"%s\",\"for\":\"%s\"}"
                        .formatted(logger, level, forHowLong)));
    }

    /** The log's DEBUG lines, in the text format: {@code <time>:DEBUG:<logger>:<thread>: <message>}. */
    private static List<String> debugLines(JwdProcess jwd) {
        return jwd.log().stream().filter(l -> l.contains(":DEBUG:")).toList();
    }
}
