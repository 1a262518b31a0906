package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;

/** Capacity-weighted balancing through the Jetty distribution. */
class BalancingIT {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void threeServersWithCapacitiesOneTwoThreeReceiveOneTwoThreeOfTheRequests() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
             DemoBackend c = DemoBackend.start(DemoBackend.Options.j2ee("c"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     server.a.capacity=1
                     server.b.url=%s
                     server.b.type=j2ee
                     server.b.capacity=2
                     server.c.url=%s
                     server.c.type=j2ee
                     server.c.capacity=3
                     """.formatted(a.url(), b.url(), c.url()))) {
            Map<String, Integer> counts = new ConcurrentHashMap<>();
            for (int i = 0; i < 600; i++) {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                        HttpResponse.BodyHandlers.discarding());
                counts.merge(response.headers().firstValue("X-Served-By").orElseThrow(), 1, Integer::sum);
            }

            assertThat(counts.get("a")).isBetween(100 - 18, 100 + 18);
            assertThat(counts.get("b")).isBetween(200 - 18, 200 + 18);
            assertThat(counts.get("c")).isBetween(300 - 18, 300 + 18);
        }
    }

    @Test
    void aLogonGroupIsBalancedByCapacityWithTheStrategyAndByItsTypeOnlyWhenItOptsIn() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
             DemoBackend c = DemoBackend.start(DemoBackend.Options.j2ee("c"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     server.a.capacity=1
                     server.a.logon_groups=CAP, QUAL
                     server.b.url=%s
                     server.b.type=j2ee
                     server.b.capacity=2
                     server.b.logon_groups=CAP, QUAL
                     server.c.url=%s
                     server.c.type=j2ee
                     server.c.capacity=3
                     server.c.logon_groups=CAP, QUAL
                     logon_group.CAP.url_prefixes=/cap
                     logon_group.CAP.type=R
                     logon_group.QUAL.url_prefixes=/qual
                     logon_group.QUAL.type=R
                     logon_group.QUAL.http_balancing=quality
                     wdisp/load_balancing_strategy=simple_weighted_round_robin
                     """.formatted(a.url(), b.url(), c.url()))) {
            // type R would ignore the capacities; the strategy follows them, two rounds exactly
            assertThat(servedBy(jwd, "/cap/x", 12)).containsExactly("a", "b", "b", "c", "c", "c",
                    "a", "b", "b", "c", "c", "c");
            // the opt-in: type R's round robin, in the view's random order, whatever the capacities
            List<String> quality = servedBy(jwd, "/qual/x", 12);
            assertThat(quality.subList(0, 3)).containsExactlyInAnyOrder("a", "b", "c");
            for (int i = 3; i < 12; i++) {
                assertThat(quality.get(i)).as("request %d of %s", i, quality).isEqualTo(quality.get(i - 3));
            }
        }
    }

    /** Sends n requests one after the other; who served each. */
    private List<String> servedBy(JwdProcess jwd, String path, int n) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            HttpResponse<Void> response = http.send(HttpRequest.newBuilder(jwd.uri(path)).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertThat(response.statusCode()).isEqualTo(200);
            ids.add(response.headers().firstValue("X-Served-By").orElseThrow());
        }
        return ids;
    }

    @Test
    void aSlowServerReceivesClearlyFewerRequestsFromConcurrentClients() throws Exception {
        try (DemoBackend fast1 = DemoBackend.start(DemoBackend.Options.j2ee("fast1").withDelayMillis(5));
             DemoBackend fast2 = DemoBackend.start(DemoBackend.Options.j2ee("fast2").withDelayMillis(5));
             DemoBackend slow = DemoBackend.start(DemoBackend.Options.j2ee("slow").withDelayMillis(200));
             JwdProcess jwd = JwdProcess.start("""
                     server.fast1.url=%s
                     server.fast1.type=j2ee
                     server.fast2.url=%s
                     server.fast2.type=j2ee
                     server.slow.url=%s
                     server.slow.type=j2ee
                     """.formatted(fast1.url(), fast2.url(), slow.url()))) {
            Map<String, LongAdder> counts = new ConcurrentHashMap<>();
            ExecutorService clients = Executors.newFixedThreadPool(16);
            for (int client = 0; client < 16; client++) {
                clients.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        HttpResponse<Void> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/x")).build(),
                                HttpResponse.BodyHandlers.discarding());
                        counts.computeIfAbsent(response.headers().firstValue("X-Served-By").orElseThrow(),
                                k -> new LongAdder()).increment();
                    }
                    return null;
                });
            }
            clients.shutdown();
            assertThat(clients.awaitTermination(120, TimeUnit.SECONDS)).isTrue();

            long slowCount = counts.get("slow").sum();
            long fastCount = Math.min(counts.get("fast1").sum(), counts.get("fast2").sum());
            // Equal capacities: a balancer blind to the requests in flight would give each a third (213).
            assertThat(slowCount).as("slow %s vs fast %s", counts.get("slow"), counts).isLessThan(fastCount / 3);
        }
    }
}
