package org.jwd.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jwd.sessiontable.ClusterState;
import org.jwd.sessiontable.ClusterStatus;
import org.jwd.sessiontable.SessionTable;
import org.jwd.config.Version;
import org.jwd.limits.ConnectionSlots;
import org.jwd.tls.TlsStatus;
import org.jwd.sessiontable.SessionTableStats;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.Topology;

/**
 * jwd's Prometheus metrics, in registries of their own (per dispatcher), written in the text format at
 * {@code /jwd/admin/metrics}. The only package that knows the Prometheus client.
 *
 * <ul>
 * <li>{@code jwd_requests_total{group,server,status_class}}: answered requests by group, server and status class
 *     ({@code 2xx}...{@code 5xx}); refused ones carry {@code server="none"}.</li>
 * <li>{@code jwd_request_duration_seconds{group,server}}: a histogram of the time from routing to the end of
 *     the answer.</li>
 * <li>{@code jwd_server_first_byte_seconds{server}} and {@code jwd_server_last_byte_seconds{server}}: histograms of
 *     the time from sending a request to the server to the first byte of its answer, and to the last; the last
 *     minute's p50 and p99 per server are kept for the admin page ({@link #lastMinute}).</li>
 * <li>{@code jwd_server_in_flight}, {@code jwd_server_capacity}, {@code jwd_server_state{state}} (1 for the state
 *     the server is in), {@code jwd_server_requests_total}, {@code jwd_server_errors_total},
 *     {@code jwd_server_stateful_requests_total}: per server, read from the servers when scraped.</li>
 * <li>{@code jwd_server_max_connections}, {@code jwd_server_queue_length} (gauges) and
 *     {@code jwd_server_queue_rejected_total{server,reason}}: connection limits, per server;
 *     {@code jwd_server_aborts_total{server}}: answers broken off by the server;
 *     {@code jwd_limit_rejections_total{limit}}: requests refused for their header or body size.</li>
 * <li>{@code jwd_group_servers_up{group}}: per group with members, how many take new requests.</li>
 * <li>{@code jwd_session_table_entries} and {@code jwd_session_table_{hits,misses,bindings,rebindings,expirations,
 *     rejected}_total}.</li>
 * <li>Cluster mode: {@code jwd_session_table_cluster_state{state}} (1 for none, connecting, connected or
 *     disconnected) and {@code jwd_session_table_cluster_{outages,served_locally,carried_over}_total};
 *     {@code jwd_session_table_cluster_writes_total} and {@code jwd_session_table_cluster_write_seconds_total}: the
 *     writes of sessions' entries the Terracotta server answered and their time, so that the rate of the second over
 *     the rate of the first is the server's mean write latency as this node sees it.</li>
 * <li>With {@code SessionTable.disk_path}: {@code jwd_session_table_persistent}, {@code _restored_bindings},
 *     {@code _restored_timestamp_seconds}, {@code _flushed_timestamp_seconds}, {@code _flush_failures_total}.</li>
 * <li>{@code jwd_config_reloads_total{outcome}} ({@code applied} or {@code rejected}) and
 *     {@code jwd_config_last_reload_timestamp_seconds}: reloads of the configuration.</li>
 * <li>{@code jwd_access_log_dropped_lines_total}: access log lines that never reached a file
 *     ({@link #watchAccessLog}).</li>
 * <li>{@code jwd_tls_certificate_expiry_seconds{listener,alias,subject}}: when each certificate jwd presents expires
 *     ({@link #watchCertificates}).</li>
 * </ul>
 *
 * <p>With {@code wdisp/system_<xx>} entries ({@link ServerSystems#configured()}), every series of a server or a group
 * (all those above with a {@code server} or {@code group} label) also has a {@code system} label: the SID of the
 * request's system, or of the server's; {@value #NONE} for a request no system took and for a server of none. A
 * Prometheus metric's label names are fixed when it is made, and a reload may add or remove the systems: so the
 * series are kept in two registries, {@link #plain} and {@link #bySystem}, each with its own label schema
 * ({@link RequestSeries}, {@link ServerSeries}) and both with the metrics of the whole dispatcher (session table,
 * reloads, limits), and a scrape writes the one the systems in force ask for. A jwd without systems writes exactly
 * the series it always wrote.
 *
 * <p>The series follow the landscape: those of a server that left the topology (deregistered, expired, removed from
 * the configuration) are removed when the topology changes ({@link #retain}, called by the runtime) and at every
 * scrape, so that servers that come and go leave no series behind.
 *
 * <p>Per request, {@link #requestCompleted} costs three map reads keyed by strings whose hash is cached, one
 * counter increment and one histogram observation: the label children of each system, group and server are made
 * once and kept, so nothing is allocated for labels per request.
 */
public final class DispatcherMetrics {
    /** The label value for requests refused before a server or group was chosen. */
    public static final String NONE = "none";
    static final String[] STATUS_CLASSES = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};

    /** Without {@code wdisp/system_<xx>}: the series as they always were. */
    private final PrometheusRegistry plain = new PrometheusRegistry();
    /** With systems: the series of servers and groups with a {@code system} label; the others as in {@link #plain}. */
    private final PrometheusRegistry bySystem = new PrometheusRegistry();
    private final ServerSystems systems;
    private final Supplier<Topology> topology;
    /** Whether a server's series may exist: it is in the topology in force ({@value #NONE} always is). */
    private final Predicate<String> live;
    /** The servers of the topology {@link #retain} was last given. */
    private volatile Set<String> retained = Set.of();
    private final RequestSeries plainRequests;
    private final RequestSeries systemRequests;
    private final Counter reloads;
    private final io.prometheus.metrics.core.metrics.Gauge lastReload;
    private final Counter limitRejections;
    /** server id -> the last minute of its response times and its histograms' label children */
    private final ConcurrentHashMap<String, ServerTimes> responseTimes = new ConcurrentHashMap<>();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    /**
     * A server's response times: the last minute, and its histograms' data points for the label values they were
     * made with ({@code system} is {@code ""} without systems; a reload may move the server).
     */
    private record ServerTimes(ResponseTimes lastMinute, String system, DistributionDataPoint firstByte,
                               DistributionDataPoint lastByte) {
    }

    /** A dispatcher without {@code wdisp/system_<xx>}: as {@link #DispatcherMetrics(Supplier, SessionTable, Supplier,
     * ServerSystems)} with {@link ServerSystems#NONE}. */
    public DispatcherMetrics(Supplier<Topology> topology, SessionTable sessionTable, Supplier<ConnectionSlots> slots) {
        this(topology, sessionTable, slots, ServerSystems.NONE);
    }

    /**
     * @param topology     the topology in force, read at each scrape (servers come and go)
     * @param sessionTable the session table whose figures are exported
     * @param systems      which system each server is of: with systems, the series of servers and groups carry a
     *                     {@code system} label
     */
    public DispatcherMetrics(Supplier<Topology> topology, SessionTable sessionTable, Supplier<ConnectionSlots> slots,
                             ServerSystems systems) {
        this.systems = systems;
        this.topology = topology;
        this.live = id -> NONE.equals(id) || topology.get().servers().containsKey(id);
        plainRequests = RequestSeries.register(plain, false);
        systemRequests = RequestSeries.register(bySystem, true);
        ServerSeries.register(plain, false, topology, slots, systems);
        ServerSeries.register(bySystem, true, topology, slots, systems);

        reloads = both(Counter.builder().name("jwd_config_reloads_total")
                .help("Reloads of the configuration, by outcome: applied or rejected").labelNames("outcome")
                .withoutExemplars().build());
        reloads.labelValues("applied");
        reloads.labelValues("rejected");
        lastReload = both(io.prometheus.metrics.core.metrics.Gauge.builder()
                .name("jwd_config_last_reload_timestamp_seconds")
                .help("When the configuration was last reloaded (applied or rejected), in seconds since the epoch")
                .withoutExemplars().build());
        // the JVM's and the process's series (jvm_memory_*, jvm_gc_*, jvm_threads_*, process_cpu_seconds_total, ...)
        io.prometheus.metrics.instrumentation.jvm.JvmMetrics.builder().register(plain);
        io.prometheus.metrics.instrumentation.jvm.JvmMetrics.builder().register(bySystem);
        both(io.prometheus.metrics.core.metrics.Info.builder().name("jwd_build")
                .help("Which jwd runs: its version and the git revision it was built from")
                .labelNames("version", "revision").build())
                .setLabelValues(Version.CURRENT.version(), Version.CURRENT.revision());
        limitRejections = both(Counter.builder().name("jwd_limit_rejections_total")
                .help("Requests refused for a limit: the key of the limit (jwd.max_header_size, "
                        + "icm/HTTP/max_request_size_KB)").labelNames("limit").withoutExemplars().build());

        both(GaugeWithCallback.builder().name("jwd_session_table_entries")
                .help("Entries in the session table (SAP's session ID table and the temporary table)")
                .callback(cb -> cb.call(sessionTable.stats().entries())).build());
        both(GaugeWithCallback.builder().name("jwd_session_table_full")
                .help("1 while the session table is full (wdisp/HTTP/max_session_tab_entries): requests it does not"
                        + " hold go to their group's default server")
                .callback(cb -> cb.call(sessionTable.isFull() ? 1 : 0)).build());
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

        both(GaugeWithCallback.builder().name("jwd_session_table_cluster_state")
                .help("Cluster mode: 1 for where the bindings live now: none (not clustered), connecting, connected"
                        + " (on the Terracotta server) or disconnected (on this node until the server returns)")
                .labelNames("state").callback(cb -> {
                    ClusterState state = sessionTable.clusterState();
                    for (ClusterState each : ClusterState.values()) {
                        cb.call(each == state ? 1 : 0, each.name().toLowerCase(java.util.Locale.ROOT));
                    }
                }).build());
        clusterCounter(sessionTable, "jwd_session_table_cluster_outages_total",
                "Cluster mode: times the Terracotta server was lost", ClusterStatus::outages);
        clusterCounter(sessionTable, "jwd_session_table_cluster_served_locally_total",
                "Cluster mode: operations served from this node's own table while the server was unreachable",
                ClusterStatus::servedLocally);
        clusterCounter(sessionTable, "jwd_session_table_cluster_carried_over_total",
                "Cluster mode: bindings made without the server and carried over to it afterwards",
                ClusterStatus::carriedOver);
        clusterCounter(sessionTable, "jwd_session_table_cluster_writes_total",
                "Cluster mode: writes of sessions' entries the Terracotta server answered (bindings, rebindings,"
                        + " renewals, no-binding markers)", ClusterStatus::writes);
        clusterCounter(sessionTable, "jwd_session_table_cluster_write_seconds_total",
                "Cluster mode: the time of those writes, from the call to the answer; its rate over the rate of"
                        + " jwd_session_table_cluster_writes_total is the server's mean write latency",
                status -> status.writeNanos() / 1e9);
        both(GaugeWithCallback.builder().name("jwd_session_table_persistent")
                .help("1 when the session table is kept on disk across restarts (SessionTable.disk_path), else 0")
                .callback(cb -> cb.call(sessionTable.persistence().persistent() ? 1 : 0)).build());
        both(GaugeWithCallback.builder().name("jwd_session_table_restored_bindings")
                .help("Persistent session table: bindings read back from disk at the start")
                .callback(cb -> cb.call(sessionTable.persistence().restored())).build());
        both(GaugeWithCallback.builder().name("jwd_session_table_restored_timestamp_seconds")
                .help("Persistent session table: when the bindings were read back at the start (0: not persistent)")
                .callback(cb -> cb.call(sessionTable.persistence().restoredAtMillis() / 1000.0)).build());
        both(GaugeWithCallback.builder().name("jwd_session_table_flushed_timestamp_seconds")
                .help("Persistent session table: when the bindings were last written to disk (0: not yet)")
                .callback(cb -> cb.call(sessionTable.persistence().lastFlushMillis() / 1000.0)).build());
        both(CounterWithCallback.builder().name("jwd_session_table_flush_failures_total")
                .help("Persistent session table: writes to disk that failed (a full or read-only disk); the last"
                        + " good write stays on disk, and the bindings are written at the next try")
                .callback(cb -> cb.call(sessionTable.persistence().flushFailures())).build());
    }

    /**
     * Adds {@code jwd_access_log_dropped_lines_total}, read from {@code droppedLines} when scraped: the access log's
     * lines that never reached a file. Called once, by the dispatcher that holds the log.
     */
    public void watchAccessLog(LongSupplier droppedLines) {
        both(CounterWithCallback.builder().name("jwd_access_log_dropped_lines_total")
                .help("Access log lines that never reached a file: the queue was full (the disk could not keep up)"
                        + " or the file could not be written (a full disk, a read-only directory)")
                .callback(cb -> cb.call(droppedLines.getAsLong())).build());
    }

    /**
     * Adds {@code jwd_tls_certificate_expiry_seconds{listener,alias,subject}}, read from {@code certificates} when
     * scraped: when each certificate jwd presents expires (Unix time), so that an alert can fire before it does
     * ({@code jwd_tls_certificate_expiry_seconds - time() < 30 * 86400}). Called once, by the dispatcher.
     */
    public void watchCertificates(Supplier<TlsStatus> certificates) {
        both(GaugeWithCallback.builder().name("jwd_tls_certificate_expiry_seconds")
                .help("When each certificate jwd presents expires, as Unix time: its HTTPS listeners' (by their"
                        + " icm/server_port_<xx> and SSL configuration) and its own towards the servers"
                        + " (wdisp/ssl_cred)")
                .labelNames("listener", "alias", "subject")
                .callback(cb -> certificates.get().presented().forEach(p -> p.certificates().forEach(c ->
                        cb.call(c.notAfter().getEpochSecond(), p.listener(), c.alias(), c.subject()))))
                .build());
    }

    /**
     * Adds {@code jwd_discovery_last_good_view} (1 while a system runs on its last good or kept view: its message
     * server does not answer) and {@code jwd_discovery_refreshed_timestamp_seconds}, per system ({@code -} for the one
     * system without {@code wdisp/system_<xx>}), read when scraped.
     *
     * @param failing     by system: whether it runs on its last good or kept view
     * @param refreshedAt by system: when its lists last answered (epoch ms), 0 before
     */
    public void watchDiscovery(java.util.function.Supplier<java.util.Map<String, Boolean>> failing,
                               java.util.function.Supplier<java.util.Map<String, Long>> refreshedAt) {
        both(GaugeWithCallback.builder().name("jwd_discovery_last_good_view")
                .help("1 while the system runs on its last good view (or the one kept from an earlier run): its"
                        + " message server does not answer").labelNames("system")
                .callback(cb -> failing.get().forEach((system, f) -> cb.call(f ? 1 : 0, system))).build());
        both(GaugeWithCallback.builder().name("jwd_discovery_refreshed_timestamp_seconds")
                .help("When the system's lists (server list, URL mapping table, logon groups) last answered")
                .labelNames("system")
                .callback(cb -> refreshedAt.get().forEach((system, at) -> cb.call(at / 1000.0, system))).build());
    }

    /**
     * A metric of the whole dispatcher (the session table, reloads, limits): the same in both registries, whatever
     * the systems.
     */
    private <T extends Collector> T both(T metric) {
        plain.register(metric);
        bySystem.register(metric);
        return metric;
    }

    private void clusterCounter(SessionTable table, String name, String help,
                                java.util.function.ToDoubleFunction<ClusterStatus> value) {
        both(CounterWithCallback.builder().name(name).help(help)
                .callback(cb -> cb.call(value.applyAsDouble(table.clusterStatus()))).build());
    }

    private void tableCounter(SessionTable table, String name, String help,
                              java.util.function.ToLongFunction<SessionTableStats> value) {
        both(CounterWithCallback.builder().name(name).help(help)
                .callback(cb -> cb.call(value.applyAsLong(table.stats()))).build());
    }

    /**
     * A request was answered (or refused, or failed), without a system: as {@link #requestCompleted(String,
     * ServerGroup, Server, int, long)} with {@code null}.
     */
    public void requestCompleted(ServerGroup group, Server server, int status, long durationNanos) {
        requestCompleted(null, group, server, status, durationNanos);
    }

    /**
     * A request was answered (or refused, or failed).
     *
     * @param system        the SID of its system; {@code null} when none was chosen (or there are none)
     * @param group         its group, or {@code null} when none was chosen
     * @param server        its server, or {@code null} when it was refused before one was chosen
     * @param status        the status the client got
     * @param durationNanos from routing to the end of the answer
     */
    public void requestCompleted(String system, ServerGroup group, Server server, int status, long durationNanos) {
        int statusClass = status >= 100 && status < 600 ? status / 100 : 0;
        requests().completed(orNone(system), group == null ? NONE : group.name(), server == null ? NONE : server.id(),
                statusClass, durationNanos / 1e9, live);
    }

    /** The request series of the label schema in force: with a system label when systems are configured. */
    private RequestSeries requests() {
        return systems.configured() ? systemRequests : plainRequests;
    }

    /** {@code sid}, or {@value #NONE} for no system. */
    static String orNone(String sid) {
        return sid == null ? NONE : sid;
    }

    /**
     * The server answered a request completely.
     *
     * @param firstByteNanos from sending the request to the first byte of the answer
     * @param lastByteNanos  from sending the request to the last byte
     * @param nowNanos       {@link System#nanoTime()} now: the answer counts in the minute before it
     */
    public void serverAnswered(Server server, long firstByteNanos, long lastByteNanos, long nowNanos) {
        String system = systems.configured() ? orNone(systems.systemOf(server.id())) : "";
        ServerTimes times = responseTimes.get(server.id());
        if (times == null && !live.test(server.id())) {
            return; // it left the topology while this request was under way: its series are gone
        }
        if (times == null || !times.system().equals(system)) {
            // first answer, or the first since the server's system changed: data points of its label values now
            DistributionDataPoint[] points = requests().responseTimes(system, server.id());
            ServerTimes made = new ServerTimes(times == null ? new ResponseTimes() : times.lastMinute(), system,
                    points[0], points[1]);
            times = times == null ? responseTimes.computeIfAbsent(server.id(), id -> made)
                    : responseTimes.merge(server.id(), made, (old, next) -> next);
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
        if (live.test(server.id())) {
            requests().aborted(systems.configured() ? orNone(systems.systemOf(server.id())) : "", server.id());
        }
    }

    /**
     * The runtime's new topology: when a server of the one before is not in it, its series are removed at once (as
     * every scrape removes those of servers not in the topology in force, for a request that ended on a server just
     * as it left, and those labelled with a system their server is no longer of).
     */
    public void retain(Topology topology) {
        Set<String> servers = topology.servers().keySet();
        if (!servers.containsAll(retained)) {
            prune(topology);
        }
        retained = servers;
    }

    private void prune(Topology topology) {
        Predicate<String> in = id -> NONE.equals(id) || topology.servers().containsKey(id);
        responseTimes.keySet().removeIf(id -> !in.test(id));
        plainRequests.retain(in, id -> "");
        systemRequests.retain(in, id -> orNone(systems.systemOf(id)));
    }

    /**
     * Writes every metric in the Prometheus text format: with systems configured, the series of servers and groups
     * with their {@code system} label.
     */
    public void write(OutputStream out) throws IOException {
        prune(topology.get());
        writer.write(out, (systems.configured() ? bySystem : plain).scrape());
    }

    /** The content type of {@link #write}'s output. */
    public String contentType() {
        return PrometheusTextFormatWriter.CONTENT_TYPE;
    }

    @Override
    public String toString() {
        return "DispatcherMetrics(" + plainRequests.groupsSeen() + " groups seen, " + systemRequests.groupsSeen()
                + " with a system, " + systems + ")";
    }
}
