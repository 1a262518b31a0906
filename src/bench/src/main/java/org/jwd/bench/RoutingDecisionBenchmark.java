package org.jwd.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.jwd.runtime.Bootstrap;
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
 *
 * <p>And where the servers and the prefixes come from ({@code servers}): {@code file}, the configuration's
 * {@code server.<id>} blocks and {@code icf.url_prefixes}, the router built here; {@code dispatcher}, the same, the
 * router taken from a started dispatcher's state; {@code discovery}, the same 16 servers and 300 prefixes
 * learned from a server list and an {@code icr_urlprefix} (files, read by the discovery as from SAP), the router taken
 * from the dispatcher's state as a request takes it. A discovered topology must cost a request what a static one
 * does: the same router over the same topology type, the discovered prefixes merged once per table.
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

    @Param({"file", "dispatcher", "discovery"})
    public String servers;

    private Router router;
    private SessionTable sessionTable;
    private Bootstrap boot;
    private RoutingRequest[] requests;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws ConfigException, IOException {
        if (!servers.equals("file")) {
            boot = Bootstrap.build(ConfigReader.parse(servers.equals("discovery")
                    ? discoveredConfigText(Files.createTempDirectory("jwd-bench"))
                    : configText() + "health.interval = 1h\n", "bench"), null);
            boot.dispatcher().discovery().refreshNow();
            router = boot.dispatcher().state().router();
            if (router.topology().servers().size() != SERVERS) {
                throw new IllegalStateException("expected " + SERVERS + " discovered servers, got " + router.topology());
            }
        } else {
            DispatcherConfig config = ConfigReader.parse(configText(), "bench");
            UrlMappingTable table = UrlMappingTable.parse(config.urlMapping().urlPrefixes());
            if (table.size() != 300) {
                throw new IllegalStateException("expected 300 ICF prefixes, got " + table.size());
            }
            sessionTable = SessionTables.create(config);
            router = new Router(config, Topology.of(config), () -> table, sessionTable, new LearnedRoutes(),
                    ConnectionSlots.NONE);
        }

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
        if (boot != null) {
            boot.close();
        } else {
            sessionTable.close();
        }
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
        text.append("icf.url_prefixes = ").append(String.join(", ", prefixes())).append('\n');
        return text.toString();
    }

    private static List<String> prefixes() {
        List<String> prefixes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            prefixes.add("/sap/bc/app" + i + "/");
            prefixes.add("/sap/opu/odata/sap/SRV_" + String.format("%04d", i) + "/");
            prefixes.add("/z" + i + "/service/");
        }
        return prefixes;
    }

    /**
     * The same landscape as SAP would tell it: a server list of 16 Java instances ({@code s0}..., {@code J2EE}
     * rows), an {@code icr_urlprefix} of the 300 prefixes; files in {@code dir}, nothing in the configuration.
     */
    static String discoveredConfigText(Path dir) throws IOException {
        StringBuilder list = new StringBuilder("version 1.2\r\n");
        for (int i = 0; i < SERVERS; i++) {
            list.append("s").append(i).append("\r\nJ2EE\tjava").append(i).append("\t50000\tLB=1\r\n\r\n");
        }
        StringBuilder map = new StringBuilder("version 1.0\r\n");
        prefixes().forEach(p -> map.append("PREFIX=").append(p).append("&CASE=&VHOST=*.*;&STACK=ABAP\r\n"));
        Files.writeString(dir.resolve("logon.txt"), list);
        Files.writeString(dir.resolve("icr_urlprefix.txt"), map);
        Files.writeString(dir.resolve("icr_groups.txt"), "version 1.0\r\n\r\n");
        return "SessionTableTimeout = 10m\nhealth.interval = 1h\n"
                + "wdisp/server_info_location = file://" + dir.resolve("logon.txt") + "\n"
                + "wdisp/url_map_location = file://" + dir.resolve("icr_urlprefix.txt") + "\n"
                + "wdisp/group_info_location = file://" + dir.resolve("icr_groups.txt") + "\n"
                + "jwd.discovery_file = " + dir.resolve("kept.txt") + "\n";
    }
}
