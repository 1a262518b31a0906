package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JSON API of the administration interface, through the real distribution: every endpoint, the actions, and
 * what is refused (no or wrong credentials, cross-site actions, wrong methods, guessing), and {@code bin/jwd lgtst}.
 */
@Timeout(120)
class AdminIT {
    private static DemoBackend a;
    private static DemoBackend b;
    private static JwdProcess jwd;
    private static AdminClient admin;

    @BeforeAll
    static void start() {
        a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
        jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                server.a.logon_groups=PORTAL
                server.b.url=%s
                server.b.type=j2ee
                server.b.capacity=2
                logon_group.PORTAL.url_prefixes=/irj/portal
                SessionTableTimeout=60s
                jwd.debug_headers=true
                """.formatted(a.url(), b.url()) + AdminClient.CONFIG);
        admin = new AdminClient(jwd);
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        a.close();
        b.close();
    }

    @Test
    void everyAdminPathNeedsCredentials() {
        for (String path : List.of("/jwd/admin/", "/jwd/admin/admin.js", "/jwd/admin/api/status",
                "/jwd/admin/api/servers", "/jwd/admin/metrics", "/jwd/admin/api/servers/a/drain", "/jwd/admin/x")) {
            HttpResponse<String> r = admin.through(path);
            assertThat(r.statusCode()).as(path).isEqualTo(401);
            assertThat(r.headers().firstValue("WWW-Authenticate")).as(path).hasValueSatisfying(v ->
                    assertThat(v).startsWith("Basic realm=\"jwd administration\""));
        }
        HttpResponse<String> wrong = admin.send(HttpRequest.newBuilder(jwd.uri("/jwd/admin/api/status"))
                .header("Authorization", AdminClient.basic("admin", "wrong")).build());
        assertThat(wrong.statusCode()).isEqualTo(401);
        HttpResponse<String> wrongUser = admin.send(HttpRequest.newBuilder(jwd.uri("/jwd/admin/api/status"))
                .header("Authorization", AdminClient.basic("root", AdminClient.PASSWORD)).build());
        assertThat(wrongUser.statusCode()).isEqualTo(401);
    }

    @Test
    void servesThePageAndItsFiles() {
        HttpResponse<String> page = admin.get("/jwd/admin/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
                v -> assertThat(v).contains("default-src 'self'"));
        assertThat(page.body()).contains("<script src=\"admin.js\"").doesNotContain("http://", "https://");
        assertThat(admin.get("/jwd/admin/admin.js").body()).contains("X-Jwd-Admin");
        assertThat(admin.get("/jwd/admin/admin.css").headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/css"));
        HttpResponse<String> bare = admin.get("/jwd/admin");
        assertThat(bare.statusCode()).isEqualTo(302);
        assertThat(bare.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/jwd/admin/"));
        assertThat(admin.get("/jwd/admin/nothing").statusCode()).isEqualTo(404);
        assertThat(admin.get("/jwd/admin/api/nothing").statusCode()).isEqualTo(404);
    }

    @Test
    void adminRequestsAreNeverForwarded() {
        long before = a.requestCount() + b.requestCount();
        admin.get("/jwd/admin/api/status");
        admin.through("/jwd/admin/api/status");
        admin.get("/jwd/admin/nothing");

        assertThat(a.requestCounts().keySet()).noneMatch(p -> p.startsWith("/jwd"));
        assertThat(b.requestCounts().keySet()).noneMatch(p -> p.startsWith("/jwd"));
        assertThat(before).isGreaterThanOrEqualTo(0);
    }

    @Test
    void statusSummarizesServersRequestsAndTheSessionTable() {
        admin.through("/irj/status-test");
        Map<String, Object> status = admin.object("/jwd/admin/api/status");

        assertThat(status).containsKeys("time", "started", "uptime_s", "health", "strategy");
        assertThat((Map<String, Object>) cast(status.get("servers"))).containsEntry("total", 2L);
        assertThat((Long) ((Map<?, ?>) status.get("requests")).get("served")).isPositive();
        assertThat((Map<String, Object>) cast(status.get("session_table"))).containsEntry("enabled", true);
    }

    @Test
    void serversShowStateLoadAndCounters() {
        HttpResponse<String> r = admin.through("/irj/servers-test");
        String servedBy = r.headers().firstValue("X-Served-By").orElseThrow();

        List<Map<String, Object>> servers = admin.list("/jwd/admin/api/servers");

        assertThat(servers).extracting(s -> s.get("id")).containsExactly("a", "b");
        Map<String, Object> s = servers.stream().filter(x -> x.get("id").equals(servedBy)).findFirst().orElseThrow();
        assertThat(s).containsEntry("type", "j2ee").containsEntry("source", "config").containsEntry("state", "up")
                .containsKeys("in_flight", "stateless", "stateful", "errors", "last_check", "load", "capacity");
        assertThat((Long) s.get("served")).isPositive();
        assertThat((List<Object>) cast(s.get("groups"))).contains("!J2EE", "!ALL");
        assertThat((Map<String, Object>) cast(s.get("load"))).containsEntry("group", "!J2EE")
                .containsEntry("measure", "load factor");
        assertThat(admin.server("b")).containsEntry("capacity", 2L);
        assertThat(admin.get("/jwd/admin/api/servers/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void groupsShowMembersAndTheFavorite() {
        List<Map<String, Object>> groups = admin.list("/jwd/admin/api/groups");

        assertThat(groups).extracting(g -> g.get("name")).contains("!J2EE", "!ALL", "PORTAL", "SPACE");
        Map<String, Object> portal = admin.list("/jwd/admin/api/groups?name=PORTAL").get(0);
        // the message server's view (type B: qualities, favorite) beside what balances HTTP requests
        assertThat(portal).containsEntry("kind", "logon").containsEntry("logon_group_type", "B")
                .containsEntry("measure", "quality").containsEntry("favorite", "a")
                .containsEntry("ext_rfc", true).containsEntry("http_balancing", "strategy")
                .containsEntry("strategy", "weighted_round_robin").containsEntry("next_request", "a");
        assertThat((List<Object>) cast(portal.get("members"))).hasSize(1);
        // SPACE, SAP's implicit logon group of every server: no URL prefix, both servers
        Map<String, Object> space = admin.list("/jwd/admin/api/groups?name=SPACE").get(0);
        assertThat(space).containsEntry("kind", "logon").containsEntry("url_prefixes", List.of())
                .containsEntry("measure", "quality");
        List<Object> spaceMembers = (List<Object>) cast(space.get("members"));
        assertThat(spaceMembers).extracting(m -> (Object) ((Map<?, ?>) m).get("id")).containsExactly("a", "b");
        // type B measured at the start, both idle: 1000 per unit of capacity, so b is the favorite
        assertThat(spaceMembers).extracting(m -> ((Number) ((Map<?, ?>) m).get("value")).doubleValue())
                .containsExactly(1000.0, 2000.0);
        assertThat(space).containsEntry("favorite", "b");
        Map<String, Object> j2ee = admin.list("/jwd/admin/api/groups?name=!J2EE").get(0);
        assertThat(j2ee.get("favorite")).isIn("a", "b");
        assertThat(admin.list("/jwd/admin/api/groups?name=NOPE")).isEmpty();
    }

    @Test
    void sessionTableShowsItsFigures() {
        admin.through("/irj/table-test", "Cookie", "JSESSIONID=admin-it-table");
        admin.through("/irj/table-test", "Cookie", "JSESSIONID=admin-it-table");

        Map<String, Object> table = admin.object("/jwd/admin/api/sessiontable");

        assertThat(table).containsEntry("enabled", true).containsEntry("timeout", "1m")
                .containsKeys("entries", "hits", "misses", "bindings", "rebindings", "expirations", "rejected");
        assertThat((Long) table.get("hits")).isPositive();
        assertThat((Long) table.get("bindings")).isPositive();
    }

    @Test
    void configShowsTheKeysInForceWithoutTheHash() {
        Map<String, Object> config = admin.object("/jwd/admin/api/config");
        Map<String, Object> properties = cast(config.get("properties"));

        assertThat(properties).containsEntry("server.b.capacity", "2").containsEntry("admin.password_hash", "(hidden)");
        assertThat(admin.get("/jwd/admin/api/config").body()).doesNotContain("pbkdf2");
        assertThat((Map<String, Object>) cast(config.get("effective"))).containsEntry("SessionTableTimeout", "1m");
    }

    @Test
    void historyHasSamplesOfEveryServer() {
        Map<String, Object> history = admin.object("/jwd/admin/api/history");

        assertThat(history).containsEntry("interval_ms", 5000L);
        List<Map<String, Object>> samples = cast(history.get("samples"));
        assertThat(samples).isNotEmpty();
        assertThat((Map<String, Object>) cast(samples.get(samples.size() - 1).get("served"))).containsKeys("a", "b");
    }

    @Test
    void explainTellsWhereAUrlWouldGoWithoutRoutingIt() {
        long served = (Long) admin.server("a").get("served") + (Long) admin.server("b").get("served");
        Map<String, Object> table = admin.object("/jwd/admin/api/sessiontable");

        Map<String, Object> portal = admin.object("/jwd/admin/api/explain?url=/irj/portal/x%3Fq%3D1");
        assertThat(portal).containsEntry("path", "/irj/portal/x").containsEntry("type", "j2ee")
                .containsEntry("rule", "default").containsEntry("group", "PORTAL").containsEntry("server", "a")
                .containsEntry("reason", "balanced").containsEntry("status", 200L);
        assertThat((String) portal.get("target")).isEqualTo(a.url() + "/irj/portal/x?q=1");
        assertThat((String) portal.get("classification")).contains("logon group prefix /irj/portal");

        // the request's own cookies count: a session never seen would be bound, and is not
        HttpResponse<String> withCookie = admin.send(admin.request(
                "/jwd/admin/api/explain?url=/irj/x").header("Cookie", "JSESSIONID=never-seen").build());
        Map<String, Object> e = cast(ClientJson.parse(withCookie.body()));
        assertThat(e).containsEntry("reason", "session table bind");
        assertThat((Map<String, Object>) cast(e.get("session"))).containsEntry("jsessionid", "never-seen");

        Map<String, Object> root = admin.object("/jwd/admin/api/explain?url=/");
        assertThat(root).containsEntry("rule", "root");

        assertThat((Long) admin.server("a").get("served") + (Long) admin.server("b").get("served")).isEqualTo(served);
        assertThat(admin.object("/jwd/admin/api/sessiontable")).isEqualTo(table);
        assertThat(admin.get("/jwd/admin/api/explain").statusCode()).isEqualTo(400);
        assertThat(admin.get("/jwd/admin/api/explain?url=nopath").statusCode()).isEqualTo(400);
    }

    @Test
    void drainKeepsSessionsDisableStopsAllEnableBringsBack() {
        // a session bound to b, then b drained: the session stays, new requests go to a
        String cookie = "JSESSIONID=admin-it-drain";
        String bound = null;
        for (int i = 0; i < 10 && !"b".equals(bound); i++) {
            cookie = "JSESSIONID=admin-it-drain-" + i;
            bound = admin.through("/irj/drain", "Cookie", cookie).headers().firstValue("X-Served-By").orElseThrow();
        }
        assertThat(bound).isEqualTo("b");
        try {
            HttpResponse<String> drained = admin.act("b", "drain");
            assertThat(drained.statusCode()).isEqualTo(200);
            assertThat(drained.body()).contains("\"state\":\"drained\"");
            for (int i = 0; i < 4; i++) {
                assertThat(admin.through("/irj/drain", "Cookie", cookie).headers().firstValue("X-Served-By"))
                        .hasValue("b");
                assertThat(admin.through("/irj/drain").headers().firstValue("X-Served-By")).hasValue("a");
            }

            assertThat(admin.act("b", "disable").statusCode()).isEqualTo(200);
            assertThat(admin.server("b")).containsEntry("state", "disabled").containsEntry("admin_state", "disabled");
            assertThat(admin.through("/irj/drain", "Cookie", cookie).headers().firstValue("X-Served-By")).hasValue("a");
        } finally {
            assertThat(admin.act("b", "enable").statusCode()).isEqualTo(200);
        }
        assertThat(admin.server("b")).containsEntry("state", "up");
        assertThat(admin.act("nope", "drain").statusCode()).isEqualTo(404);
        assertThat(admin.act("b", "explode").statusCode()).isEqualTo(404);
    }

    @Test
    void actionsArePostOnlyAndRefusedAcrossSites() {
        String path = "/jwd/admin/api/servers/a/drain";
        HttpResponse<String> get = admin.get(path);
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");

        HttpResponse<String> noHeader = admin.send(admin.request(path).header("Origin", jwd.uri().toString())
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(noHeader.statusCode()).isEqualTo(403);
        assertThat(noHeader.body()).contains("X-Jwd-Admin");

        HttpResponse<String> foreign = admin.send(admin.request(path).header("X-Jwd-Admin", "1")
                .header("Origin", "http://evil.example").POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(foreign.statusCode()).isEqualTo(403);

        // what a cross-site form sends: a foreign Referer (or none) and no custom header
        HttpResponse<String> form = admin.send(admin.request(path).header("Referer", "http://evil.example/page")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("x=1")).build());
        assertThat(form.statusCode()).isEqualTo(403);

        HttpResponse<String> noOrigin = admin.send(admin.request(path).header("X-Jwd-Admin", "1")
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(noOrigin.statusCode()).isEqualTo(403);

        HttpResponse<String> sameSiteReferer = admin.send(admin.request("/jwd/admin/api/servers/a/enable")
                .header("X-Jwd-Admin", "1").header("Referer", jwd.uri("/jwd/admin/").toString())
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(sameSiteReferer.statusCode()).isEqualTo(200);
        assertThat(admin.server("a")).containsEntry("state", "up");

        HttpResponse<String> postOnRead = admin.send(admin.request("/jwd/admin/api/status")
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(postOnRead.statusCode()).isEqualTo(405);
    }

    @Test
    void registrationsAreCheckedAndConfiguredServersCannotRegister() {
        assertThat(admin.register("a", "{\"url\":\"http://127.0.0.1:1\",\"type\":\"j2ee\"}").statusCode())
                .isEqualTo(409);
        HttpResponse<String> bad = admin.register("n9", "{\"url\":\"ftp://x\",\"type\":\"j2ee\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("url = 'ftp://x': expected http://host:port");
        assertThat(admin.register("n9", "{not json").statusCode()).isEqualTo(400);
        assertThat(admin.send(admin.request("/jwd/admin/api/servers/n9").header("Content-Type", "text/plain")
                .PUT(HttpRequest.BodyPublishers.ofString("{}")).build()).statusCode()).isEqualTo(415);
        assertThat(admin.send(admin.request("/jwd/admin/api/servers/n9").header("Content-Type", "application/json")
                .header("Origin", "http://evil.example")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"url\":\"http://127.0.0.1:1\",\"type\":\"j2ee\"}"))
                .build()).statusCode()).isEqualTo(403);
        assertThat(admin.send(admin.request("/jwd/admin/api/servers/n9").DELETE().build()).statusCode())
                .isEqualTo(404);
        assertThat(admin.send(admin.request("/jwd/admin/api/servers/a").DELETE().build()).statusCode())
                .isEqualTo(409);
        assertThat(admin.list("/jwd/admin/api/servers")).extracting(s -> s.get("id")).containsExactly("a", "b");
    }

    @Test
    void repeatedWrongPasswordsAreSlowedDownForThatAddressOnly() throws Exception {
        // from 127.0.0.2, so that the other tests (from 127.0.0.1) are not slowed down
        String wrong = AdminClient.basic("admin", "guess");
        List<String> statuses = new ArrayList<>();
        String refused = null;
        for (int i = 0; i < 8 && refused == null; i++) {
            String response = AdminClient.rawGet(jwd.uri(), "127.0.0.2", "/jwd/admin/api/status", wrong);
            statuses.add(response.substring(9, 12));
            if (response.startsWith("HTTP/1.1 429")) {
                refused = response;
            }
        }
        assertThat(statuses).as("5 free failures, then 429").startsWith("401", "401", "401", "401", "401", "429");
        assertThat(refused).containsPattern("(?i)Retry-After: [1-9]");
        // even the right password is refused from there for now, without telling whether it was right
        String right = AdminClient.rawGet(jwd.uri(), "127.0.0.2", "/jwd/admin/api/status",
                AdminClient.basic(AdminClient.USER, AdminClient.PASSWORD));
        assertThat(right).startsWith("HTTP/1.1 429");
        // other addresses are served as usual
        assertThat(admin.get("/jwd/admin/api/status").statusCode()).isEqualTo(200);
        assertThat(jwd.log()).anyMatch(l -> l.contains("wrong admin credentials from 127.0.0.2"));
    }

    @Test
    void lgtstPrintsTheServersOfAGroupWithTheirQualityAndTheFavorite() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(JwdProcess.launcher().toString(), "lgtst",
                "--url", jwd.uri().toString(), "--group", "PORTAL", "--user", AdminClient.USER)
                .redirectErrorStream(true);
        pb.environment().put("JWD_ADMIN_PASSWORD", AdminClient.PASSWORD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out).contains("group PORTAL (logon group type B, j2ee servers, HTTP by weighted_round_robin)")
                .containsPattern("\\[a\\] \\[" + a.url() + "\\] \\[up\\] \\[capacity 1\\] \\[quality [0-9.]+\\]")
                .contains("favorite: [a] [" + a.url() + "] [TRUE]");

        pb.environment().put("JWD_ADMIN_PASSWORD", "wrong");
        Process wrong = pb.start();
        String refused = new String(wrong.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(wrong.waitFor()).isEqualTo(1);
        assertThat(refused).contains("refused the credentials");
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object o) {
        return (T) o;
    }

    static Duration seconds(int s) {
        return Duration.ofSeconds(s);
    }
}
