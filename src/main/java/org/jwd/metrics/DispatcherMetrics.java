package org.jwd.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import org.jwd.affinity.ClusterState;
import org.jwd.affinity.ClusterStatus;
import org.jwd.affinity.SessionTable;
import org.jwd.limits.ConnectionSlots;
import org.jwd.affinity.SessionTableStats;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.Topology;

/**
 * jwd's Prometheus metrics, in a registry of its own (one per dispatcher), written in the text format at
 * {@code /jwd/admin/metrics}. The only class that knows the Prometheus client.
 *
 * <ul>
 * <li>{@code jwd_requests_total{group,server,status}}: answered requests by group, server and status class
 *     ({@code 2xx}...{@code 5xx}); refused ones carry {@code server="none"}.</li>
 * <li>{@code jwd_request_duration_seconds{group,server}}: a histogram of the time from routing to the end of
 *     the answer.</li>
 * <li>{@code jwd_server_first_byte_seconds{server}} and {@code jwd_server_response_seconds{server}}: histograms of
 *     the time from sending a request to the server to the first byte of its answer, and to the last; the last
 *     minute's p50 and p99 per server are kept for the admin page ({@link #lastMinute}).</li>
 * <li>{@code jwd_server_in_flight}, {@code jwd_server_capacity}, {@code jwd_server_state{state}} (1 for the state
 *     the server is in), {@code jwd_server_requests_total}, {@code jwd_server_errors_total},
 *     {@code jwd_server_stateful_requests_total}: per server, read from the servers when scraped.</li>
 * <li>{@code jwd_server_max_connections}, {@code jwd_server_queue_length} (gauges) and
 *     {@code jwd_server_queue_rejected_total{server,reason}}: connection limits, per server;
 *     {@code jwd_server_aborts_total{server}}: answers broken off by the server;
 *     {@code jwd_limit_rejections_total{limit}}: requests refused for their header or body size.</li>
 * <li>{@code jwd_session_table_entries} and {@code jwd_session_table_{hits,misses,bindings,rebindings,expirations,
 *     rejected}_total}.</li>
 * <li>Cluster mode: {@code jwd_session_table_cluster_state{state}} (1 for none, connecting, connected or
 *     disconnected) and {@code jwd_session_table_cluster_{outages,served_locally,carried_over}_total}.</li>
 * <li>{@code jwd_config_reloads_total{outcome}} ({@code applied} or {@code rejected}) and
 *     {@code jwd_config_last_reload_timestamp_seconds}: reloads of the configuration.</li>
 * </ul>
 *
 * <p>Per request, {@link #requestCompleted} costs two map reads keyed by strings whose hash is cached, one
 * counter increment and one histogram observation: the label children of each group and server are made once
 * and kept, so nothing is allocated for labels per request.
 */
public final class DispatcherMetrics {
    /** The label value for requests refused before a server or group was chosen. */
    public static final String NONE = "none";
    private static final String[] STATUS_CLASSES = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter requests;
    private final Histogram duration;
    private final Counter reloads;
    private final io.prometheus.metrics.core.metrics.Gauge lastReload;
    private final Counter limitRejections;
    private final Counter serverAborts;
    private final Histogram firstByte;
    private final Histogram lastByte;
    /** server id -> its response time histograms' label children and the last minute of its response times */
    private final ConcurrentHashMap<String, ServerTimes> responseTimes = new ConcurrentHashMap<>();

    private record ServerTimes(ResponseTimes lastMinute, DistributionDataPoint firstByte,
                               DistributionDataPoint lastByte) {
    }
    /** group name -> server id -> its label children */
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, Children>> children = new ConcurrentHashMap<>();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    /** The label children of one group and server. */
    private final class Children {
        final String group;
        final String server;
        /** by status class; made on first use (racing threads get the same data point from the client) */
        final CounterDataPoint[] byClass = new CounterDataPoint[STATUS_CLASSES.length];
        final DistributionDataPoint duration;

        Children(String group, String server) {
            this.group = group;
            this.server = server;
            this.duration = DispatcherMetrics.this.duration.labelValues(group, server);
        }

        CounterDataPoint requests(int statusClass) {
            CounterDataPoint c = byClass[statusClass];
            if (c == null) {
                c = requests.labelValues(group, server, STATUS_CLASSES[statusClass]);
                byClass[statusClass] = c;
            }
            return c;
        }
    }

    /**
     * @param topology     the topology in force, read at each scrape (servers come and go)
     * @param sessionTable the session table whose figures are exported
     */
    public DispatcherMetrics(Supplier<Topology> topology, SessionTable sessionTable, Supplier<ConnectionSlots> slots) {
        requests = Counter.builder().name("jwd_requests_total")
                .help("Requests answered, by group, server and status class").labelNames("group", "server", "status")
                .withoutExemplars().register(registry);
        duration = Histogram.builder().name("jwd_request_duration_seconds").unit(Unit.SECONDS)
                .help("Time from routing a request to the end of its answer").labelNames("group", "server")
                .classicOnly().classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
                .withoutExemplars().register(registry);

        firstByte = Histogram.builder().name("jwd_server_first_byte_seconds").unit(Unit.SECONDS)
                .help("Time from sending a request to the server to the first byte of its answer").labelNames("server")
                .classicOnly().classicUpperBounds(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
                .withoutExemplars().register(registry);
        lastByte = Histogram.builder().name("jwd_server_response_seconds").unit(Unit.SECONDS)
                .help("Time from sending a request to the server to the last byte of its answer").labelNames("server")
                .classicOnly().classicUpperBounds(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
                .withoutExemplars().register(registry);

        reloads = Counter.builder().name("jwd_config_reloads_total")
                .help("Reloads of the configuration, by outcome: applied or rejected").labelNames("outcome")
                .withoutExemplars().register(registry);
        reloads.labelValues("applied");
        reloads.labelValues("rejected");
        lastReload = io.prometheus.metrics.core.metrics.Gauge.builder()
                .name("jwd_config_last_reload_timestamp_seconds")
                .help("When the configuration was last reloaded (applied or rejected), in seconds since the epoch")
                .withoutExemplars().register(registry);

        limitRejections = Counter.builder().name("jwd_limit_rejections_total")
                .help("Requests refused for a limit: the key of the limit (jwd.max_header_size, "
                        + "icm/HTTP/max_request_size_KB)").labelNames("limit").withoutExemplars().register(registry);
        serverAborts = Counter.builder().name("jwd_server_aborts_total")
                .help("Answers the server broke off after they had begun: the client's connection was aborted")
                .labelNames("server").withoutExemplars().register(registry);
        GaugeWithCallback.builder().name("jwd_server_max_connections")
                .help("The server's connection limit (server.<id>.max_connections); 0: none").labelNames("server")
                .callback(cb -> topology.get().servers().values()
                        .forEach(s -> cb.call(slots.get().of(s.id()).maxConnections(), s.id()))).register(registry);
        GaugeWithCallback.builder().name("jwd_server_queue_length")
                .help("Requests waiting for a connection slot of the server").labelNames("server")
                .callback(cb -> topology.get().servers().values()
                        .forEach(s -> cb.call(slots.get().of(s.id()).queued(), s.id()))).register(registry);
        CounterWithCallback.builder().name("jwd_server_queue_rejected_total")
                .help("Requests answered 503 for want of a connection slot: the queue was full (queue_full) or "
                        + "they waited past jwd.queue_timeout (queue_timeout)").labelNames("server", "reason")
                .callback(cb -> topology.get().servers().values().forEach(s -> {
                    cb.call(slots.get().of(s.id()).rejected(), s.id(), "queue_full");
                    cb.call(slots.get().of(s.id()).timedOut(), s.id(), "queue_timeout");
                })).register(registry);
        GaugeWithCallback.builder().name("jwd_server_in_flight").help("Requests sent to the server, not answered yet")
                .labelNames("server").callback(cb -> topology.get().servers().values()
                        .forEach(s -> cb.call(s.inFlight(), s.id()))).register(registry);
        GaugeWithCallback.builder().name("jwd_server_capacity").help("The server's capacity (relative weight)")
                .labelNames("server").callback(cb -> topology.get().servers().values()
                        .forEach(s -> cb.call(s.capacity(), s.id()))).register(registry);
        GaugeWithCallback.builder().name("jwd_server_state")
                .help("1 for the state the server is in: up, drained, down or disabled").labelNames("server", "state")
                .callback(cb -> topology.get().servers().values().forEach(s -> {
                    Server.State state = s.state();
                    for (Server.State each : Server.State.values()) {
                        cb.call(each == state ? 1 : 0, s.id(), each.name().toLowerCase(java.util.Locale.ROOT));
                    }
                })).register(registry);
        serverCounter(topology, "jwd_server_requests_total", "Requests the server has answered (or failed)",
                Server::served);
        serverCounter(topology, "jwd_server_errors_total", "Requests the server did not answer properly",
                Server::errors);
        serverCounter(topology, "jwd_server_stateful_requests_total",
                "Requests that followed a session to the server rather than the balancer", Server::statefulRequests);

        GaugeWithCallback.builder().name("jwd_session_table_entries")
                .help("Entries in the session table (SAP's session ID table and the temporary table)")
                .callback(cb -> cb.call(sessionTable.stats().entries())).register(registry);
        GaugeWithCallback.builder().name("jwd_session_table_full")
                .help("1 while the session table is full (wdisp/HTTP/max_session_tab_entries): requests it does not"
                        + " hold go to their group's default server")
                .callback(cb -> cb.call(sessionTable.isFull() ? 1 : 0)).register(registry);
        tableCounter(sessionTable, "jwd_session_table_hits_total", "Lookups that found a binding",
                SessionTableStats::hits);
        tableCounter(sessionTable, "jwd_session_table_misses_total", "Lookups that found none",
                SessionTableStats::misses);
        tableCounter(sessionTable, "jwd_session_table_bindings_total", "New bindings of a session to a server",
                SessionTableStats::bindings);
        tableCounter(sessionTable, "jwd_session_table_rebindings_total",
                "Bindings moved because the bound server was gone", SessionTableStats::rebindings);
        tableCounter(sessionTable, "jwd_session_table_expirations_total",
                "Entries removed after their idle timeout (wdisp/HTTP/context_timeout, SessionTableTimeout)", SessionTableStats::expirations);
        tableCounter(sessionTable, "jwd_session_table_rejected_total",
                "Bindings not stored because the table was full", SessionTableStats::rejected);

        GaugeWithCallback.builder().name("jwd_session_table_cluster_state")
                .help("Cluster mode: 1 for where the bindings live now: none (not clustered), connecting, connected"
                        + " (on the Terracotta server) or disconnected (on this node until the server returns)")
                .labelNames("state").callback(cb -> {
                    ClusterState state = sessionTable.clusterState();
                    for (ClusterState each : ClusterState.values()) {
                        cb.call(each == state ? 1 : 0, each.name().toLowerCase(java.util.Locale.ROOT));
                    }
                }).register(registry);
        clusterCounter(sessionTable, "jwd_session_table_cluster_outages_total",
                "Cluster mode: times the Terracotta server was lost", ClusterStatus::outages);
        clusterCounter(sessionTable, "jwd_session_table_cluster_served_locally_total",
                "Cluster mode: operations served from this node's own table while the server was unreachable",
                ClusterStatus::servedLocally);
        clusterCounter(sessionTable, "jwd_session_table_cluster_carried_over_total",
                "Cluster mode: bindings made without the server and carried over to it afterwards",
                ClusterStatus::carriedOver);
        GaugeWithCallback.builder().name("jwd_session_table_persistent")
                .help("1 when the session table is kept on disk across restarts (SessionTable.disk_path), else 0")
                .callback(cb -> cb.call(sessionTable.persistence().persistent() ? 1 : 0)).register(registry);
        GaugeWithCallback.builder().name("jwd_session_table_restored")
                .help("Persistent session table: bindings read back from disk at the start")
                .callback(cb -> cb.call(sessionTable.persistence().restored())).register(registry);
        GaugeWithCallback.builder().name("jwd_session_table_restored_timestamp_seconds")
                .help("Persistent session table: when the bindings were read back at the start (0: not persistent)")
                .callback(cb -> cb.call(sessionTable.persistence().restoredAtMillis() / 1000.0)).register(registry);
        GaugeWithCallback.builder().name("jwd_session_table_flushed_timestamp_seconds")
                .help("Persistent session table: when the bindings were last written to disk (0: not yet)")
                .callback(cb -> cb.call(sessionTable.persistence().lastFlushMillis() / 1000.0)).register(registry);
    }

    private void clusterCounter(SessionTable table, String name, String help,
                                java.util.function.ToLongFunction<ClusterStatus> value) {
        CounterWithCallback.builder().name(name).help(help)
                .callback(cb -> cb.call(value.applyAsLong(table.clusterStatus()))).register(registry);
    }

    private void serverCounter(Supplier<Topology> topology, String name, String help,
                               java.util.function.ToLongFunction<Server> value) {
        CounterWithCallback.builder().name(name).help(help).labelNames("server")
                .callback(cb -> topology.get().servers().values()
                        .forEach(s -> cb.call(value.applyAsLong(s), s.id()))).register(registry);
    }

    private void tableCounter(SessionTable table, String name, String help,
                              java.util.function.ToLongFunction<SessionTableStats> value) {
        CounterWithCallback.builder().name(name).help(help)
                .callback(cb -> cb.call(value.applyAsLong(table.stats()))).register(registry);
    }

    /**
     * A request was answered (or refused, or failed).
     *
     * @param group         its group, or {@code null} when none was chosen
     * @param server        its server, or {@code null} when it was refused before one was chosen
     * @param status        the status the client got
     * @param durationNanos from routing to the end of the answer
     */
    public void requestCompleted(ServerGroup group, Server server, int status, long durationNanos) {
        String g = group == null ? NONE : group.name();
        String s = server == null ? NONE : server.id();
        ConcurrentHashMap<String, Children> byServer = children.get(g);
        if (byServer == null) {
            byServer = children.computeIfAbsent(g, k -> new ConcurrentHashMap<>());
        }
        Children c = byServer.get(s);
        if (c == null) {
            c = byServer.computeIfAbsent(s, k -> new Children(g, s));
        }
        int statusClass = status >= 100 && status < 600 ? status / 100 : 0;
        c.requests(statusClass).inc();
        c.duration.observe(durationNanos / 1e9);
    }

    /**
     * The server answered a request completely.
     *
     * @param firstByteNanos from sending the request to the first byte of the answer
     * @param lastByteNanos  from sending the request to the last byte
     * @param nowNanos       {@link System#nanoTime()} now: the answer counts in the minute before it
     */
    public void serverAnswered(Server server, long firstByteNanos, long lastByteNanos, long nowNanos) {
        ServerTimes times = responseTimes.get(server.id());
        if (times == null) {
            times = responseTimes.computeIfAbsent(server.id(), id -> new ServerTimes(new ResponseTimes(),
                    firstByte.labelValues(id), lastByte.labelValues(id)));
        }
        times.lastMinute().record(firstByteNanos, lastByteNanos, nowNanos);
        times.firstByte().observe(firstByteNanos / 1e9);
        times.lastByte().observe(lastByteNanos / 1e9);
    }

    /**
     * The server's p50 and p99 response times in the minute before {@code nowNanos}, or {@code null} when it
     * answered no request in that minute.
     */
    public ResponseTimes.Quantiles lastMinute(String serverId, long nowNanos) {
        ServerTimes times = responseTimes.get(serverId);
        ResponseTimes.Quantiles q = times == null ? null : times.lastMinute().lastMinute(nowNanos);
        return q == null || q.count() == 0 ? null : q;
    }

    /** A reload of the configuration was applied or rejected at {@code epochMillis}. */
    public void configReloaded(boolean applied, long epochMillis) {
        reloads.labelValues(applied ? "applied" : "rejected").inc();
        lastReload.set(epochMillis / 1000.0);
    }

    /** A request was refused for the limit set by {@code key}. */
    public void limitRejected(String key) {
        limitRejections.labelValues(key).inc();
    }

    /** The server broke off an answer that had begun. */
    public void serverAborted(Server server) {
        serverAborts.labelValues(server.id()).inc();
    }

    /** Writes every metric in the Prometheus text format. */
    public void write(OutputStream out) throws IOException {
        writer.write(out, registry.scrape());
    }

    /** The content type of {@link #write}'s output. */
    public String contentType() {
        return PrometheusTextFormatWriter.CONTENT_TYPE;
    }

    @Override
    public String toString() {
        return "DispatcherMetrics(" + children.size() + " groups seen)";
    }
}
