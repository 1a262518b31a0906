package org.jwd.metrics;

import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jwd.limits.ConnectionSlots;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.Topology;

/**
 * The per-server series read from the servers when scraped ({@code jwd_server_in_flight}, {@code _capacity},
 * {@code _state{state}}, {@code _requests_total}, {@code _errors_total}, {@code _stateful_requests_total}, and the
 * connection limits {@code jwd_server_max_connections}, {@code _queue_length}, {@code _queue_rejected_total{reason}}),
 * in one label schema: {@code server}, after {@code system} when registered {@code bySystem}; and per group
 * {@code jwd_group_servers_up{group}}, by system each system's own groups.
 */
final class ServerSeries {
    /** The label naming a server's (or a request's) system. */
    static final String SYSTEM = "system";

    private final PrometheusRegistry registry;
    private final boolean bySystem;
    private final Supplier<Topology> topology;
    private final Supplier<ConnectionSlots> slots;
    private final ServerSystems systems;

    private ServerSeries(PrometheusRegistry registry, boolean bySystem, Supplier<Topology> topology,
                         Supplier<ConnectionSlots> slots, ServerSystems systems) {
        this.registry = registry;
        this.bySystem = bySystem;
        this.topology = topology;
        this.slots = slots;
        this.systems = systems;
    }

    /**
     * Registers the per-server series in {@code registry}.
     *
     * @param bySystem whether each series carries a {@code system} label: the SID of the server's system, or
     *                 {@value DispatcherMetrics#NONE} for a server of none
     */
    static void register(PrometheusRegistry registry, boolean bySystem, Supplier<Topology> topology,
                         Supplier<ConnectionSlots> slots, ServerSystems systems) {
        ServerSeries series = new ServerSeries(registry, bySystem, topology, slots, systems);
        series.limits();
        series.groups();
        series.gauge("jwd_server_in_flight", "Requests sent to the server, not answered yet", Server::inFlight);
        series.gauge("jwd_server_capacity", "The server's capacity (relative weight)", Server::capacity);
        GaugeWithCallback.builder().name("jwd_server_state")
                .help("1 for the state the server is in: up, drained, down or disabled").labelNames(series.names("state"))
                .callback(cb -> series.eachServer((s, labels) -> {
                    Server.State state = s.state();
                    for (Server.State each : Server.State.values()) {
                        cb.call(each == state ? 1 : 0, with(labels, each.name().toLowerCase(Locale.ROOT)));
                    }
                })).register(registry);
        series.counter("jwd_server_requests_total", "Requests the server has answered (or failed)", Server::served);
        series.counter("jwd_server_errors_total", "Requests the server did not answer properly", Server::errors);
        series.counter("jwd_server_stateful_requests_total",
                "Requests that followed a session to the server rather than the balancer", Server::statefulRequests);
    }

    private void limits() {
        GaugeWithCallback.builder().name("jwd_server_max_connections")
                .help("The server's connection limit (server.<id>.max_connections); 0: none").labelNames(names())
                .callback(cb -> eachServer((s, labels) -> cb.call(slots.get().of(s.id()).maxConnections(), labels)))
                .register(registry);
        GaugeWithCallback.builder().name("jwd_server_queue_length")
                .help("Requests waiting for a connection slot of the server").labelNames(names())
                .callback(cb -> eachServer((s, labels) -> cb.call(slots.get().of(s.id()).queued(), labels)))
                .register(registry);
        CounterWithCallback.builder().name("jwd_server_queue_rejected_total")
                .help("Requests answered 503 for want of a connection slot: the queue was full (queue_full) or "
                        + "they waited past jwd.queue_timeout (queue_timeout)").labelNames(names("reason"))
                .callback(cb -> eachServer((s, labels) -> {
                    cb.call(slots.get().of(s.id()).rejected(), with(labels, "queue_full"));
                    cb.call(slots.get().of(s.id()).timedOut(), with(labels, "queue_timeout"));
                })).register(registry);
    }

    /**
     * {@code jwd_group_servers_up}: the members of each group that take new requests, so that "no server up in a
     * group" is one comparison. A group's plain and secure variants count together, by its name (the name requests
     * are counted under); a group without members (no ABAP server, no HTTPS port) has no series, lest it alert.
     */
    private void groups() {
        GaugeWithCallback.builder().name("jwd_group_servers_up")
                .help("Members of the group that take new requests (up, neither drained nor disabled); 0: the"
                        + " group's requests are refused").labelNames(bySystem ? new String[] {SYSTEM, "group"}
                        : new String[] {"group"})
                .callback(cb -> {
                    if (bySystem) {
                        systems.topologies().forEach((sid, t) -> upByGroup(t).forEach((g, up) -> cb.call(up, sid, g)));
                    } else {
                        upByGroup(topology.get()).forEach((g, up) -> cb.call(up, g));
                    }
                }).register(registry);
    }

    /** Group name -> how many of its members take new requests, for every group with members. */
    static Map<String, Integer> upByGroup(Topology topology) {
        Map<String, Set<String>> up = new TreeMap<>();
        for (ServerGroup group : topology.allGroups()) {
            if (group.members().isEmpty()) {
                continue;
            }
            Set<String> ids = up.computeIfAbsent(group.name(), name -> new HashSet<>());
            group.members().stream().filter(s -> s.takesNewRequests(group.secure())).forEach(s -> ids.add(s.id()));
        }
        Map<String, Integer> counts = new TreeMap<>();
        up.forEach((name, ids) -> counts.put(name, ids.size()));
        return counts;
    }

    private void gauge(String name, String help, ToLongFunction<Server> value) {
        GaugeWithCallback.builder().name(name).help(help).labelNames(names())
                .callback(cb -> eachServer((s, labels) -> cb.call(value.applyAsLong(s), labels))).register(registry);
    }

    private void counter(String name, String help, ToLongFunction<Server> value) {
        CounterWithCallback.builder().name(name).help(help).labelNames(names())
                .callback(cb -> eachServer((s, labels) -> cb.call(value.applyAsLong(s), labels))).register(registry);
    }

    /** What a callback does with one server and its labels ({@code server}, or {@code system} and {@code server}). */
    @FunctionalInterface
    private interface PerServer {
        void accept(Server server, String[] labels);
    }

    /** Each server of the topology in force, with its label values. */
    private void eachServer(PerServer action) {
        for (Server s : topology.get().servers().values()) {
            action.accept(s, bySystem ? new String[] {DispatcherMetrics.orNone(systems.systemOf(s.id())), s.id()}
                    : new String[] {s.id()});
        }
    }

    /** The label names: {@code server} (after {@code system} by system), then {@code more}. */
    private String[] names(String... more) {
        String[] first = bySystem ? new String[] {SYSTEM, "server"} : new String[] {"server"};
        return more.length == 0 ? first : with(first, more);
    }

    private static String[] with(String[] labels, String... more) {
        String[] all = java.util.Arrays.copyOf(labels, labels.length + more.length);
        System.arraycopy(more, 0, all, labels.length, more.length);
        return all;
    }

    @Override
    public String toString() {
        return "ServerSeries(" + (bySystem ? "with" : "without") + " a system label, " + systems + ")";
    }
}
