package org.jwd.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import org.jwd.affinity.ClusterState;
import org.jwd.affinity.SessionTable;
import org.jwd.affinity.SessionTables;
import org.jwd.config.ConfigException;
import org.jwd.config.ConfigParser;
import org.jwd.config.DispatcherConfig;

/**
 * What a session table operation costs, clustered (a Terracotta server, usually on loopback) against this node's
 * own table: N operations of each kind through the {@link SessionTable} API, one thread, timed with
 * {@code System.nanoTime()} after a warm-up round. Not JMH: a clustered operation is a network round trip
 * (hundreds of microseconds), far above what JMH's care is for.
 *
 * <pre>java -cp target/classes:target/test-classes:$(cat target/test-classpath.txt) \
 *     org.jwd.bench.SessionTableCost terracotta://127.0.0.1:9410/jwd-bench [N]</pre>
 *
 * <ul>
 *   <li>{@code bind}: a fresh session id (clustered: {@code putIfAbsent} on the server);</li>
 *   <li>{@code lookup hit}: an id this node bound (clustered: the first read fetches it from the server);</li>
 *   <li>{@code lookup hit again}: the same ids once more (clustered: answered by the heap tier in front);</li>
 *   <li>{@code lookup, other node}: an id bound through another node (clustered: a read from the server);</li>
 *   <li>{@code lookup miss}: an unknown id (clustered: a read from the server);</li>
 *   <li>{@code lookup with refresh}: a binding a quarter timeout old, whose stamp is rewritten
 *       ({@code replace} on the server).</li>
 * </ul>
 */
public final class SessionTableCost {
    /** Long enough that no binding is due for a refresh ({@code T/4}) before the refresh round. */
    private static final long TIMEOUT_MILLIS = 20_000;

    private SessionTableCost() {
    }

    public static void main(String[] args) throws Exception {
        String uri = args.length > 0 ? args[0] : "terracotta://127.0.0.1:9410/jwd-bench";
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        measure(uri, n, System.out);
    }

    /** @return microseconds per operation, by table ({@code local}, {@code clustered}) and operation */
    public static Map<String, Map<String, Double>> measure(String clusterUri, int n, PrintStream out)
            throws ConfigException, InterruptedException {
        Map<String, Map<String, Double>> results = new LinkedHashMap<>();
        try (SessionTable local = SessionTables.create(config(null));
             SessionTable other = SessionTables.create(config(null))) {
            measure(local, other, n); // warm-up
            results.put("local", measure(local, other, n));
        }
        try (SessionTable clustered = SessionTables.create(config(clusterUri));
             SessionTable otherNode = SessionTables.create(config(clusterUri))) {
            if (clustered.clusterState() != ClusterState.CONNECTED) {
                throw new IllegalStateException("not connected to " + clusterUri + ": " + clustered);
            }
            measure(clustered, otherNode, n); // warm-up
            results.put("clustered", measure(clustered, otherNode, n));
        }
        out.printf("session table cost, %d operations each, one thread, µs/op%n", n);
        out.printf("%-24s %10s %10s%n", "operation", "local", "clustered");
        for (String operation : results.get("local").keySet()) {
            out.printf("%-24s %10.2f %10.2f%n", operation, results.get("local").get(operation),
                    results.get("clustered").get(operation));
        }
        return results;
    }

    private static Map<String, Double> measure(SessionTable table, SessionTable otherNode, int n)
            throws InterruptedException {
        List<String> mine = ids(n);
        List<String> theirs = ids(n);
        List<String> unknown = ids(n);
        for (String id : theirs) {
            otherNode.bind(id, "b");
        }
        Map<String, Double> micros = new LinkedHashMap<>();
        micros.put("bind", time(mine, id -> table.bind(id, "a")));
        long bound = System.currentTimeMillis();
        micros.put("lookup hit", time(mine, table::lookup));
        micros.put("lookup hit again", time(mine, table::lookup));
        micros.put("lookup, other node", time(theirs, table::lookup));
        micros.put("lookup miss", time(unknown, table::lookup));
        Thread.sleep(Math.max(0, bound + TIMEOUT_MILLIS / 4 + 50 - System.currentTimeMillis()));
        micros.put("lookup with refresh", time(mine, table::lookup));
        return micros;
    }

    private static double time(List<String> ids, Consumer<String> operation) {
        long start = System.nanoTime();
        for (String id : ids) {
            operation.accept(id);
        }
        return (System.nanoTime() - start) / 1_000.0 / ids.size();
    }

    private static List<String> ids(int n) {
        List<String> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(UUID.randomUUID().toString().replace("-", ""));
        }
        return ids;
    }

    private static DispatcherConfig config(String clusterUri) throws ConfigException {
        return ConfigParser.parse("server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n"
                + "server.b.url=http://127.0.0.1:2\nserver.b.type=j2ee\n"
                + "SessionTableTimeout=" + TIMEOUT_MILLIS + "ms\n"
                + "wdisp/HTTP/max_session_tab_entries=100000\n"
                + (clusterUri == null ? "" : "SessionTable.cluster_uri=" + clusterUri + "\n"), "bench");
    }
}
