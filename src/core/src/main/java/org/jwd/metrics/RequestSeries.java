package org.jwd.metrics;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * The series jwd counts as requests pass, in one label schema:
 * {@code jwd_requests_total{group,server,status_class}}, {@code jwd_request_duration_seconds{group,server}},
 * {@code jwd_server_first_byte_seconds{server}}, {@code jwd_server_last_byte_seconds{server}} and
 * {@code jwd_server_aborts_total{server}}; with {@code system} before those labels when made
 * {@link #register for systems}. A Prometheus metric's label names are fixed, so {@link DispatcherMetrics} keeps one
 * of these per schema, each in a registry of its own.
 *
 * <p>Label children are made once per label values and kept ({@link Children}), so that a request allocates
 * nothing for its labels; those of a server that left the topology are dropped with its series ({@link #retain}),
 * and never made again for it (a request that ends after its server left counts in no series).
 */
final class RequestSeries {
    private final boolean bySystem;
    private final Counter requests;
    private final Histogram duration;
    private final Histogram firstByte;
    private final Histogram lastByte;
    private final Counter aborts;
    /** system (or "" without systems) -> group -> server -> its label children */
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, ConcurrentHashMap<String, Children>>> children =
            new ConcurrentHashMap<>();

    private RequestSeries(boolean bySystem, PrometheusRegistry registry) {
        this.bySystem = bySystem;
        requests = Counter.builder().name("jwd_requests_total")
                .help("Requests answered, by group, server and status class (2xx, ...)")
                .labelNames(names("group", "server", "status_class")).withoutExemplars().register(registry);
        duration = Histogram.builder().name("jwd_request_duration_seconds").unit(Unit.SECONDS)
                .help("Time from routing a request to the end of its answer").labelNames(names("group", "server"))
                .classicOnly().classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
                .withoutExemplars().register(registry);
        firstByte = Histogram.builder().name("jwd_server_first_byte_seconds").unit(Unit.SECONDS)
                .help("Time from sending a request to the server to the first byte of its answer")
                .labelNames(names("server")).classicOnly()
                .classicUpperBounds(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
                .withoutExemplars().register(registry);
        lastByte = Histogram.builder().name("jwd_server_last_byte_seconds").unit(Unit.SECONDS)
                .help("Time from sending a request to the server to the last byte of its answer")
                .labelNames(names("server")).classicOnly()
                .classicUpperBounds(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
                .withoutExemplars().register(registry);
        aborts = Counter.builder().name("jwd_server_aborts_total")
                .help("Answers the server broke off after they had begun: the client's connection was aborted")
                .labelNames(names("server")).withoutExemplars().register(registry);
    }

    /**
     * The series of one label schema, registered in {@code registry}.
     *
     * @param bySystem whether each series carries a {@code system} label
     */
    static RequestSeries register(PrometheusRegistry registry, boolean bySystem) {
        return new RequestSeries(bySystem, registry);
    }

    /** The label names of this schema: {@code names}, after {@code system} when it has one. */
    private String[] names(String... names) {
        return bySystem ? prepend(ServerSeries.SYSTEM, names) : names;
    }

    /** The label values of this schema: {@code values}, after the SID when it has a system label. */
    private String[] values(String system, String... values) {
        return bySystem ? prepend(system, values) : values;
    }

    private static String[] prepend(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    /** The label children of one system, group and server. */
    private final class Children {
        private final String[] labels;
        /** by status class; made on first use (racing threads get the same data point from the client) */
        private final CounterDataPoint[] byClass = new CounterDataPoint[DispatcherMetrics.STATUS_CLASSES.length];
        private final DistributionDataPoint duration;

        Children(String system, String group, String server) {
            this.labels = values(system, group, server);
            this.duration = RequestSeries.this.duration.labelValues(labels);
        }

        CounterDataPoint requests(int statusClass) {
            CounterDataPoint c = byClass[statusClass];
            if (c == null) {
                String[] withStatus = java.util.Arrays.copyOf(labels, labels.length + 1);
                withStatus[labels.length] = DispatcherMetrics.STATUS_CLASSES[statusClass];
                c = requests.labelValues(withStatus);
                byClass[statusClass] = c;
            }
            return c;
        }
    }

    /**
     * Counts a request: its status class and its duration, in seconds.
     *
     * @param live whether a server is in the topology in force: a server's series are made only then
     */
    void completed(String system, String group, String server, int statusClass, double seconds,
                   Predicate<String> live) {
        String key = bySystem ? system : "";
        var byGroup = children.get(key);
        if (byGroup == null) {
            byGroup = children.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
        }
        var byServer = byGroup.get(group);
        if (byServer == null) {
            byServer = byGroup.computeIfAbsent(group, k -> new ConcurrentHashMap<>());
        }
        Children c = byServer.get(server);
        if (c == null) {
            // a map's computeIfAbsent keeps nothing when the function returns null
            c = byServer.computeIfAbsent(server, k -> live.test(k) ? new Children(system, group, server) : null);
            if (c == null) {
                return;
            }
        }
        c.requests(statusClass).inc();
        c.duration.observe(seconds);
    }

    /** The data points of a server's response times: to its first byte, and to its last. */
    DistributionDataPoint[] responseTimes(String system, String server) {
        return new DistributionDataPoint[] {firstByte.labelValues(values(system, server)),
                lastByte.labelValues(values(system, server))};
    }

    /** The server broke off an answer. */
    void aborted(String system, String server) {
        aborts.labelValues(values(system, server)).inc();
    }

    /**
     * Drops the series of the servers {@code live} no longer holds (and their label children), and, with a
     * {@code system} label, a server's series of a system it is no longer of: its first and last byte times and its
     * aborts, labelled by the server's system. Requests' series keep the request's system.
     *
     * @param systemOf the SID a server's series carry now ({@value DispatcherMetrics#NONE} for none)
     */
    void retain(Predicate<String> live, UnaryOperator<String> systemOf) {
        for (var byGroup : children.values()) {
            for (var byServer : byGroup.values()) {
                byServer.keySet().removeIf(server -> !live.test(server));
            }
        }
        int server = bySystem ? 1 : 0;
        Function<List<String>, Boolean> requestGone = labels -> !live.test(labels.get(server + 1));
        Function<List<String>, Boolean> serverGone = labels -> !live.test(labels.get(server))
                || bySystem && !labels.get(0).equals(systemOf.apply(labels.get(server)));
        requests.removeIf(requestGone);
        duration.removeIf(requestGone);
        firstByte.removeIf(serverGone);
        lastByte.removeIf(serverGone);
        aborts.removeIf(serverGone);
    }

    /** How many groups requests were counted in, over every system. */
    int groupsSeen() {
        return children.values().stream().mapToInt(ConcurrentHashMap::size).sum();
    }

    @Override
    public String toString() {
        return "RequestSeries(" + (bySystem ? "with" : "without") + " a system label, " + groupsSeen()
                + " groups seen)";
    }
}
