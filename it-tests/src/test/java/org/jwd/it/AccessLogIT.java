package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.demo.DemoBackend;
import org.openqa.selenium.json.Json;

/**
 * The access logs ({@code icm/HTTP/logging_<xx>}) through the distribution: each request's line names the server, the
 * group and the reason the routing decision gave (the {@code X-Jwd-Route} debug header says the same), files switch
 * by size, JSON lines parse, several handlers split the requests by prefix, each in its format, a log that cannot be
 * written fails the start naming the key, and no cookie value, session identifier or {@code Authorization} header
 * ever appears.
 */
@Timeout(180)
class AccessLogIT {
    /** jwd's own format: {@code %h %l %u %t "%r1" %s %b %L %{group}j %{server}j "%{reason}j" %{session}j ...} */
    private static final Pattern JWD_LINE = Pattern.compile("^127\\.0\\.0\\.1 - - \\[[^\\]]+] \"GET (\\S+) HTTP/1\\.1\""
            + " (\\d{3}) (\\d+) (\\d+) (\\S+) (\\S+) \"([^\"]*)\" (\\S+) (\\d+) (\\S+)$");
    private static final String AUTHORIZATION = "Basic c2VjcmV0LXVzZXI6c2VjcmV0LXB3";
    /** Every value a request below carries that must never reach the log. */
    private static final List<String> SECRETS = List.of("c2VjcmV0", "it-bind-1", "it-path-2", "(J2EE200)201",
            "SID:ANON", "ctx-secret");

    /** SAP's default format, CLF: {@code %h %l %u %t "%r" %s %b} */
    private static final Pattern CLF_LINE = Pattern.compile("^127\\.0\\.0\\.1 - - \\[[^\\]]+] \"GET (\\S+) HTTP/1\\.1\""
            + " 200 \\d+$");

    private static String landscape(DemoBackend j1, DemoBackend j2, DemoBackend abap1, String logging) {
        return landscapeWith(j1, j2, abap1, "icm/HTTP/logging_0=" + logging);
    }

    /** @param logging the icm/HTTP/logging_<xx> lines */
    private static String landscapeWith(DemoBackend j1, DemoBackend j2, DemoBackend abap1, String logging) {
        return """
                server.j1.url=%s
                server.j1.type=j2ee
                server.j1.lb_id=101
                server.j1.logon_groups=PORTAL
                server.j2.url=%s
                server.j2.type=j2ee
                server.j2.lb_id=201
                server.j2.logon_groups=PORTAL
                server.abap1.url=%s
                server.abap1.type=abap
                server.abap1.name=h1_JWD_00
                icf.url_prefixes=/sap/
                logon_group.PORTAL.url_prefixes=/irj
                SessionTableTimeout=60s
                health.interval=1h
                jwd.debug_headers=true
                %s
                """.formatted(j1.url(), j2.url(), abap1.url(), logging);
    }

    @Test
    void writesOneLinePerRequestWithTheServerGroupAndReasonOfItsRoutingDecision(@TempDir Path dir)
            throws IOException {
        try (DemoBackend j1 = DemoBackend.start(DemoBackend.Options.j2ee("j1").withInstance("J2EE100").withNode("101"));
             DemoBackend j2 = DemoBackend.start(DemoBackend.Options.j2ee("j2").withInstance("J2EE200").withNode("201"));
             DemoBackend abap1 = DemoBackend.start(DemoBackend.Options.abap("abap1").withName("h1_JWD_00"));
             JwdProcess jwd = JwdProcess.start(landscape(j1, j2, abap1, "PREFIX=/, LOGFILE=" + dir
                     + "/access-%y-%m-%d, LOGFORMAT=JWD"))) {
            AdminClient client = new AdminClient(jwd);
            List<String[]> sent = new ArrayList<>();
            sent.add(request(client, "/irj/first", null, "balanced"));
            sent.add(request(client, "/irj/saplb", "saplb_PORTAL=(J2EE200)201", "saplb cookie"));
            sent.add(request(client, "/irj/bind", "JSESSIONID=it-bind-1", "session table bind"));
            sent.add(request(client, "/irj/again", "JSESSIONID=it-bind-1", "session table"));
            sent.add(request(client, "/irj/path;jsessionid=it-path-2", null, "session table bind"));
            sent.add(request(client, "/sap/bc/ping", "sap-contextid=SID%3aANON%3ah1_JWD_00%3actx-secret-NEW",
                    "sap-contextid"));

            Path file = onlyFile(dir);
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.readAllLines(file).size() == sent.size());
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < sent.size(); i++) {
                Matcher m = JWD_LINE.matcher(lines.get(i));
                assertThat(m.matches()).as("a line of jwd's format: %s", lines.get(i)).isTrue();
                String route = sent.get(i)[1];
                // the line names a server by its SAP name where its id is not that name (abap1 is h1_JWD_00)
                String reason = m.group(7).replace(" (SAP name h1_JWD_00)", "");
                assertThat(route).isEqualTo("group=" + m.group(5) + "; server=" + m.group(6) + "; reason=" + reason);
                assertThat(reason).isEqualTo(sent.get(i)[2]);
                assertThat(m.group(2)).isEqualTo("200");
                assertThat(Long.parseLong(m.group(3))).as("bytes of the body").isPositive();
                assertThat(m.group(10)).as("milliseconds to the server's first byte").matches("\\d+");
            }
            assertThat(lines.get(1)).contains(" PORTAL j2 \"saplb cookie\" ");
            assertThat(lines.get(5)).contains(" !DIAG abap1 \"sap-contextid (SAP name h1_JWD_00)\" ");
            // the session column: the same JSESSIONID gives the same hash, a request without one gives '-'
            assertThat(field(lines.get(0), 8)).isEqualTo("-");
            assertThat(field(lines.get(2), 8)).isEqualTo(field(lines.get(3), 8)).matches("[0-9a-f]{8}");
            assertThat(lines.get(4)).contains("\"GET /irj/path;jsessionid=* HTTP/1.1\"");
            assertNoSecrets(lines);
        }
    }

    @Test
    void writesJsonLinesIntoFilesOfAtMostMaxsizekb(@TempDir Path dir) throws IOException {
        try (DemoBackend j1 = DemoBackend.start(DemoBackend.Options.j2ee("j1").withInstance("J2EE100").withNode("101"));
             DemoBackend j2 = DemoBackend.start(DemoBackend.Options.j2ee("j2").withInstance("J2EE200").withNode("201"));
             DemoBackend abap1 = DemoBackend.start(DemoBackend.Options.abap("abap1").withName("h1_JWD_00"));
             JwdProcess jwd = JwdProcess.start(landscape(j1, j2, abap1, "LOGFILE=" + dir
                     + "/access.json, LOGFORMAT=JSON, MAXSIZEKB=1"))) {
            AdminClient client = new AdminClient(jwd);
            int requests = 20;
            for (int i = 0; i < requests; i++) {
                assertThat(client.through("/irj/json" + i, "Cookie", "JSESSIONID=it-bind-1",
                        "Authorization", AUTHORIZATION).statusCode()).isEqualTo(200);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> lines(dir).size() == requests);

            List<Path> files = files(dir);
            assertThat(files.size()).as("files: %s", files).isGreaterThanOrEqualTo(4);
            assertThat(files.get(0).getFileName().toString()).isEqualTo("access.json");
            assertThat(files.get(1).getFileName().toString()).isEqualTo("access.json_0");
            for (Path f : files) {
                assertThat(Files.size(f)).as("%s", f).isLessThanOrEqualTo(1024);
            }
            Json json = new Json();
            for (String line : lines(dir)) {
                Map<String, Object> object = json.toType(line, Json.MAP_TYPE);
                assertThat(object).containsEntry("group", "PORTAL").containsEntry("status", 200L)
                        .containsKeys("server", "reason", "session", "wait_ms", "duration_ms", "time");
                assertThat((String) object.get("uri")).startsWith("/irj/json");
            }
            assertNoSecrets(lines(dir));
        }
    }

    /**
     * Three handlers as an SAP profile writes them: the ABAP requests in SAP's default format, the portal's in jwd's,
     * and Solution Manager Diagnostics' requests (those with an X-CorrelationID, whatever their path) in SAPSMD, with
     * the options of SAP's setup line. Every handler whose prefix and filter take a request writes it.
     */
    @Test
    void severalHandlersSplitTheRequestsByPrefixEachInItsFormat(@TempDir Path dir) throws IOException {
        String logging = """
                icm/HTTP/logging_0=PREFIX=/sap/, LOGFILE=%1$s/abap.log
                icm/HTTP/logging_1=PREFIX=/irj/, LOGFILE=%1$s/portal.log, LOGFORMAT=JWD, FLUSH=FALSE
                icm/HTTP/logging_2=PREFIX=/,LOGFILE=%1$s/icmhttph.log,FILTER=SAPSMD,LOGFORMAT=SAPSMD,MAXSIZEKB=10240,\
                FILEWRAP=on,SWITCHTF=month
                """.formatted(dir);
        try (DemoBackend j1 = DemoBackend.start(DemoBackend.Options.j2ee("j1").withInstance("J2EE100").withNode("101"));
             DemoBackend j2 = DemoBackend.start(DemoBackend.Options.j2ee("j2").withInstance("J2EE200").withNode("201"));
             DemoBackend abap1 = DemoBackend.start(DemoBackend.Options.abap("abap1").withName("h1_JWD_00"));
             JwdProcess jwd = JwdProcess.start(landscapeWith(j1, j2, abap1, logging) + AdminClient.CONFIG)) {
            AdminClient client = new AdminClient(jwd);
            assertThat(client.through("/sap/bc/ping?sap-client=001").statusCode()).isEqualTo(200);
            assertThat(client.through("/irj/portal").statusCode()).isEqualTo(200);
            assertThat(client.through("/irj/traced", "X-CorrelationID", "A7594F39ED9F7C41BABA7397F8070718-1-5")
                    .statusCode()).isEqualTo(200);

            Path abap = dir.resolve("abap.log");
            Path portal = dir.resolve("portal.log");
            Path smd = dir.resolve("icmhttph.log");
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.readAllLines(abap).size() == 1
                    && Files.readAllLines(portal).size() == 2 && Files.readAllLines(smd).size() == 1);
            assertThat(Files.readAllLines(abap).get(0)).matches(CLF_LINE)
                    .contains("\"GET /sap/bc/ping?sap-client=001 HTTP/1.1\"");
            assertThat(Files.readAllLines(portal)).allSatisfy(l -> assertThat(l).matches(JWD_LINE))
                    .satisfiesExactly(l -> assertThat(l).contains("GET /irj/portal "),
                            l -> assertThat(l).contains("GET /irj/traced "));
            assertThat(Files.readAllLines(smd).get(0)).matches("^\\[[^\\]]+] - \"GET /irj/traced HTTP/1\\.1\" 200 \\d+"
                    + " \\[\\d+] h\\[A7594F39ED9F7C41BABA7397F8070718-1-5]$");
            assertThat(files(dir)).hasSize(3);
            assertThat(client.object("/jwd/admin/api/status").get("access_log")).asString()
                    .contains("icm/HTTP/logging_0", "icm/HTTP/logging_1", "icm/HTTP/logging_2", "icmhttph.log");
        }
    }

    @Test
    void twoHandlersWritingOneFileFailTheStartNamingBoth(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("jwd.properties");
        Files.writeString(config, """
                server.a.url=http://127.0.0.1:1
                server.a.type=j2ee
                icm/HTTP/logging_0=PREFIX=/sap/, LOGFILE=%1$s/access.log
                icm/HTTP/logging_1=PREFIX=/irj/, LOGFILE=%1$s/access.log, LOGFORMAT=JWD
                icm/HTTP/logging_2=PREFIX=/, LOGFILE=%1$s/smd.log, LOGFORMAT=SAPSMD2
                """.formatted(dir));

        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(120), "check", "--config",
                config.toString());

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("icm/HTTP/logging_1: LOGFILE = '" + dir + "/access.log':"
                + " icm/HTTP/logging_0 writes that file", "icm/HTTP/logging_2: LOGFORMAT = 'SAPSMD2'");
    }

    @Test
    void aLogFileThatCannotBeWrittenFailsTheStartNamingTheKey(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("jwd.properties");
        Files.writeString(config, """
                server.a.url=http://127.0.0.1:1
                server.a.type=j2ee
                icm/HTTP/logging_0=PREFIX=/, LOGFILE=%s/missing/access-%%y
                """.formatted(dir));

        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(120), "run", "--config", config.toString(),
                "--port", "0", "--host", "127.0.0.1");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("icm/HTTP/logging_0: LOGFILE = '" + dir + "/missing/access-%y'",
                "does not exist");
        assertThat(result.output()).doesNotContain("jwd: ready");
    }

    /** Sends one request and returns its path, its X-Jwd-Route header and the reason expected. */
    private static String[] request(AdminClient client, String path, String cookie, String reason) {
        List<String> headers = new ArrayList<>(List.of("Authorization", AUTHORIZATION));
        if (cookie != null) {
            headers.addAll(List.of("Cookie", cookie));
        }
        HttpResponse<String> r = client.through(path, headers.toArray(String[]::new));
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        String route = r.headers().firstValue("X-Jwd-Route").orElseThrow();
        assertThat(route).as(path).endsWith("reason=" + reason);
        return new String[] {path, route, reason};
    }

    private static String field(String line, int group) {
        Matcher m = JWD_LINE.matcher(line);
        assertThat(m.matches()).isTrue();
        return m.group(group);
    }

    private static void assertNoSecrets(List<String> lines) {
        for (String line : lines) {
            for (String secret : SECRETS) {
                assertThat(line).doesNotContain(secret);
            }
        }
    }

    private static Path onlyFile(Path dir) throws IOException {
        await().atMost(Duration.ofSeconds(30)).until(() -> files(dir).size() == 1);
        return files(dir).get(0);
    }

    /** The log's files, in the order they were written: the name, then _0, _1, ... */
    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted((a, b) -> {
                String x = a.getFileName().toString();
                String y = b.getFileName().toString();
                return x.length() != y.length() ? Integer.compare(x.length(), y.length()) : x.compareTo(y);
            }).toList();
        }
    }

    private static List<String> lines(Path dir) throws IOException {
        List<String> all = new ArrayList<>();
        for (Path f : files(dir)) {
            all.addAll(Files.readAllLines(f));
        }
        return all;
    }
}
