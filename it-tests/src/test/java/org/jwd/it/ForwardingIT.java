package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The foundation through the real Jetty distribution: two J2EE server processes behind jwd. The dispatcher
 * runs with a 64 MB heap, so bodies that were held in memory instead of streamed would not fit.
 */
class ForwardingIT {
    private static final int MB = 1024 * 1024;
    private static DemoBackend a;
    private static DemoBackend b;
    private static JwdProcess jwd;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() {
        a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
        jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                server.b.url=%s
                server.b.type=j2ee
                """.formatted(a.url(), b.url()), Map.of("JWD_JAVA_OPTS", "-Xmx64m"));
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
    void getRoundTripsHeadersQueryAndCookies() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo?x=1&y=%20z"))
                .header("X-Test", "value 1").header("Cookie", "c1=v1; c2=v2").GET().build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        String body = response.body();
        assertThat(body).contains("\"method\":\"GET\"", "\"path\":\"/irj/echo\"", "\"query\":\"x=1&y=%20z\"")
                .containsIgnoringCase("\"x-test\":[\"value 1\"]")
                .contains("\"c1\":\"v1\"", "\"c2\":\"v2\"");
        // The server's cookies reach the client unchanged.
        assertThat(response.headers().allValues("Set-Cookie"))
                .anySatisfy(c -> assertThat(c).startsWith("JSESSIONID="))
                .anySatisfy(c -> assertThat(c).startsWith("saplb_*=(J2EE"));
    }

    @Test
    void postRoundTripsTheBody() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo"))
                .POST(HttpRequest.BodyPublishers.ofString("hello dispatcher")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"method\":\"POST\"", "\"bodyBytes\":16");
    }

    @Test
    void addsForwardedHeadersAndIgnoresTheClientsOwn() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo"))
                .header("X-Forwarded-For", "6.6.6.6").header("X-Forwarded-Host", "evil.example")
                .header("Forwarded", "for=6.6.6.6").GET().build(), HttpResponse.BodyHandlers.ofString());

        String body = response.body().toLowerCase();
        // SAP's default: no X-Forwarded-For unless wdisp/add_xforwardedfor_header, and never the client's
        assertThat(body).contains("\"x-forwarded-proto\":[\"http\"]",
                "\"x-forwarded-host\":[\"127.0.0.1:" + jwd.port() + "\"]").doesNotContain("x-forwarded-for");
        assertThat(body).doesNotContain("6.6.6.6", "evil.example");
    }

    @Test
    void neverMixesCookiesBetweenClients() throws Exception {
        HttpResponse<String> first = http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo"))
                .header("Cookie", "secret=alice").GET().build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> second = http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo")).GET().build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(first.body()).contains("alice");
        assertThat(second.body()).doesNotContain("alice").contains("\"cookies\":{}");
    }

    @Test
    void requestsAlternateBetweenTheTwoServers() throws Exception {
        List<String> servedBy = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            servedBy.add(http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).GET().build(),
                    HttpResponse.BodyHandlers.discarding()).headers().firstValue("X-Served-By").orElseThrow());
        }
        for (int i = 1; i < servedBy.size(); i++) {
            assertThat(servedBy.get(i)).as("request %d of %s", i, servedBy).isNotEqualTo(servedBy.get(i - 1));
        }
    }

    @Test
    void streamsTwentyMegabyteBodiesBothWaysInASmallHeap() throws Exception {
        int size = 20 * MB;
        byte[] upload = new byte[size];
        for (int i = 0; i < size; i++) {
            upload[i] = (byte) DemoBackend.patternByte(i);
        }
        CRC32 crc = new CRC32();
        crc.update(upload);
        String expectedCrc = String.format("%08x", crc.getValue());

        // Three uploads and three downloads at once: 120 MB through a dispatcher whose heap is 64 MB.
        List<CompletableFuture<HttpResponse<String>>> uploads = new ArrayList<>();
        List<CompletableFuture<HttpResponse<InputStream>>> downloads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            uploads.add(http.sendAsync(HttpRequest.newBuilder(jwd.uri("/irj/upload"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(upload)).build(), HttpResponse.BodyHandlers.ofString()));
            downloads.add(http.sendAsync(HttpRequest.newBuilder(jwd.uri("/irj/download?bytes=" + size)).build(),
                    HttpResponse.BodyHandlers.ofInputStream()));
        }
        for (CompletableFuture<HttpResponse<InputStream>> d : downloads) {
            HttpResponse<InputStream> response = d.join();
            assertThat(response.statusCode()).isEqualTo(200);
            CRC32 got = new CRC32();
            long n = 0;
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = response.body()) {
                for (int r; (r = in.read(buffer)) > 0; n += r) {
                    got.update(buffer, 0, r);
                }
            }
            assertThat(n).isEqualTo(size);
            assertThat(String.format("%08x", got.getValue())).isEqualTo(DemoBackend.patternCrc32(size));
        }
        for (CompletableFuture<HttpResponse<String>> u : uploads) {
            assertThat(u.join().body()).contains("\"bytes\":" + size, expectedCrc);
        }
        assertThat(jwd.isAlive()).isTrue();
        assertThat(jwd.log()).noneMatch(line -> line.contains("OutOfMemoryError"));
    }

    static URI uri(String s) {
        return URI.create(s);
    }
}
