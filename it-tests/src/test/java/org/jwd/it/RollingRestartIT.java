package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.jwd.bench.FrontBalancer;
import org.jwd.bench.RollingRestart;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * High availability of jwd itself: two nodes sharing one session table on a Terracotta server, behind the load
 * balancers the project ships ({@code config/haproxy.cfg}, {@code config/nginx-jwd.conf}, run as written, only their
 * addresses replaced), under steady sticky load with a quarter POSTs with a body; each node restarted once (SIGTERM,
 * then a start) behind each balancer. No request fails and no session changes its server. The longer run (every node
 * twice, more load) is {@code src/bench/rolling-restart}; both run {@link RollingRestart}.
 */
class RollingRestartIT {
    private static final List<DemoBackend> SERVERS = new java.util.ArrayList<>();
    private static TerracottaServer terracotta;
    private static Node node1;
    private static Node node2;

    /** A node on a port of its own, the same across its restarts (the balancer's configuration names it). */
    private static final class Node implements RollingRestart.Node {
        private final Path config;
        private final int port;
        private JwdProcess process;

        Node(Path config) throws IOException {
            this.config = config;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                this.port = socket.getLocalPort();
            }
        }

        Node start() throws IOException {
            process = JwdProcess.startAsIs(config, Map.of(), "--port", String.valueOf(port), "--host", "127.0.0.1");
            return this;
        }

        @Override
        public void restart() throws Exception {
            assertThat(process.terminate(Duration.ofSeconds(60))).as("exit status of a stop").isZero();
            start();
        }

        @Override
        public URI uri() {
            return URI.create("http://127.0.0.1:" + port + "/");
        }

        String address() {
            return "127.0.0.1:" + port;
        }
    }

    @BeforeAll
    static void start() throws Exception {
        StringBuilder config = new StringBuilder();
        for (String id : List.of("s1", "s2", "s3")) {
            DemoBackend server = DemoBackend.start(DemoBackend.Options.j2ee(id));
            SERVERS.add(server);
            config.append("server.").append(id).append(".url=").append(server.url()).append('\n')
                    .append("server.").append(id).append(".type=j2ee\n");
        }
        terracotta = TerracottaServer.start();
        // as README's "High availability" shows it: the stop delay outlasts the balancers' checks and keep-alive
        config.append("SessionTableTimeout=10m\nwdisp/HTTP/max_session_tab_entries=100000\nSessionTable.cluster_uri=").append(terracotta.uri("jwd-rolling"))
                .append("\njwd.stop_delay=2s\n");
        Path file = Files.createTempFile(JwdProcess.target(), "rolling-restart", ".properties");
        Files.writeString(file, config);
        node1 = new Node(file);
        node2 = new Node(file);
        CompletableFuture<Node> first = CompletableFuture.supplyAsync(() -> startNode(node1));
        startNode(node2);
        first.join();
    }

    private static Node startNode(Node node) {
        try {
            return node.start();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stop() throws IOException {
        Path dir = JwdProcess.target().resolve("tmp");
        Files.createDirectories(dir);
        for (Node node : new Node[] {node1, node2}) {
            if (node != null && node.process != null) {
                Files.write(dir.resolve("RollingRestartIT-" + node.port + ".log"), node.process.log());
                node.process.close();
            }
        }
        if (terracotta != null) {
            terracotta.close();
        }
        SERVERS.forEach(DemoBackend::close);
    }

    @Test
    void eachNodeRestartedBehindHaproxyFailsNoRequestAndMovesNoSession() throws Exception {
        assertRollingRestartPasses(FrontBalancer.Kind.HAPROXY);
    }

    /** nginx open source checks passively: it learns from refused connections, which it sends elsewhere. */
    @Test
    void eachNodeRestartedBehindNginxFailsNoRequestAndMovesNoSession() throws Exception {
        assertRollingRestartPasses(FrontBalancer.Kind.NGINX);
    }

    private static void assertRollingRestartPasses(FrontBalancer.Kind kind) throws Exception {
        Path dir = Files.createTempDirectory(JwdProcess.target(), "rolling-" + kind.name().toLowerCase() + "-");
        try (FrontBalancer front = FrontBalancer.start(kind, JwdProcess.projectDir(), dir, node1.address(),
                node2.address())) {
            RollingRestart.Settings settings = new RollingRestart.Settings(front.uri(), List.of(node1, node2), 1, 6,
                    4, 8192, Duration.ofSeconds(2), Duration.ofSeconds(2));
            RollingRestart.Result result = new RollingRestart(settings, System.out).run(front.toString());
            System.out.print("RollingRestartIT:\n" + result.report());

            assertThat(result.restarts()).as(result.report()).hasSize(2);
            assertThat(result.posts()).as(result.report()).isGreaterThan(50);
            assertThat(result.failures()).as(result.report()).isEmpty();
            assertThat(result.moved()).as(result.report()).isZero();
        }
    }
}
