package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * /jwd/admin/metrics in the Prometheus text format: parsed, the counters move with the traffic, and the series follow
 * the servers that come and go.
 */
@Timeout(90)
class MetricsIT {
    private static final int SERVERS = 1000;
    /** {@code name{labels} value} of the text format (comments and blank lines skipped). */
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)$");

    @Test
    void countersMoveWithTraffic() {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     SessionTableTimeout=60s
                     icf.url_prefixes=/sap/
                     """.formatted(a.url()) + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);
            admin.through("/irj/warm-up");
            Map<String, Double> before = scrape(admin);

            for (int i = 0; i < 7; i++) {
                assertThat(admin.through("/irj/m" + i).statusCode()).isEqualTo(200);
            }
            admin.through("/irj/session", "Cookie", "JSESSIONID=metrics-1");
            admin.through("/irj/session", "Cookie", "JSESSIONID=metrics-1");
            // an ABAP URL without an ABAP server: refused by routing, counted without group and server
            assertThat(admin.through("/sap/bc/x").statusCode()).isEqualTo(503);
            Map<String, Double> after = scrape(admin);

            String ok = "jwd_requests_total{group=\"!J2EE\",server=\"a\",status_class=\"2xx\"}";
            assertThat(after.get(ok) - before.get(ok)).isEqualTo(9.0);
            String hist = "jwd_request_duration_seconds_count{group=\"!J2EE\",server=\"a\"}";
            assertThat(after.get(hist) - before.get(hist)).isEqualTo(9.0);
            assertThat(after.get("jwd_request_duration_seconds_bucket{group=\"!J2EE\",server=\"a\",le=\"+Inf\"}"))
                    .isEqualTo(after.get(hist));
            assertThat(after.get("jwd_requests_total{group=\"none\",server=\"none\",status_class=\"5xx\"}")).isEqualTo(1.0);
            assertThat(after.get("jwd_server_requests_total{server=\"a\"}")
                    - before.get("jwd_server_requests_total{server=\"a\"}")).isEqualTo(9.0);
            assertThat(after.get("jwd_server_state{server=\"a\",state=\"up\"}")).isEqualTo(1.0);
            assertThat(after.get("jwd_server_in_flight{server=\"a\"}")).isEqualTo(0.0);
            assertThat(after.get("jwd_session_table_hits_total")).isGreaterThan(before.get("jwd_session_table_hits_total"));
            assertThat(after.get("jwd_session_table_entries")).isPositive();

            assertThat(admin.act("a", "drain").statusCode()).isEqualTo(200);
            assertThat(scrape(admin).get("jwd_server_state{server=\"a\",state=\"drained\"}")).isEqualTo(1.0);
        }
    }

    @Test
    @Timeout(240)
    void aThousandServersRegisteredTakingRequestsAndRemovedLeaveTheSeriesAsTheyWere() {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("""
                     server.a.url=%s
                     server.a.type=j2ee
                     health.interval=1h
                     """.formatted(a.url()) + AdminClient.CONFIG)) {
            AdminClient admin = new AdminClient(jwd);
            admin.through("/irj/warm-up");
            int before = jwdSeries(admin);

            for (int i = 0; i < SERVERS; i++) {
                HttpResponse<String> r = admin.register("n" + i, "{\"url\":\"%s\",\"type\":\"j2ee\"}"
                        .formatted(a.url()));
                assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            }
            for (int i = 0; i < SERVERS; i++) {
                HttpResponse<String> r = admin.through("/irj/r" + i);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            }
            Map<String, Double> during = scrape(admin);
            long served = during.keySet().stream().filter(k -> k.startsWith("jwd_requests_total{group=\"!J2EE\",server=\"n"))
                    .count();
            for (int i = 0; i < SERVERS; i++) {
                HttpResponse<String> r = admin.send(admin.request("/jwd/admin/api/servers/n" + i).DELETE().build());
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            }

            assertThat(served).as("registered servers that took a request").isGreaterThan(SERVERS / 2);
            assertThat(jwdSeries(admin)).isEqualTo(before);
            assertThat(admin.get("/jwd/admin/metrics").body()).doesNotContain("server=\"n");
        }
    }

    /** How many series of jwd's own metrics a scrape writes (the JVM's vary with the JVM, not the landscape). */
    private static int jwdSeries(AdminClient admin) {
        return (int) scrape(admin).keySet().stream().filter(k -> k.startsWith("jwd_")).count();
    }

    private static Map<String, Double> scrape(AdminClient admin) {
        HttpResponse<String> r = admin.get("/jwd/admin/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t ->
                assertThat(t).startsWith("text/plain; version=0.0.4"));
        Map<String, Double> samples = new HashMap<>();
        for (String line : r.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertThat(m.matches()).as("a sample line of the text format: " + line).isTrue();
            samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
        }
        assertThat(r.body()).contains("# TYPE jwd_requests_total counter", "# TYPE jwd_request_duration_seconds histogram");
        return samples;
    }
}
