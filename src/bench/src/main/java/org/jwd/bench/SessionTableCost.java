package org.jwd.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import org.jwd.sessiontable.ClusterState;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTables;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.runtime.ConfigReader;

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
 *   <li>{@code lookup, first after bind}: an id this node bound (clustered: a read from the server, which
 *       puts it in the heap tier);</li>
 *   <li>{@code lookup again}: the same ids once more (clustered: answered by the heap tier in front);</li>
 *   <li>{@code lookup, other node's}: an id bound through another node (clustered: a read from the server);</li>
 *   <li>{@code lookup miss}: an unknown id (clustered: a read from the server, then the no-binding value written
 *       once, see {@code SharedBindings.NO_BINDING});</li>
 *   <li>{@code lookup miss, second}: the same unknown ids once more (clustered: a read, the write having left the
 *       heap tier without them);</li>
 *   <li>{@code lookup miss, third}: once more (clustered: answered by the heap tier, as the learned JSESSIONID of a
 *       session bound in the temporary table is on each of its requests from the third on);</li>
 *   <li>{@code lookup with refresh}: a binding a quarter timeout old, whose stamp is rewritten
 *       ({@code replace} on the server); measured on {@link #REFRESH_IDS} ids with a 4 s timeout.</li>
 * </ul>
 */
public final class SessionTableCost {
    /** Long enough that no binding is due for a refresh ({@code T/4}) while the other operations are timed. */
    private static final long TIMEOUT_MILLIS = 600_000;
    private static final long REFRESH_TIMEOUT_MILLIS = 4_000;
    private static final int REFRESH_IDS = 500;

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
        results.put("local", measure(null, n));
        results.put("clustered", measure(clusterUri, n));
        out.printf("session table cost, %d operations each (refresh: %d), one thread, µs/op%n", n, REFRESH_IDS);
        out.printf("%-28s %10s %10s%n", "operation", "local", "clustered");
        for (String operation : results.get("local").keySet()) {
            out.printf("%-28s %10.2f %10.2f%n", operation, results.get("local").get(operation),
                    results.get("clustered").get(operation));
        }
        return results;
    }

    private static Map<String, Double> measure(String clusterUri, int n) throws ConfigException, InterruptedException {
        Map<String, Double> micros;
        try (SessionTable table = create(clusterUri, TIMEOUT_MILLIS);
             SessionTable otherNode = create(clusterUri, TIMEOUT_MILLIS)) {
            measure(table, otherNode, n); // warm-up
            micros = measure(table, otherNode, n);
        }
        try (SessionTable table = create(clusterUri, REFRESH_TIMEOUT_MILLIS)) {
            refresh(table); // warm-up
            micros.put("lookup with refresh", refresh(table));
        }
        return micros;
    }

    private static SessionTable create(String clusterUri, long timeoutMillis) throws ConfigException {
        SessionTable table = SessionTables.create(config(clusterUri, timeoutMillis));
        if (clusterUri != null && table.clusterState() != ClusterState.CONNECTED) {
            table.close();
            throw new IllegalStateException("not connected to " + clusterUri);
        }
        return table;
    }

    private static Map<String, Double> measure(SessionTable table, SessionTable otherNode, int n) {
        List<String> mine = ids(n);
        List<String> theirs = ids(n);
        List<String> unknown = ids(n);
        for (String id : theirs) {
            otherNode.bind(id, "b");
        }
        Map<String, Double> micros = new LinkedHashMap<>();
        micros.put("bind", time(mine, id -> table.bind(id, "a")));
        micros.put("lookup, first after bind", time(mine, table::lookup));
        micros.put("lookup again", time(mine, table::lookup));
        micros.put("lookup, other node's", time(theirs, table::lookup));
        micros.put("lookup miss", time(unknown, table::lookup));
        micros.put("lookup miss, second", time(unknown, table::lookup));
        micros.put("lookup miss, third", time(unknown, table::lookup));
        return micros;
    }

    /** Lookups of bindings a quarter timeout old: each rewrites its stamp. */
    private static double refresh(SessionTable table) throws InterruptedException {
        List<String> ids = ids(REFRESH_IDS);
        for (String id : ids) {
            table.bind(id, "a");
            table.lookup(id);
        }
        Thread.sleep(REFRESH_TIMEOUT_MILLIS / 4 + 50);
        return time(ids, table::lookup);
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

    private static DispatcherConfig config(String clusterUri, long timeoutMillis) throws ConfigException {
        return ConfigReader.parse("server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n"
                + "server.b.url=http://127.0.0.1:2\nserver.b.type=j2ee\n"
                + "SessionTableTimeout=" + timeoutMillis + "ms\n"
                + "wdisp/HTTP/max_session_tab_entries=100000\n"
                + (clusterUri == null ? "" : "SessionTable.cluster_uri=" + clusterUri + "\n"), "bench");
    }
}
