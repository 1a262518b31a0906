package org.jwd.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Checks that {@link DemoBackend} behaves like the SAP server process the dispatcher tests assume. */
class DemoBackendIT {

    private static final Pattern COUNT = Pattern.compile("<span id=\"count\">(\\d+)</span>");

    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    private final List<DemoBackend> started = new ArrayList<>();

    @AfterEach
    void stopAll() {
        started.forEach(DemoBackend::stop);
    }

    private DemoBackend start(DemoBackend.Options options) {
        DemoBackend b = DemoBackend.start(options);
        started.add(b);
        return b;
    }

    private HttpResponse<String> get(DemoBackend b, String path, String... cookies) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(b.uri(path)).timeout(Duration.ofSeconds(30));
        if (cookies.length > 0) {
            r.header("Cookie", String.join("; ", cookies));
        }
        return client.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> setCookies(HttpResponse<?> r) {
        return r.headers().allValues("Set-Cookie");
    }

    private static Optional<String> setCookie(HttpResponse<?> r, String name) {
        return setCookies(r).stream().filter(c -> c.startsWith(name + "=")).findFirst();
    }

    private static String cookieValue(String setCookie) {
        String nv = setCookie.split(";", 2)[0];
        return nv.substring(nv.indexOf('=') + 1);
    }

    private static long count(HttpResponse<String> r) {
        Matcher m = COUNT.matcher(r.body());
        assertThat(m.find()).as("count span in %s", r.body()).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void j2eeFirstRequestGetsJsessionidAndSaplbAndKeepsItsSession() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("server1").withInstance("J2EE1234500"));

        HttpResponse<String> first = get(b, "/irj/echo?x=1");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("X-Served-By")).hasValue("server1");
        assertThat(first.headers().firstValue("X-Server-Type")).hasValue("j2ee");
        String jsession = setCookie(first, "JSESSIONID").orElseThrow();
        assertThat(jsession).matches("JSESSIONID=[0-9a-f]{32}; Path=/; HttpOnly");
        assertThat(setCookies(first)).contains("saplb_*=(J2EE1234500)server1; Path=/");
        assertThat(b.saplbValue()).isEqualTo("(J2EE1234500)server1");
        String sid = cookieValue(jsession);
        assertThat(first.body()).contains("\"server\":\"server1\"", "\"path\":\"/irj/echo\"", "\"query\":\"x=1\"",
                "\"session\":\"" + sid + "\"", "\"newSession\":true");

        HttpResponse<String> second = get(b, "/sap/bc/echo", "JSESSIONID=" + sid, "saplb_*=(J2EE1234500)server1");
        assertThat(setCookies(second)).isEmpty();
        assertThat(second.body()).contains("\"path\":\"/sap/bc/echo\"", "\"session\":\"" + sid + "\"",
                "\"newSession\":false", "\"saplb_*\":\"(J2EE1234500)server1\"", "\"bodyBytes\":0");
        assertThat(b.sessionCount()).isEqualTo(1);
    }

    @Test
    void unknownJsessionidGetsANewSessionUnderTheSameId() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("s2"));

        HttpResponse<String> r = get(b, "/anything", "JSESSIONID=sharedSessionId42");
        assertThat(setCookies(r)).containsExactly("JSESSIONID=sharedSessionId42; Path=/; HttpOnly",
                "saplb_*=" + b.saplbValue() + "; Path=/");
        assertThat(r.body()).contains("served by", "s2", "/anything");
        assertThat(b.hasSession("sharedSessionId42")).isTrue();

        HttpResponse<String> viaPath = get(b, "/irj/echo;jsessionid=fromThePath?a=b");
        assertThat(setCookie(viaPath, "JSESSIONID")).hasValue("JSESSIONID=fromThePath; Path=/; HttpOnly");
        assertThat(viaPath.body()).contains("\"path\":\"/irj/echo;jsessionid=fromThePath\"", "\"query\":\"a=b\"");
        assertThat(b.requestCount("/irj/echo")).isEqualTo(1);
    }

    @Test
    void iviewCounterLivesInTheSessionAndRestartsOnAFreshBackend() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("s3"));
        HttpResponse<String> first = get(b, "/iview/a");
        assertThat(count(first)).isZero();
        String sid = cookieValue(setCookie(first, "JSESSIONID").orElseThrow());
        assertThat(first.body()).contains("<span id=\"server\">s3</span>", "<span id=\"session\">" + sid + "</span>",
                "<a id=\"click\" href=\"?click=1\">click</a>");

        for (int i = 1; i <= 3; i++) {
            assertThat(count(get(b, "/iview/a?click=1", "JSESSIONID=" + sid))).isEqualTo(i);
        }
        assertThat(count(get(b, "/irj/iview/a", "JSESSIONID=" + sid))).isEqualTo(3);
        assertThat(count(get(b, "/iview/b", "JSESSIONID=" + sid))).isZero();
        assertThat(b.requestCount("/iview/a")).isEqualTo(4);

        DemoBackend other = start(DemoBackend.Options.j2ee("s4"));
        HttpResponse<String> elsewhere = get(other, "/iview/a?click=1", "JSESSIONID=" + sid);
        assertThat(count(elsewhere)).isEqualTo(1);
        assertThat(setCookies(elsewhere)).contains("JSESSIONID=" + sid + "; Path=/; HttpOnly",
                "saplb_*=" + other.saplbValue() + "; Path=/");
        assertThat(elsewhere.body()).contains("<span id=\"server\">s4</span>");

        b.clearSessions();
        assertThat(count(get(b, "/iview/a", "JSESSIONID=" + sid))).isZero();
    }

    @Test
    void abapSetsSapContextidAndAnswersPing() throws Exception {
        DemoBackend b = start(DemoBackend.Options.abap("abap1").withName("host_SID_00"));

        HttpResponse<String> first = get(b, "/sap/bc/gui/sap/its/webgui");
        assertThat(first.headers().firstValue("X-Server-Type")).hasValue("abap");
        assertThat(setCookies(first)).hasSize(1);
        String ctx = setCookie(first, "sap-contextid").orElseThrow();
        assertThat(ctx).matches("sap-contextid=SID%3aANON%3ahost_SID_00%3a\\d+-NEW; Path=/");

        HttpResponse<String> second = get(b, "/sap/bc/echo", "sap-contextid=" + cookieValue(ctx));
        assertThat(setCookies(second)).isEmpty();
        assertThat(second.body()).contains("\"session\":\"" + cookieValue(ctx) + "\"", "\"newSession\":false");

        HttpResponse<String> another = get(b, "/sap/bc/echo");
        assertThat(cookieValue(setCookie(another, "sap-contextid").orElseThrow())).isNotEqualTo(cookieValue(ctx));

        HttpResponse<String> ping = get(b, "/sap/public/icman/ping");
        assertThat(ping.statusCode()).isEqualTo(200);
        assertThat(ping.body().trim()).isEqualTo("OK");
        assertThat(setCookies(ping)).isEmpty();
    }

    @Test
    void uploadOfFiveMegabytesReportsByteCountAndCrc() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("up"));
        byte[] data = new byte[5 * 1024 * 1024 + 17];
        new Random(42).nextBytes(data);
        CRC32 crc = new CRC32();
        crc.update(data);

        HttpResponse<String> r = client.send(HttpRequest.newBuilder(b.uri("/sap/bc/upload"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(data)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"server\":\"up\"", "\"bytes\":" + data.length,
                String.format("\"crc32\":\"%08x\"", crc.getValue()));

        HttpResponse<String> put = client.send(HttpRequest.newBuilder(b.uri("/upload"))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(data, 0, 1000)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.body()).contains("\"bytes\":1000");

        assertThat(get(b, "/upload").statusCode()).isEqualTo(405);
    }

    @Test
    void downloadStreamsTheDeterministicPattern() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("down"));
        long n = 3 * 1024 * 1024 + 12345;
        HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(b.uri("/irj/download?bytes=" + n)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.headers().firstValueAsLong("Content-Length")).hasValue(n);
        CRC32 crc = new CRC32();
        CRC32 expected = new CRC32();
        long total = 0;
        try (InputStream in = r.body()) {
            byte[] buf = new byte[8192];
            for (int k; (k = in.read(buf)) >= 0; ) {
                for (int i = 0; i < k; i++) {
                    assertThat(buf[i] & 0xff).isEqualTo(DemoBackend.patternByte(total + i));
                    expected.update((int) (((total + i) * 31 + 7) & 0xff));
                }
                crc.update(buf, 0, k);
                total += k;
            }
        }
        assertThat(total).isEqualTo(n);
        assertThat(crc.getValue()).isEqualTo(expected.getValue());
        assertThat(String.format("%08x", crc.getValue())).isEqualTo(DemoBackend.patternCrc32(n));

        assertThat(get(b, "/download?bytes=0").body()).isEmpty();
    }

    @Test
    void portalSetsJsessionidWithoutSaplb() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("portal1"));
        for (String path : List.of("/portal", "/portal/", "/irj/portal")) {
            HttpResponse<String> r = get(b, path);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(setCookies(r)).hasSize(1);
            assertThat(setCookies(r).get(0)).matches("JSESSIONID=[0-9a-f]{32}; Path=/");
            assertThat(r.body()).contains("portal1");
        }
        HttpResponse<String> portal = get(b, "/portal");
        assertThat(portal.body()).contains("<iframe id=\"iviewA\" name=\"iviewA\" src=\"/iview/a\"",
                "<iframe id=\"iviewB\" name=\"iviewB\" src=\"/iview/b\"");
        assertThat(get(b, "/irj/portal").body()).contains("src=\"/irj/iview/a\"");

        String sid = cookieValue(setCookies(portal).get(0));
        assertThat(setCookies(get(b, "/portal", "JSESSIONID=" + sid))).isEmpty();
        // The portal created the session here, so the iView on the same node needs no new cookies.
        HttpResponse<String> iview = get(b, "/iview/a", "JSESSIONID=" + sid);
        assertThat(setCookies(iview)).isEmpty();

        DemoBackend abap = start(DemoBackend.Options.abap("abapPortal"));
        assertThat(setCookies(get(abap, "/portal"))).singleElement().asString().startsWith("JSESSIONID=");
    }

    @Test
    void offersThePortalPageWithoutTheTemporarySessionTableOnlyWhenStartedWithTheRacePage() throws Exception {
        DemoBackend plain = start(DemoBackend.Options.j2ee("plain"));
        DemoBackend race = start(DemoBackend.Options.j2ee("race").withRacePage(true));

        assertThat(get(plain, "/portal").body()).doesNotContain("id=\"switch\"", "?without-table");
        assertThat(get(plain, "/portal?without-table").body()).as("ignored: nothing sends its iViews elsewhere")
                .contains("data-variant=\"with-table\"", "src=\"/iview/a\"").doesNotContain("without-table/iview");
        assertThat(get(race, "/portal").body()).contains("<a id=\"switch\" href=\"/portal?without-table\">");
        assertThat(get(race, "/portal?without-table").body())
                .contains("data-variant=\"without-table\"", "src=\"/without-table/iview/a\"");
    }

    @Test
    void statusEndpointAndPathMatching() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("st"));
        assertThat(get(b, "/status?code=503").statusCode()).isEqualTo(503);
        HttpResponse<String> r = get(b, "/sap/bc/status?code=204");
        assertThat(r.statusCode()).isEqualTo(204);
        assertThat(r.headers().firstValue("X-Served-By")).hasValue("st");
        HttpResponse<String> redirect = get(b, "/status?code=302&location=/elsewhere");
        assertThat(redirect.statusCode()).isEqualTo(302);
        assertThat(redirect.headers().firstValue("Location").orElseThrow()).endsWith("/elsewhere");
        assertThat(get(b, "/status?code=abc").statusCode()).isEqualTo(400);
        assertThat(get(b, "/some/thing").body()).contains("served by <span id=\"server\">st</span> (j2ee) path");
        assertThat(b.requestCount()).isEqualTo(5);
        assertThat(b.requestCounts()).containsEntry("/status", 3L);
    }

    @Test
    void echoReportsMethodHeadersAndBody() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("ec"));
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(b.uri("/x/echo"))
                .header("X-Test", "a\"b")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("hello"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        assertThat(r.body()).startsWith("{\"server\":\"ec\",\"method\":\"PATCH\",\"path\":\"/x/echo\",\"query\":null,")
                .contains("\"X-Test\":[\"a\\\"b\"]", "\"bodyBytes\":5");
    }

    @Test
    void delayIsChangeableAtRuntimeAndDoesNotSerializeRequests() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("slow").withDelayMillis(0));
        long t0 = System.nanoTime();
        get(b, "/echo");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(400));

        b.setDelayMillis(500);
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        t0 = System.nanoTime();
        for (int i = 0; i < 48; i++) {
            all.add(client.sendAsync(HttpRequest.newBuilder(b.uri("/echo?i=" + i)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> f : all) {
            assertThat(f.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(500)).isLessThan(Duration.ofMillis(3000));
        assertThat(b.requestCount("/echo")).isEqualTo(49);
        await().atMost(Duration.ofSeconds(5)).until(() -> b.inFlight() == 0);
    }

    @Test
    void iviewDelayAppliesToIviewsOnlyAndOverlaps() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("iv").withIviewDelayMillis(400));
        long t0 = System.nanoTime();
        get(b, "/portal");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(350));
        t0 = System.nanoTime();
        CompletableFuture<HttpResponse<String>> a = client.sendAsync(
                HttpRequest.newBuilder(b.uri("/iview/a")).build(), HttpResponse.BodyHandlers.ofString());
        CompletableFuture<HttpResponse<String>> c = client.sendAsync(
                HttpRequest.newBuilder(b.uri("/iview/b")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(a.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(c.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isBetween(Duration.ofMillis(400), Duration.ofMillis(750));
        b.setIviewDelayMillis(0);
        t0 = System.nanoTime();
        get(b, "/iview/a");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(350));
    }

    @Test
    void stopDoesNotWaitForSleepingRequestsAndPortCanBeReused() throws Exception {
        DemoBackend b = start(DemoBackend.Options.j2ee("stuck").withDelayMillis(60_000));
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            all.add(client.sendAsync(HttpRequest.newBuilder(b.uri("/echo")).build(), HttpResponse.BodyHandlers.ofString()));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> b.inFlight() == 5);
        long t0 = System.nanoTime();
        b.stop();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));
        assertThat(b.isRunning()).isFalse();
        assertThat(b.requestCount()).isZero();

        DemoBackend again = start(DemoBackend.Options.j2ee("stuck").withPort(b.port()));
        assertThat(get(again, "/echo").statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> start(DemoBackend.Options.j2ee("clash").withPort(again.port())))
                .isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("clash");
    }

    @Test
    void optionsParsingNamesTheBadOption() {
        DemoBackend.Options o = DemoBackend.Options.parse("--id", "n1", "--port=0", "--type", "abap",
                "--delay-ms", "5", "--iview-delay-ms", "7", "--name", "host_SID_00", "--race-page", "yes");
        assertThat(o.type()).isEqualTo(DemoBackend.ServerType.ABAP);
        assertThat(o.racePage()).isTrue();
        assertThat(DemoBackend.Options.parse("--id", "n1").racePage()).isFalse();
        assertThat(o.delayMillis()).isEqualTo(5);
        assertThat(o.iviewDelayMillis()).isEqualTo(7);
        assertThat(o.host()).isEqualTo("127.0.0.1");
        assertThat(o.node()).isEqualTo("n1");
        assertThat(o.instance()).matches("J2EE\\d{7}");
        assertThatThrownBy(() -> DemoBackend.Options.parse("--id", "x", "--bogus", "1")).hasMessageContaining("--bogus");
        assertThatThrownBy(() -> DemoBackend.Options.parse("--id", "x", "--port", "abc")).hasMessageContaining("--port");
        assertThatThrownBy(() -> DemoBackend.Options.parse("--port", "1")).hasMessageContaining("--id");
        assertThatThrownBy(() -> DemoBackend.Options.parse("--id", "x", "--type", "cobol")).hasMessageContaining("--type");
        assertThatThrownBy(() -> DemoBackend.Options.parse("--id", "x", "--race-page", "true"))
                .hasMessage("option --race-page must be yes or no, not 'true'");
    }

    @Test
    void runsAsAProcessPrintsReadyLineAndStopsOnSigterm() throws Exception {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                DemoBackend.class.getName(), "--id", "proc1", "--type", "abap")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).matches("demo backend proc1 ready on http://127\\.0\\.0\\.1:\\d+/");
            URI uri = URI.create(line.substring(line.indexOf("http://")) + "sap/public/icman/ping");
            HttpResponse<String> ping = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ping.body().trim()).isEqualTo("OK");
            assertThat(ping.headers().firstValue("X-Served-By")).hasValue("proc1");
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }

        Process bad = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                DemoBackend.class.getName(), "--id", "x", "--frobnicate", "1").start();
        assertThat(bad.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(bad.exitValue()).isEqualTo(2);
        assertThat(new String(bad.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).contains("--frobnicate");
    }
}
