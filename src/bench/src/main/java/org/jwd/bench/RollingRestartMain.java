package org.jwd.bench;

import static org.jwd.bench.MainOptions.number;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jwd.demo.DemoBackend;

/**
 * {@code src/bench/rolling-restart}'s driver: three demo servers in this JVM, two jwd nodes ({@code bin/jwd run} of the
 * project, on loopback) sharing the session table on the Terracotta server the script started, and for each
 * balancer named ({@code --fronts haproxy,nginx}) a {@link RollingRestart} through it. Options (defaults in brackets):
 * {@code --project DIR --out DIR --terracotta URI} and {@code --fronts [haproxy,nginx] --rounds [2] --clients [8]
 * --post-every [4] --body-bytes [8192] --warm-up-seconds [5] --settle-seconds [3] --stop-delay [2s]}. Prints each
 * report; exits 0 when every run met its targets, 1 otherwise.
 */
public final class RollingRestartMain {

    private RollingRestartMain() {
    }

    /** A node as an operator runs it: {@code bin/jwd run}, stopped with SIGTERM; its output in the run's folder. */
    private static final class ProcessNode implements RollingRestart.Node {
        private final Path project;
        private final Path config;
        private final Path out;
        private final int port;
        private int starts;
        private Process process;

        ProcessNode(Path project, Path config, Path out) throws IOException {
            this.project = project;
            this.config = config;
            this.out = out;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                this.port = socket.getLocalPort();
            }
        }

        void start() throws IOException, InterruptedException {
            Path log = out.resolve("jwd-" + port + "-" + (++starts) + ".out");
            ProcessBuilder pb = new ProcessBuilder(project.resolve("bin/jwd").toString(), "run", "--config",
                    config.toString(), "--port", String.valueOf(port), "--host", "127.0.0.1")
                    .redirectOutput(log.toFile())
                    .redirectError(out.resolve("jwd-" + port + "-" + starts + ".err").toFile());
            // the distribution the script built: an edit of a source meanwhile must not rebuild it mid-run
            pb.environment().put("JWD_NO_BUILD", "1");
            process = pb.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(log).contains("jwd: ready on")) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new IllegalStateException("jwd did not start; see " + log);
                }
                Thread.sleep(50); // polling a process's output file: no event to wait for
            }
        }

        @Override
        public void restart() throws Exception {
            stop();
            start();
        }

        void stop() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("jwd on port " + port + " did not stop within 90 s of SIGTERM");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("jwd on port " + port + " stopped with status " + process.exitValue());
            }
        }

        @Override
        public URI uri() {
            return URI.create("http://127.0.0.1:" + port + "/");
        }

        String address() {
            return "127.0.0.1:" + port;
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = MainOptions.parse(args);
        Path project = Path.of(options.get("project"));
        Path out = Path.of(options.get("out"));
        List<DemoBackend> servers = new ArrayList<>();
        List<ProcessNode> nodes = new ArrayList<>();
        boolean passed = true;
        try {
            Path config = writeConfig(out, servers, options);
            for (int i = 0; i < 2; i++) {
                nodes.add(new ProcessNode(project, config, out));
            }
            for (ProcessNode node : nodes) {
                node.start();
            }
            for (String name : options.getOrDefault("fronts", "haproxy,nginx").split(",")) {
                passed &= runBehind(FrontBalancer.Kind.valueOf(name.strip().toUpperCase(java.util.Locale.ROOT)),
                        project, out, nodes, options);
            }
        } finally {
            for (ProcessNode node : nodes) {
                if (node.process != null && node.process.isAlive()) {
                    node.process.destroy();
                    node.process.waitFor(60, TimeUnit.SECONDS);
                }
            }
            servers.forEach(DemoBackend::close);
        }
        System.exit(passed ? 0 : 1);
    }

    private static boolean runBehind(FrontBalancer.Kind kind, Path project, Path out, List<ProcessNode> nodes,
                                     Map<String, String> options) throws Exception {
        try (FrontBalancer front = FrontBalancer.start(kind, project, out.resolve(kind.name().toLowerCase(
                java.util.Locale.ROOT)), nodes.get(0).address(), nodes.get(1).address())) {
            RollingRestart.Settings settings = new RollingRestart.Settings(front.uri(), List.copyOf(nodes),
                    number(options, "rounds", 2), number(options, "clients", 8), number(options, "post-every", 4),
                    number(options, "body-bytes", 8192), Duration.ofSeconds(number(options, "warm-up-seconds", 5)),
                    Duration.ofSeconds(number(options, "settle-seconds", 3)));
            RollingRestart.Result result = new RollingRestart(settings, System.err).run(front.toString());
            System.out.print(result.report());
            System.out.println();
            System.out.flush();
            return result.passed();
        }
    }

    /** Three J2EE demo servers, and the nodes' configuration: cluster mode, the stop delay. */
    private static Path writeConfig(Path out, List<DemoBackend> servers, Map<String, String> options)
            throws IOException {
        StringBuilder config = new StringBuilder("# src/bench/rolling-restart: two nodes, one session table\n");
        for (String id : List.of("s1", "s2", "s3")) {
            DemoBackend server = DemoBackend.start(DemoBackend.Options.j2ee(id));
            servers.add(server);
            config.append("server.").append(id).append(".url=").append(server.url()).append('\n')
                    .append("server.").append(id).append(".type=j2ee\n");
        }
        config.append("SessionTableTimeout=10m\nwdisp/HTTP/max_session_tab_entries=100000\n")
                .append("SessionTable.cluster_uri=").append(options.get("terracotta")).append('\n')
                .append("jwd.stop_delay=").append(options.getOrDefault("stop-delay", "2s")).append('\n');
        Path file = out.resolve("jwd.properties");
        Files.writeString(file, config);
        return file;
    }
}
