package org.jwd.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.jwd.sessiontable.ClusterState;
import org.jwd.sessiontable.ClusterStatus;
import org.jwd.sessiontable.DisabledSessionTable;
import org.jwd.limits.ConnectionSlots;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTableStats;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.Topology;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;

class DispatcherMetricsTest {
    private final Topology topology;
    private final DispatcherMetrics metrics;

    DispatcherMetricsTest() throws Exception {
        topology = Topology.of(ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                server.b.url=http://127.0.0.1:9002
                server.b.type=j2ee
                """, "test.properties"));
        metrics = new DispatcherMetrics(() -> topology, DisabledSessionTable.INSTANCE, () -> ConnectionSlots.NONE);
    }

    private String text() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.write(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void countsRequestsByGroupServerAndStatusClass() throws Exception {
        ServerGroup j2ee = topology.internalGroup(ServerGroup.J2EE);
        Server a = topology.server("a");
        metrics.requestCompleted(j2ee, a, 200, 3_000_000);
        metrics.requestCompleted(j2ee, a, 204, 3_000_000);
        metrics.requestCompleted(j2ee, a, 502, 30_000_000);
        metrics.requestCompleted(null, null, 400, 1000);

        String text = text();

        assertThat(text).contains("jwd_requests_total{group=\"!J2EE\",server=\"a\",status_class=\"2xx\"} 2.0")
                .contains("jwd_requests_total{group=\"!J2EE\",server=\"a\",status_class=\"5xx\"} 1.0")
                .contains("jwd_requests_total{group=\"none\",server=\"none\",status_class=\"4xx\"} 1.0")
                .contains("jwd_request_duration_seconds_bucket{group=\"!J2EE\",server=\"a\",le=\"0.005\"} 2")
                .contains("jwd_request_duration_seconds_count{group=\"!J2EE\",server=\"a\"} 3");
    }

    @Test
    void exportsEachServersTimeToTheFirstAndTheLastByteAndKeepsTheLastMinute() throws Exception {
        Server a = topology.server("a");
        long now = 1_000_000_000_000L;
        metrics.serverAnswered(a, 2_000_000, 8_000_000, now);
        metrics.serverAnswered(a, 3_000_000, 40_000_000, now);

        assertThat(text()).contains("jwd_server_first_byte_seconds_bucket{server=\"a\",le=\"0.005\"} 2")
                .contains("jwd_server_last_byte_seconds_bucket{server=\"a\",le=\"0.01\"} 1")
                .contains("jwd_server_last_byte_seconds_count{server=\"a\"} 2");
        assertThat(metrics.lastMinute("a", now).count()).isEqualTo(2);
        assertThat(metrics.lastMinute("a", now + 61_000_000_000L)).isNull();
        assertThat(metrics.lastMinute("b", now)).isNull();
    }

    @Test
    void readsServerStateAndCountersWhenScraped() throws Exception {
        Server b = topology.server("b");
        b.setState(Server.State.DRAINED);
        b.requestStarted(true);

        String text = text();

        assertThat(text).contains("jwd_server_state{server=\"b\",state=\"drained\"} 1.0")
                .contains("jwd_server_state{server=\"b\",state=\"up\"} 0.0")
                .contains("jwd_server_in_flight{server=\"b\"} 1.0")
                .contains("jwd_server_stateful_requests_total{server=\"b\"} 1.0")
                .contains("jwd_server_capacity{server=\"a\"} 1.0")
                .contains("jwd_session_table_entries 0.0")
                .contains("jwd_session_table_hits_total 0.0");
        assertThat(metrics.contentType()).startsWith("text/plain; version=0.0.4");
    }

    @Test
    void countsTheServersUpInEachGroupWithMembersSoThatAGroupWithNoneReadsZero() throws Exception {
        Topology groups = Topology.of(ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                server.a.logon_groups=PORTAL
                server.b.url=http://127.0.0.1:9002
                server.b.type=j2ee
                server.b.logon_groups=PORTAL
                server.c.url=http://127.0.0.1:9003
                server.c.type=j2ee
                logon_group.PORTAL.url_prefixes=/irj
                """, "test.properties"));
        DispatcherMetrics withGroups = new DispatcherMetrics(() -> groups, DisabledSessionTable.INSTANCE,
                () -> ConnectionSlots.NONE);

        groups.server("a").setState(Server.State.DOWN);
        groups.server("b").setState(Server.State.DRAINED);

        assertThat(write(withGroups)).contains("jwd_group_servers_up{group=\"PORTAL\"} 0.0")
                .contains("jwd_group_servers_up{group=\"!J2EE\"} 1.0")
                .contains("jwd_group_servers_up{group=\"!ALL\"} 1.0")
                .as("no ABAP server, no HTTPS port: those groups have no members and no series")
                .doesNotContain("group=\"!DIAG\"} ", "group=\"!J2EES\"} ");
        groups.server("b").setState(Server.State.UP);
        assertThat(write(withGroups)).contains("jwd_group_servers_up{group=\"PORTAL\"} 1.0")
                .contains("jwd_group_servers_up{group=\"!J2EE\"} 2.0");
    }

    /** Systems an operator can switch on and off, as a reload that adds or removes wdisp/system_<xx> does. */
    private static final class Switchable implements ServerSystems {
        volatile boolean on = true;
        volatile String sidOfA = "ERP";

        @Override
        public boolean configured() {
            return on;
        }

        @Override
        public String systemOf(String serverId) {
            return on && serverId.equals("a") ? sidOfA : null;
        }
    }

    @Test
    void withSystemsTheSeriesOfServersAndGroupsCarryTheirSystemAndWithoutThemNone() throws Exception {
        Switchable systems = new Switchable();
        DispatcherMetrics bySystem = new DispatcherMetrics(() -> topology, DisabledSessionTable.INSTANCE,
                () -> ConnectionSlots.NONE, systems);
        ServerGroup j2ee = topology.internalGroup(ServerGroup.J2EE);
        Server a = topology.server("a");
        bySystem.requestCompleted("ERP", j2ee, a, 200, 3_000_000);
        bySystem.requestCompleted(null, null, null, 404, 1000);
        bySystem.serverAnswered(a, 2_000_000, 8_000_000, 1_000_000_000_000L);
        bySystem.serverAborted(a);

        String labelled = write(bySystem);

        assertThat(labelled).contains("jwd_requests_total{group=\"!J2EE\",server=\"a\",status_class=\"2xx\",system=\"ERP\"} 1.0")
                .contains("jwd_requests_total{group=\"none\",server=\"none\",status_class=\"4xx\",system=\"none\"} 1.0")
                .contains("jwd_request_duration_seconds_count{group=\"!J2EE\",server=\"a\",system=\"ERP\"} 1")
                .contains("jwd_server_first_byte_seconds_count{server=\"a\",system=\"ERP\"} 1")
                .contains("jwd_server_aborts_total{server=\"a\",system=\"ERP\"} 1.0")
                .contains("jwd_server_capacity{server=\"a\",system=\"ERP\"} 1.0")
                // b belongs to no system, as a registered server
                .contains("jwd_server_capacity{server=\"b\",system=\"none\"} 1.0")
                .contains("jwd_server_state{server=\"a\",state=\"up\",system=\"ERP\"} 1.0")
                .contains("jwd_server_max_connections{server=\"a\",system=\"ERP\"} 0.0")
                .contains("jwd_session_table_entries 0.0")
                .contains("jwd_config_reloads_total{outcome=\"applied\"} 0.0");

        systems.on = false;
        bySystem.requestCompleted(null, j2ee, a, 200, 3_000_000);
        bySystem.serverAnswered(a, 2_000_000, 8_000_000, 1_000_000_000_000L);
        String plain = write(bySystem);

        assertThat(plain).doesNotContain("system=")
                .contains("jwd_requests_total{group=\"!J2EE\",server=\"a\",status_class=\"2xx\"} 1.0")
                .contains("jwd_server_first_byte_seconds_count{server=\"a\"} 1")
                .contains("jwd_server_capacity{server=\"a\"} 1.0");
        // the last minute of a server's answers is the server's, whatever its labels
        assertThat(bySystem.lastMinute("a", 1_000_000_000_000L).count()).isEqualTo(2);
    }

    @Test
    void theSeriesOfAServerThatLeftGoAndARequestThatEndsOnItAfterwardsMakesNoneAgain() throws Exception {
        AtomicReference<Topology> inForce = new AtomicReference<>(topology);
        DispatcherMetrics following = new DispatcherMetrics(inForce::get, DisabledSessionTable.INSTANCE,
                () -> ConnectionSlots.NONE);
        ServerGroup j2ee = topology.internalGroup(ServerGroup.J2EE);
        Server a = topology.server("a");
        Server b = topology.server("b");
        for (Server s : List.of(a, b)) {
            following.requestCompleted(j2ee, s, 200, 3_000_000);
            following.serverAnswered(s, 2_000_000, 8_000_000, 1_000_000_000_000L);
            following.serverAborted(s);
        }
        assertThat(write(following)).contains("server=\"b\"");

        Topology withoutB = Topology.of(List.of(a), List.of());
        inForce.set(withoutB);
        following.retain(withoutB);
        // a request that was under way on b ends after b left
        following.requestCompleted(j2ee, b, 200, 3_000_000);
        following.serverAnswered(b, 2_000_000, 8_000_000, 1_000_000_000_000L);
        following.serverAborted(b);
        following.requestCompleted(j2ee, a, 200, 3_000_000);

        String text = write(following);
        assertThat(text).doesNotContain("server=\"b\"")
                .contains("jwd_requests_total{group=\"!J2EE\",server=\"a\",status_class=\"2xx\"} 2.0")
                .contains("jwd_server_last_byte_seconds_count{server=\"a\"} 1")
                .contains("jwd_server_aborts_total{server=\"a\"} 1.0");
        assertThat(following.lastMinute("b", 1_000_000_000_000L)).isNull();

        // b comes back: its series begin again from nothing
        inForce.set(topology);
        following.requestCompleted(j2ee, b, 200, 3_000_000);
        assertThat(write(following)).contains("jwd_requests_total{group=\"!J2EE\",server=\"b\",status_class=\"2xx\"} 1.0");
    }

    @Test
    void aServerThatMovedToAnotherSystemKeepsOnlyTheSeriesOfItsSystemNow() throws Exception {
        Switchable systems = new Switchable();
        DispatcherMetrics bySystem = new DispatcherMetrics(() -> topology, DisabledSessionTable.INSTANCE,
                () -> ConnectionSlots.NONE, systems);
        Server a = topology.server("a");
        bySystem.serverAnswered(a, 2_000_000, 8_000_000, 1_000_000_000_000L);
        bySystem.serverAborted(a);
        systems.sidOfA = "PRT";
        bySystem.serverAnswered(a, 2_000_000, 8_000_000, 1_000_000_000_000L);

        String text = write(bySystem);

        assertThat(text).doesNotContain("system=\"ERP\"")
                .contains("jwd_server_last_byte_seconds_count{server=\"a\",system=\"PRT\"} 1");
        assertThat(bySystem.lastMinute("a", 1_000_000_000_000L).count()).isEqualTo(2);
    }

    @Test
    void withoutSystemsNoSeriesHasASystemLabel() throws Exception {
        metrics.requestCompleted("ERP", topology.internalGroup(ServerGroup.J2EE), topology.server("a"), 200, 1000);

        assertThat(text()).doesNotContain("system=")
                .contains("jwd_requests_total{group=\"!J2EE\",server=\"a\",status_class=\"2xx\"} 1.0");
    }

    private static String write(DispatcherMetrics m) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.write(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void exportsTheJvmsAndTheProcesssOwnSeries() throws Exception {
        assertThat(text()).contains("jvm_memory_used_bytes{area=\"heap\"}", "jvm_threads_current",
                "process_cpu_seconds_total", "process_open_fds");
    }

    @Test
    void namesTheVersionAndRevisionThatRun() throws Exception {
        assertThat(org.jwd.config.Version.CURRENT.version()).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
        assertThat(text()).contains("jwd_build_info{revision=\"" + org.jwd.config.Version.CURRENT.revision()
                + "\",version=\"" + org.jwd.config.Version.CURRENT.version() + "\"} 1");
    }

    @Test
    void showsNotClusteredForATableOfThisNodeAlone() throws Exception {
        assertThat(text()).contains("jwd_session_table_cluster_state{state=\"none\"} 1.0")
                .contains("jwd_session_table_cluster_state{state=\"connected\"} 0.0")
                .contains("jwd_session_table_cluster_outages_total 0.0")
                .contains("jwd_session_table_cluster_writes_total 0.0")
                .contains("jwd_session_table_cluster_write_seconds_total 0.0");
    }

    @Test
    void showsWhetherTheTableIsPersistentAndWhatWasRestored() throws Exception {
        assertThat(text()).contains("jwd_session_table_persistent 0.0")
                .contains("jwd_session_table_restored_bindings 0.0")
                .contains("jwd_session_table_flushed_timestamp_seconds 0.0")
                .contains("jwd_session_table_flush_failures_total 0.0");
    }

    @Test
    void exportsWhenEachPresentedCertificateExpiresReadWhenScraped() throws Exception {
        java.util.concurrent.atomic.AtomicReference<org.jwd.tls.TlsStatus> status =
                new java.util.concurrent.atomic.AtomicReference<>(new org.jwd.tls.TlsStatus(java.util.List.of(
                        new org.jwd.tls.TlsStatus.Presented("icm/server_port_1 (ssl_config_1)", "[/portal.p12]",
                                java.util.List.of(new org.jwd.tls.CertificateInfo("portal", "CN=portal.example",
                                        "CN=CA", java.util.List.of(), java.time.Instant.ofEpochSecond(1_900_000_000))),
                                java.time.Instant.EPOCH, null))));
        metrics.watchCertificates(status::get);

        assertThat(text()).contains("jwd_tls_certificate_expiry_seconds{alias=\"portal\","
                + "listener=\"icm/server_port_1 (ssl_config_1)\",subject=\"CN=portal.example\"} 1.9E9");
        status.set(new org.jwd.tls.TlsStatus(java.util.List.of()));
        assertThat(text()).doesNotContain("jwd_tls_certificate_expiry_seconds{");
    }

    @Test
    void readsTheAccessLogsDroppedLinesWhenScraped() throws Exception {
        java.util.concurrent.atomic.AtomicLong dropped = new java.util.concurrent.atomic.AtomicLong(3);
        metrics.watchAccessLog(dropped::get);
        assertThat(text()).contains("jwd_access_log_dropped_lines_total 3.0");
        dropped.set(7);
        assertThat(text()).contains("jwd_access_log_dropped_lines_total 7.0");
    }

    @Test
    void showsTheClusterStateAndItsFiguresWhenScraped() throws Exception {
        SessionTable lostItsServer = new SessionTable() {
            @Override
            public String lookup(String sessionId) {
                return null;
            }

            @Override
            public String bind(String sessionId, String serverId) {
                return serverId;
            }

            @Override
            public String rebind(String sessionId, String expectedServerId, String newServerId) {
                return newServerId;
            }

            @Override
            public SessionTableStats stats() {
                return new SessionTableStats(3, 0, 0, 0, 0, 0, 0);
            }

            @Override
            public ClusterState clusterState() {
                return ClusterState.DISCONNECTED;
            }

            @Override
            public ClusterStatus clusterStatus() {
                return new ClusterStatus("terracotta://127.0.0.1:9410/jwd", ClusterState.DISCONNECTED, 1, 2, 40, 5, 0,
                        1_200, 3_000_000_000L);
            }

            @Override
            public void close() {
            }
        };
        DispatcherMetrics clustered = new DispatcherMetrics(() -> topology, lostItsServer, () -> ConnectionSlots.NONE);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        clustered.write(out);

        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("jwd_session_table_cluster_state{state=\"disconnected\"} 1.0")
                .contains("jwd_session_table_cluster_state{state=\"connected\"} 0.0")
                .contains("jwd_session_table_cluster_outages_total 2.0")
                .contains("jwd_session_table_cluster_served_locally_total 40.0")
                .contains("jwd_session_table_cluster_carried_over_total 5.0")
                .contains("jwd_session_table_cluster_writes_total 1200.0")
                .contains("jwd_session_table_cluster_write_seconds_total 3.0");
    }
}
