package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The Grafana dashboard and the Prometheus alert rules the distribution ships in {@code config/} name only metrics
 * that jwd exports: every series name in their queries is one a scrape of a running jwd writes (with an HTTPS port,
 * traffic, a logon group and a refused request, so that each series the files name has a sample), and both files
 * are what Grafana and Prometheus read (JSON; YAML with Prometheus' rule fields).
 */
@Timeout(120)
class DashboardAndAlertsIT {
    /** A series name of jwd's, of the JVM's or of the process's, in a query. */
    private static final Pattern METRIC = Pattern.compile("\\b(?:jwd|jvm|process)_[a-z0-9_]+");
    /** {@code name{labels} value} of the text format. */
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]");

    @TempDir
    Path dir;

    @Test
    void everyMetricTheDashboardAndTheAlertRulesNameIsOneJwdExports() throws Exception {
        List<String> queries = new ArrayList<>(alertExpressions());
        queries.addAll(dashboardQueries());
        Set<String> named = new TreeSet<>();
        for (String query : queries) {
            Set<String> inQuery = metricsIn(query);
            assertThat(inQuery).as("the metrics of " + query).isNotEmpty();
            named.addAll(inQuery);
        }

        Set<String> exported = scrapeAfterTraffic();

        assertThat(named).as("exported: " + exported).isSubsetOf(exported);
        assertThat(named).contains("jwd_group_servers_up", "jwd_session_table_full", "jwd_session_table_cluster_state",
                "jwd_tls_certificate_expiry_seconds", "jwd_access_log_dropped_lines_total", "jwd_requests_total");
    }

    /** Every rule's {@code expr}; each rule has what Prometheus and Alertmanager need of it. */
    @SuppressWarnings("unchecked")
    private static List<String> alertExpressions() throws IOException {
        Map<String, Object> rules;
        try (Reader in = Files.newBufferedReader(JwdProcess.dist().resolve("config/jwd-alerts.yml"))) {
            rules = new Yaml().load(in);
        }
        List<String> expressions = new ArrayList<>();
        Set<String> alerts = new TreeSet<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) rules.get("groups")) {
            assertThat(group.get("name")).isNotNull();
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                assertThat(rule).containsKeys("alert", "expr", "labels", "annotations");
                assertThat(alerts.add((String) rule.get("alert"))).as("one rule per name: " + rule).isTrue();
                assertThat((Map<String, Object>) rule.get("labels")).containsKey("severity");
                assertThat((Map<String, Object>) rule.get("annotations")).containsKeys("summary", "description");
                expressions.add((String) rule.get("expr"));
            }
        }
        assertThat(alerts).contains("JwdNoServerUpInGroup", "JwdSessionTableFull", "JwdClusterDisconnected",
                "JwdCertificateExpiring", "JwdAccessLogLinesDropped", "JwdHighErrorRate");
        return expressions;
    }

    /** Every panel's queries and the variables' queries; the panels' ids are unique, as Grafana needs them. */
    private static List<String> dashboardQueries() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(JwdProcess.dist().resolve("config/jwd-dashboard.json")
                .toFile());
        List<String> queries = new ArrayList<>();
        Set<Integer> ids = new TreeSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            assertThat(ids.add(panel.path("id").asInt())).as("a panel's id: " + panel.path("title")).isTrue();
            for (JsonNode target : panel.path("targets")) {
                queries.add(target.path("expr").asText());
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("type").asText().equals("query")) {
                queries.add(variable.path("definition").asText());
            }
        }
        assertThat(queries).hasSizeGreaterThan(20);
        return queries;
    }

    private static Set<String> metricsIn(String query) {
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(query);
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    /**
     * The series names a jwd writes once it has an HTTPS port and a logon group and has answered requests: one
     * forwarded, one no server takes (503) and one refused for its header's size (431).
     */
    private Set<String> scrapeAfterTraffic() throws Exception {
        TestPki pki = TestPki.get();
        Files.copy(pki.keyStore("portal"), dir.resolve("portal.p12"));
        Files.writeString(dir.resolve("pin"), TestPki.PASSWORD + "\n");
        Path config = dir.resolve("jwd.properties");
        try (DemoBackend j = DemoBackend.start(DemoBackend.Options.j2ee("j"))) {
            Files.writeString(config, """
                    server.j.url=%s
                    server.j.type=j2ee
                    server.j.logon_groups=PORTAL
                    logon_group.PORTAL.url_prefixes=/irj
                    icf.url_prefixes=/sap/
                    icm/ssl_config_1 = CRED=portal.p12, PIN=${file:pin}
                    icm/server_port_1 = PROT=HTTPS, PORT=0, HOST=127.0.0.1, SSLCONFIG=ssl_config_1
                    """.formatted(j.url()) + AdminClient.CONFIG);
            try (JwdProcess jwd = JwdProcess.startWith(config, Map.of())) {
                jwd.httpsUris(1);
                AdminClient admin = new AdminClient(jwd);
                assertThat(admin.through("/irj/portal").statusCode()).isEqualTo(200);
                assertThat(admin.through("/sap/bc/gui/").statusCode()).isEqualTo(503);
                assertThat(admin.through("/irj/big", "X-Big", "x".repeat(10 * 1024)).statusCode()).isEqualTo(431);
                HttpResponse<String> scrape = admin.get("/jwd/admin/metrics");
                assertThat(scrape.statusCode()).isEqualTo(200);
                Set<String> names = new TreeSet<>();
                for (String line : scrape.body().split("\n")) {
                    Matcher m = SAMPLE.matcher(line);
                    if (!line.startsWith("#") && m.find()) {
                        names.add(m.group(1));
                    }
                }
                return names;
            }
        }
    }
}
