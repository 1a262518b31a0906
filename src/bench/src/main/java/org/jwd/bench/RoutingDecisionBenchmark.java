package org.jwd.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jwd.affinity.LearnedRoutes;
import org.jwd.limits.ConnectionSlots;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTables;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.routing.Router;
import org.jwd.routing.RoutingDecision;
import org.jwd.routing.RoutingRequest;
import org.jwd.routing.UrlMappingTable;
import org.jwd.topology.Topology;
import org.jwd.runtime.ConfigReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the whole routing decision costs a request, as the servlet makes it: path normalization, session
 * identifiers from the {@code Cookie} header, group determination against 300 ICF prefixes, stateful
 * dispatching through the {@code saplb_*} cookie or the session table (on, 10 min), or the balancer over
 * 16 J2EE servers; then the end of the request is counted ({@code finish}).
 *
 * <p>Variants ({@code cookie}):
 * <ul>
 *   <li>{@code none}: no cookie, the balancer chooses ({@code balanced});</li>
 *   <li>{@code jsessionid}: a JSESSIONID bound in the session table, one of {@value #SESSIONS} bound sessions in
 *       turn, so the table is not a single hot entry ({@code session table});</li>
 *   <li>{@code saplb}: a valid {@code saplb_*=(J2EE1)s3} cookie beside the JSESSIONID ({@code saplb cookie}).</li>
 * </ul>
 * The benchmark checks once, at setup, that each variant takes the way it is named after.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RoutingDecisionBenchmark {
    static final int SESSIONS = 10_000;
    static final int SERVERS = 16;
    static final String PATH = "/irj/portal/x";

    @Param({"none", "jsessionid", "saplb"})
    public String cookie;

    private Router router;
    private SessionTable sessionTable;
    private RoutingRequest[] requests;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws ConfigException {
        DispatcherConfig config = ConfigReader.parse(configText(), "bench");
        List<String> prefixes = config.urlMapping().urlPrefixes();
        UrlMappingTable table = UrlMappingTable.parse(prefixes);
        if (table.size() != 300) {
            throw new IllegalStateException("expected 300 ICF prefixes, got " + table.size());
        }
        sessionTable = SessionTables.create(config);
        router = new Router(config, Topology.of(config), () -> table, sessionTable, new LearnedRoutes(),
                ConnectionSlots.NONE);

        int n = cookie.equals("none") ? 1 : SESSIONS;
        requests = new RoutingRequest[n];
        for (int i = 0; i < n; i++) {
            String jsessionid = "JSESSIONID=" + String.format("%032X", i * 2_654_435_761L);
            List<String> cookies = switch (cookie) {
                case "none" -> List.of();
                case "jsessionid" -> List.of(jsessionid + "; other=1");
                case "saplb" -> List.of(jsessionid + "; saplb_*=(J2EE1)s3; other=1");
                default -> throw new IllegalArgumentException("cookie variant " + cookie);
            };
            requests[i] = RoutingRequest.of("GET", PATH, null, cookies, false);
        }
        // Bind every session once (as the first request of each session did), and check the way each takes.
        String expected = switch (cookie) {
            case "none" -> "balanced";
            case "jsessionid" -> "session table";
            default -> "saplb cookie";
        };
        for (RoutingRequest request : requests) {
            router.route(request).finish(false);
        }
        for (RoutingRequest request : requests) {
            RoutingDecision decision = router.route(request);
            decision.finish(false);
            if (decision.isRejected() || !decision.reason().equals(expected)) {
                throw new IllegalStateException("variant " + cookie + ": expected " + expected + ", got " + decision);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        sessionTable.close();
    }

    @Benchmark
    public RoutingDecision routeAndFinish() {
        RoutingRequest request = requests[next];
        next = next + 1 == requests.length ? 0 : next + 1;
        RoutingDecision decision = router.route(request);
        decision.finish(false);
        return decision;
    }

    /** 16 J2EE servers, the session table on, 300 ICF prefixes (SAP's default wdisp/max_url_map_entries). */
    static String configText() {
        StringBuilder text = new StringBuilder("SessionTableTimeout = 10m\n");
        for (int i = 0; i < SERVERS; i++) {
            text.append("server.s").append(i).append(".url = http://java").append(i).append(":50000\n")
                    .append("server.s").append(i).append(".type = j2ee\n");
        }
        List<String> prefixes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            prefixes.add("/sap/bc/app" + i + "/");
            prefixes.add("/sap/opu/odata/sap/SRV_" + String.format("%04d", i) + "/");
            prefixes.add("/z" + i + "/service/");
        }
        text.append("icf.url_prefixes = ").append(String.join(", ", prefixes)).append('\n');
        return text.toString();
    }
}
