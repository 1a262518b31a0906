package org.jwd.limits;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.config.KeyReader;
import org.jwd.config.ServerSection;

/**
 * The limits a request must stay within, read from the configuration's limit keys and checked once, as a whole
 * (by {@link #read}, with the rest of the file).
 *
 * @param maxHeaderSize   {@code jwd.max_header_size}: bytes of the request line and header fields; over it, 431
 * @param maxRequestBytes {@code icm/HTTP/max_request_size_KB} in bytes: over it, 413; {@link #NO_LIMIT} for none
 * @param queueTimeout    {@code jwd.queue_timeout}: how long a request waits for a connection slot of its server
 * @param servers         server id -> its {@code max_connections} and {@code max_queue}; servers without a limit
 *                        are absent
 */
public record LimitsConfig(int maxHeaderSize, long maxRequestBytes, Duration queueTimeout,
                           Map<String, ServerLimit> servers) {
    public static final String MAX_HEADER_SIZE = "jwd.max_header_size";
    public static final String MAX_REQUEST_SIZE = "icm/HTTP/max_request_size_KB";
    public static final String QUEUE_TIMEOUT = "jwd.queue_timeout";
    public static final long NO_LIMIT = -1;
    /** What Jetty's connector accepts by default (HttpConfiguration.requestHeaderSize), and so what jwd did. */
    public static final int DEFAULT_MAX_HEADER_SIZE = 8 * 1024;
    /** SAP's default: 100 MB. */
    public static final long DEFAULT_MAX_REQUEST_SIZE_KB = 102_400;
    /** SAP's upper bound of the parameter's range. */
    private static final long MAX_REQUEST_SIZE_KB = 1_073_741_824L;

    /**
     * A server's connection limit, as HAProxy's {@code maxconn} and queue.
     *
     * @param maxConnections requests in flight to the server at most
     * @param maxQueue       requests waiting for a slot at most; {@link #UNBOUNDED} for no bound
     */
    public record ServerLimit(int maxConnections, int maxQueue) {
        public static final int UNBOUNDED = -1;

        @Override
        public String toString() {
            return "max_connections " + maxConnections + ", max_queue "
                    + (maxQueue == UNBOUNDED ? "unbounded" : maxQueue);
        }
    }

    public LimitsConfig {
        servers = Map.copyOf(servers);
    }

    public boolean limitsBody() {
        return maxRequestBytes != NO_LIMIT;
    }

    /**
     * Reads the limit keys; {@code jwd.max_header_size} needs a restart (the proxy's client is built with it).
     *
     * @param core the core configuration: the request timeout bounds a queue by default
     */
    public static LimitsConfig read(KeyReader keys, DispatcherConfig core) {
        int maxHeaderSize = (int) keys.restartOnly().size(MAX_HEADER_SIZE, DEFAULT_MAX_HEADER_SIZE, 1024, 1024 * 1024,
                "a size from 1024 bytes to 1 MB: bytes, or a number with a unit (16KB, 1MB)");
        long kb = keys.longInteger(MAX_REQUEST_SIZE, DEFAULT_MAX_REQUEST_SIZE_KB, -1, MAX_REQUEST_SIZE_KB,
                "kilobytes from 1 to " + MAX_REQUEST_SIZE_KB + ", or -1 (or 0) for no limit");
        // SAP: -1 turns the check off; a limit of 0 KB would refuse every body, so 0 turns it off too.
        long maxRequestBytes = kb <= 0 ? NO_LIMIT : kb * 1024;
        Duration queueTimeout = keys.duration(QUEUE_TIMEOUT, core.forwarding().requestTimeout(), false,
                "a positive duration: " + Durations.EXPECTED);
        Map<String, ServerLimit> servers = new TreeMap<>();
        // every server block, also one the server section refused, so that its limit keys are not "unknown"
        for (String id : keys.ids(ServerSection.SERVERS)) {
            ServerLimit limit = serverLimit(keys, ServerSection.SERVERS.prefix() + id + ".");
            if (limit != null) {
                servers.put(id, limit);
            }
        }
        return new LimitsConfig(maxHeaderSize, maxRequestBytes, queueTimeout, servers);
    }

    /** {@code max_connections} and {@code max_queue} of one server block; {@code null} without a (valid) limit. */
    private static ServerLimit serverLimit(KeyReader keys, String prefix) {
        String connectionsKey = prefix + "max_connections";
        String queueKey = prefix + "max_queue";
        int before = keys.problemCount();
        int maxConnections = keys.integer(connectionsKey, 0, 1, Integer.MAX_VALUE, "a positive integer");
        int maxQueue = keys.integer(queueKey, ServerLimit.UNBOUNDED, 0, Integer.MAX_VALUE,
                "a non-negative integer");
        if (keys.raw(queueKey) != null && keys.raw(connectionsKey) == null && keys.problemCount() == before) {
            keys.problem(queueKey, "only with " + connectionsKey + " (requests queue for a connection slot)");
        }
        return maxConnections > 0 && keys.problemCount() == before ? new ServerLimit(maxConnections, maxQueue) : null;
    }

    @Override
    public String toString() {
        return "LimitsConfig[" + MAX_HEADER_SIZE + " " + maxHeaderSize + ", " + MAX_REQUEST_SIZE + " "
                + (limitsBody() ? maxRequestBytes / 1024 : -1) + ", " + QUEUE_TIMEOUT + " "
                + Durations.format(queueTimeout) + ", " + servers + "]";
    }
}
