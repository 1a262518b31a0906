package org.jwd.limits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.config.ServerConfig;

/**
 * The limits a request must stay within, read from the configuration's limit keys and checked once, as a whole
 * (the parser only accepts the keys).
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
    private static final Pattern SIZE = Pattern.compile("(\\d{1,10})\\s*(|b|k|kb|m|mb)", Pattern.CASE_INSENSITIVE);

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

    /** Reads the limit keys of {@code config}. */
    public static LimitsConfig from(DispatcherConfig config) throws ConfigException {
        Map<String, String> p = config.properties();
        List<String> problems = new ArrayList<>();
        int maxHeaderSize = DEFAULT_MAX_HEADER_SIZE;
        String header = p.get(MAX_HEADER_SIZE);
        if (header != null) {
            long bytes = size(header);
            if (bytes < 1024 || bytes > 1024 * 1024) {
                problems.add(MAX_HEADER_SIZE + " = '" + header + "': expected a size from 1024 bytes to 1 MB:"
                        + " bytes, or a number with a unit (16KB, 1MB)");
            } else {
                maxHeaderSize = (int) bytes;
            }
        }
        long maxRequestBytes = DEFAULT_MAX_REQUEST_SIZE_KB * 1024;
        String body = p.get(MAX_REQUEST_SIZE);
        if (body != null) {
            try {
                long kb = Long.parseLong(body.trim());
                if (kb < -1 || kb > MAX_REQUEST_SIZE_KB) {
                    throw new NumberFormatException();
                }
                // SAP: -1 turns the check off; a limit of 0 KB would refuse every body, so 0 turns it off too.
                maxRequestBytes = kb <= 0 ? NO_LIMIT : kb * 1024;
            } catch (NumberFormatException e) {
                problems.add(MAX_REQUEST_SIZE + " = '" + body + "': expected kilobytes from 1 to " + MAX_REQUEST_SIZE_KB
                        + ", or -1 (or 0) for no limit");
            }
        }
        Duration queueTimeout = config.requestTimeout();
        String queue = p.get(QUEUE_TIMEOUT);
        if (queue != null) {
            Duration d = null;
            try {
                d = Durations.parse(queue);
            } catch (IllegalArgumentException e) {
                // reported below
            }
            if (d == null || d.isZero() || d.isNegative()) {
                problems.add(QUEUE_TIMEOUT + " = '" + queue + "': expected a positive duration: " + Durations.EXPECTED);
            } else {
                queueTimeout = d;
            }
        }
        Map<String, ServerLimit> servers = new TreeMap<>();
        for (ServerConfig s : config.servers()) {
            String connectionsKey = "server." + s.id() + ".max_connections";
            String queueKey = "server." + s.id() + ".max_queue";
            String connections = p.get(connectionsKey);
            String queued = p.get(queueKey);
            int maxConnections = 0;
            if (connections != null) {
                maxConnections = number(connections, 1);
                if (maxConnections < 0) {
                    problems.add(connectionsKey + " = '" + connections + "': expected a positive integer");
                }
            }
            int maxQueue = ServerLimit.UNBOUNDED;
            if (queued != null) {
                maxQueue = number(queued, 0);
                if (maxQueue < 0) {
                    problems.add(queueKey + " = '" + queued + "': expected a non-negative integer");
                } else if (connections == null) {
                    problems.add(queueKey + " = '" + queued + "': expected only with " + connectionsKey
                            + " (requests queue for a connection slot)");
                }
            }
            if (maxConnections > 0 && (queued == null || maxQueue >= 0)) {
                servers.put(s.id(), new ServerLimit(maxConnections, maxQueue));
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new LimitsConfig(maxHeaderSize, maxRequestBytes, queueTimeout, servers);
    }

    /** {@code 8192}, {@code 8KB}, {@code 1MB} in bytes, or -1. */
    static long size(String text) {
        Matcher m = SIZE.matcher(text.strip());
        if (!m.matches()) {
            return -1;
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k", "kb" -> n * 1024;
            case "m", "mb" -> n * 1024 * 1024;
            default -> n;
        };
    }

    /** The integer, or -1 when it is none or below {@code min}. */
    private static int number(String text, int min) {
        try {
            int n = Integer.parseInt(text.strip());
            return n < min ? -1 : n;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public String toString() {
        return "LimitsConfig[" + MAX_HEADER_SIZE + " " + maxHeaderSize + ", " + MAX_REQUEST_SIZE + " "
                + (limitsBody() ? maxRequestBytes / 1024 : -1) + ", " + QUEUE_TIMEOUT + " "
                + Durations.format(queueTimeout) + ", " + servers + "]";
    }
}
