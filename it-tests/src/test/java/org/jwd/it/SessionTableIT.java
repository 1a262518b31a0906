package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The temporary session table through the real dispatcher: concurrent first requests of one session land on
 * one server, and stickiness by every session identifier the servers use.
 */
class SessionTableIT {
    private static DemoBackend a;
    private static DemoBackend b;
    private static DemoBackend c;
    private static DemoBackend abap1;
    private static DemoBackend abap2;
    private static JwdProcess jwd;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(32)).build();

    @BeforeAll
    static void start() {
        a = DemoBackend.start(DemoBackend.Options.j2ee("a").withInstance("J2EE1000100").withNode("100"));
        b = DemoBackend.start(DemoBackend.Options.j2ee("b").withInstance("J2EE1000200").withNode("200"));
        c = DemoBackend.start(DemoBackend.Options.j2ee("c").withInstance("J2EE1000300").withNode("300"));
        abap1 = DemoBackend.start(DemoBackend.Options.abap("abap1").withName("h1_JWD_00"));
        abap2 = DemoBackend.start(DemoBackend.Options.abap("abap2").withName("h2_JWD_01"));
        jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                server.a.lb_id=(J2EE1000100)100
                server.a.route=ra
                server.b.url=%s
                server.b.type=j2ee
                server.b.lb_id=200
                server.b.route=rb
                server.c.url=%s
                server.c.type=j2ee
                server.c.lb_id=300
                server.c.route=rc
                server.abap1.url=%s
                server.abap1.type=abap
                server.abap1.name=h1_JWD_00
                server.abap2.url=%s
                server.abap2.type=abap
                server.abap2.name=h2_JWD_01
                icf.url_prefixes=/sap/
                SessionTableTimeout=60s
                jwd.debug_headers=true
                """.formatted(a.url(), b.url(), c.url(), abap1.url(), abap2.url()));
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        for (DemoBackend backend : List.of(a, b, c, abap1, abap2)) {
            backend.close();
        }
    }

    private static String servedBy(String path, String cookie) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(jwd.uri(path));
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        HttpResponse<Void> response = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.headers().firstValue("X-Served-By").orElseThrow();
    }

    @Test
    void concurrentFirstRequestsOfOneSessionLandOnOneServer() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(32);
        try {
            List<String> split = new ArrayList<>();
            Map<String, Integer> perServer = new ConcurrentHashMap<>();
            for (int id = 0; id < 400; id++) {
                String jsessionid = UUID.randomUUID().toString().replace("-", "");
                CyclicBarrier barrier = new CyclicBarrier(32);
                List<Future<String>> results = new ArrayList<>();
                for (int t = 0; t < 32; t++) {
                    results.add(threads.submit(() -> {
                        barrier.await();
                        return servedBy("/irj/x", "JSESSIONID=" + jsessionid);
                    }));
                }
                Set<String> servers = new java.util.HashSet<>();
                for (Future<String> r : results) {
                    servers.add(r.get());
                }
                if (servers.size() != 1) {
                    split.add(jsessionid + " -> " + servers);
                }
                perServer.merge(servers.iterator().next(), 1, Integer::sum);
            }

            assertThat(split).as("session ids whose concurrent requests split across servers").isEmpty();
            // The sessions themselves are still balanced over all servers.
            assertThat(perServer.keySet()).containsExactlyInAnyOrder("a", "b", "c");
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aSaplbCookieKeepsTheRequestOnItsServerOnTheWholeValueOrTheNodePart() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(servedBy("/irj/x", "saplb_*=(J2EE1000100)100")).isEqualTo("a");
            assertThat(servedBy("/irj/x", "saplb_*=(J2EE1000200)200")).isEqualTo("b");
        }
    }

    @Test
    void anInvalidSaplbCookieIsIgnored() throws Exception {
        HttpResponse<Void> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x"))
                .header("Cookie", "saplb_*=(J2EE999)999; saplb_*=garbage").build(), HttpResponse.BodyHandlers.discarding());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Jwd-Route").orElseThrow()).contains("reason=balanced");
    }

    @Test
    void theRouteSuffixOfASessionIdKeepsTheRequestOnItsServer() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(servedBy("/irj/x", "JSESSIONID=abc" + i + ".rc")).isEqualTo("c");
            assertThat(servedBy("/irj/x;jsessionid=def" + i + ".rb", null)).isEqualTo("b");
        }
    }

    @Test
    void sapContextIdKeepsAnAbapRequestOnItsServer() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(servedBy("/sap/bc/x", "sap-contextid=SID%3aANON%3ah2_JWD_01%3a42-NEW")).isEqualTo("abap2");
            assertThat(servedBy("/sap/bc/x", "sap-contextid=SID%3aANON%3ah1_JWD_00%3a43-NEW")).isEqualTo("abap1");
        }
    }

    @Test
    void sapExtSidGoesThroughTheTable() throws Exception {
        String first = servedBy("/sap/bc/x;sap-ext-sid=EXT" + UUID.randomUUID(), null);
        String extSid = "EXT" + UUID.randomUUID();
        String bound = servedBy("/sap/bc/x", "sap-ext-sid=" + extSid);
        for (int i = 0; i < 6; i++) {
            assertThat(servedBy("/sap/bc/x", "sap-ext-sid=" + extSid)).isEqualTo(bound);
            assertThat(servedBy("/sap/bc/x;sap-ext-sid=" + extSid, null)).isEqualTo(bound);
        }
        assertThat(first).isIn("abap1", "abap2");
    }

    @Test
    void aSessionTheServerStartsIsLearnedFromItsSetCookie() throws Exception {
        HttpResponse<Void> first = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                HttpResponse.BodyHandlers.discarding());
        String server = first.headers().firstValue("X-Served-By").orElseThrow();
        String jsessionid = first.headers().allValues("Set-Cookie").stream()
                .filter(h -> h.startsWith("JSESSIONID=")).findFirst().orElseThrow()
                .substring("JSESSIONID=".length()).split(";")[0];

        for (int i = 0; i < 6; i++) {
            HttpResponse<Void> next = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x"))
                    .header("Cookie", "JSESSIONID=" + jsessionid).build(), HttpResponse.BodyHandlers.discarding());
            assertThat(next.headers().firstValue("X-Served-By")).hasValue(server);
            assertThat(next.headers().firstValue("X-Jwd-Route").orElseThrow()).contains("reason=session table");
        }
    }
}
