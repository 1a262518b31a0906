package org.jwd.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.jwd.demo.DemoBackend.Options;
import org.jwd.demo.DemoBackend.ServerType;

/**
 * {@code bin/jwd demo} and {@code bin/jwd cluster-demo}: the demo backends in this JVM and the dispatcher as users
 * run it ({@code bin/jwd run}, a process of its own), the URLs to open once it is ready; Ctrl-C stops everything
 * it started. {@code java org.jwd.demo.Demo demo|cluster-demo PROJECT_DIR}.
 */
public final class Demo {
    private static final String DEMO_URLS = """
            jwd demo: two systems, PRT (a portal) and ERP, behind one jwd; NTB, a third, has no temporary session table.
            Open these in a browser (Ctrl-C stops everything):
              http://localhost:8080/portal           the portal page: four iViews that count clicks in their sessions, each
                                                     explained: the server its session is on, and where jwd sends it and why
              http://localhost:8080/portal?without-table  the same page without the temporary session table: the race
              http://localhost:8080/irj/echo         a PRT URL (SRCURL /irj/ on 8080) -> one of PRT's three Java servers
              http://localhost:8080/sap/bc/echo      an ERP URL (SRCURL /sap/, an ICF prefix of ERP) -> ERP's ABAP server
              http://localhost:8080/erp/echo         an ERP URL (SRCURL /erp/) -> ERP's Java server
              http://localhost:8081/irj/echo         everything on 8081 is ERP's (SRCSRV *:8081) -> ERP's Java server
              http://localhost:8080/jwd/admin/       the Web Administration page (user admin, password demo)
              https://localhost:8443/portal          the portal over HTTPS (HTTP/2 too), self-signed: the browser will ask
            http://localhost:8080/ redirects to the portal (config/demo-actions.txt). X-Jwd-Route names the system, the
            group and why; X-Served-By the server. Logs: target/demo/*.log""";
    private static final String CLUSTER_URLS = """
            jwd cluster demo: two dispatcher nodes share one session table on a Terracotta server (Ctrl-C stops everything):
              http://localhost:8080/portal           the portal through node 1; its iViews count clicks in their sessions
              http://localhost:8081/portal           the same through node 2: same servers, the counts go on
              http://localhost:8080/irj/echo         a J2EE URL; X-Served-By and X-Jwd-Route say which server and why
              http://localhost:8081/jwd/admin/       node 2's Web Administration page (user admin, password demo)
              terracotta://127.0.0.1:9410/jwd-demo   the Terracotta server holding the session table
            Browsers send localhost's cookies to both ports, as they would to two nodes behind one name.
            Logs: target/demo/*.log""";
    /** The portal page's iViews: two of PRT (loaded concurrently: the race the temporary table is for), two of ERP. */
    private static final String[] IVIEWS = {"/irj/iview/a", "/irj/iview/b", "/erp/iview/c", "/sap/bc/iview/d"};

    private final Path project;
    private final Path logs;
    private final List<AutoCloseable> started = new ArrayList<>();

    private Demo(Path project) {
        this.project = project;
        this.logs = project.resolve("target/demo");
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !List.of("demo", "cluster-demo").contains(args[0])) {
            System.err.println("usage: java " + Demo.class.getName() + " demo|cluster-demo PROJECT_DIR");
            System.exit(2);
        }
        // the backends' own log lines only when something goes wrong: the demo's output is the dispatcher's
        System.setProperty("org.eclipse.jetty.LEVEL", System.getProperty("org.eclipse.jetty.LEVEL", "WARN"));
        Demo demo = new Demo(Path.of(args[1]).toAbsolutePath());
        Runtime.getRuntime().addShutdownHook(new Thread(demo::stopAll, "demo-stop"));
        Files.createDirectories(demo.logs);
        if (args[0].equals("demo")) {
            demo.twoSystems();
        } else {
            demo.cluster();
        }
        Thread.currentThread().join();
    }

    /** Two systems behind one dispatcher ({@code config/demo-systems.properties}), HTTPS on 8443. */
    private void twoSystems() throws IOException, InterruptedException {
        makeKeystore();
        backend("j2ee1", 8101, ServerType.J2EE, "demo_PRT_10");
        backend("j2ee2", 8102, ServerType.J2EE, "demo_PRT_20");
        backend("j2ee3", 8103, ServerType.J2EE, "demo_PRT_30");
        backend("abap1", 8111, ServerType.ABAP, "erp_ERP_00");
        backend("erpj2ee1", 8121, ServerType.J2EE, "erp_ERP_10");
        for (int i = 1; i <= 3; i++) {
            backend("ntb" + i, 8130 + i, ServerType.J2EE, "demo_NTB_" + i + "0");
        }
        dispatcher(project.resolve("config/demo-systems.properties"), 8080, "jwd", "--https-port", "8443")
                .await(line -> line.startsWith("jwd: ready on https"));
        System.out.println(DEMO_URLS);
    }

    /** One Terracotta server, the demo's servers, two dispatcher nodes (8080, 8081) sharing one session table. */
    private void cluster() throws IOException, InterruptedException {
        Path dir = logs.resolve("cluster");
        deleteTree(dir);
        Files.createDirectories(dir);
        System.err.println("jwd: starting the Terracotta server on 127.0.0.1:9410 (about 30 s)...");
        Child terracotta = child(terracottaCommand(dir), "terracotta", false);
        terracotta.await(line -> line.contains("ACTIVE-COORDINATOR"));
        for (String id : List.of("j2ee1", "j2ee2", "j2ee3")) {
            backend(id, 8100 + id.charAt(4) - '0', ServerType.J2EE, "demo_JWD_" + id.charAt(4) + "0");
        }
        backend("abap1", 8111, ServerType.ABAP, "demo_JWD_10");
        // the one-system demo over HTTP only, the session table on and shared through the Terracotta server
        StringBuilder config = new StringBuilder();
        for (String line : Files.readAllLines(project.resolve("config/demo.properties"))) {
            if (!line.matches("\\s*(SessionTableTimeout|SessionTable\\.cluster_uri|jwd\\.ssl_keystore[a-z_]*)\\s*[=:].*")) {
                config.append(line).append('\n');
            }
        }
        config.append("\n# Cluster mode: both nodes share one session table on the Terracotta server.\n")
                .append("SessionTableTimeout=10m\nSessionTable.cluster_uri=terracotta://127.0.0.1:9410/jwd-demo\n");
        Path file = Files.writeString(dir.resolve("cluster-demo.properties"), config);
        Child one = dispatcher(file, 8080, "jwd1");
        Child two = dispatcher(file, 8081, "jwd2");
        one.await(line -> line.startsWith("jwd: ready on http"));
        two.await(line -> line.startsWith("jwd: ready on http"));
        System.out.println(CLUSTER_URLS);
    }

    private void backend(String id, int port, ServerType type, String name) {
        Options options = Options.j2ee(id).withPort(port).withType(type).withName(name).withIviewDelayMillis(300)
                .withIviews(IVIEWS);
        started.add(DemoBackend.start(options));
    }

    private Child dispatcher(Path config, int port, String log, String... more) throws IOException {
        List<String> command = new ArrayList<>(List.of(project.resolve("bin/jwd").toString(), "run", "--config",
                config.toString(), "--port", String.valueOf(port), "--host", "127.0.0.1"));
        command.addAll(List.of(more));
        return child(command, log, true);
    }

    private List<String> terracottaCommand(Path dir) throws IOException {
        Path kits = project.resolve("src/demo/target/terracotta");
        Path kit;
        try (var found = Files.list(kits)) {
            kit = found.filter(p -> Files.isExecutable(p.resolve("server/bin/start-tc-server.sh"))).findFirst()
                    .orElseThrow(() -> new IOException("no Terracotta kit under " + kits + ": bin/jwd build"));
        }
        return List.of(kit.resolve("server/bin/start-tc-server.sh").toString(), "-cluster-name", "jwd-demo",
                "-auto-activate", "-hostname", "127.0.0.1", "-bind-address", "127.0.0.1", "-group-bind-address",
                "127.0.0.1", "-port", "9410", "-group-port", "9430", "-offheap-resources", "main:512MB",
                "-config-dir", dir.resolve("config").toString(), "-log-dir", dir.resolve("logs").toString(),
                "-metadata-dir", dir.resolve("metadata").toString(), "-data-dirs", "main:" + dir.resolve("data"));
    }

    /** The demo's self-signed certificate for localhost, made on the first run ({@code jwd.ssl_keystore}). */
    private void makeKeystore() throws IOException, InterruptedException {
        Path keystore = logs.resolve("keystore.p12");
        if (Files.exists(keystore)) {
            return;
        }
        System.err.println("jwd: making a self-signed certificate for localhost: " + project.relativize(keystore));
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "jwd", "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1",
                "-validity", "365", "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass",
                "jwd-demo").redirectErrorStream(true).redirectOutput(logs.resolve("keytool.log").toFile()).start();
        if (p.waitFor() != 0) {
            throw new IOException("keytool could not make " + keystore + " (" + logs.resolve("keytool.log") + ")");
        }
    }

    /** A process of the demo: its standard error to {@code target/demo/<log>.log}, its output read for lines. */
    private Child child(List<String> command, String log, boolean echo) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(logs.resolve(log + ".log").toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Child child = new Child(pb.start(), echo);
        started.add(child);
        return child;
    }

    private void stopAll() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                System.err.println("jwd: stopping " + started.get(i) + ": " + e);
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var all = Files.walk(dir)) {
                for (Path p : all.sorted((a, b) -> b.compareTo(a)).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** A child process whose output lines are watched (and echoed, for the dispatcher's readiness lines). */
    private static final class Child implements AutoCloseable {
        private final Process process;
        private final List<String> lines = new ArrayList<>();
        private final CountDownLatch ended = new CountDownLatch(1);

        Child(Process process, boolean echo) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        if (echo) {
                            System.out.println(line);
                        }
                        synchronized (lines) {
                            lines.add(line);
                            lines.notifyAll();
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } finally {
                    ended.countDown();
                    synchronized (lines) {
                        lines.notifyAll();
                    }
                }
            }, "demo-output-" + process.pid());
            reader.setDaemon(true);
            reader.start();
        }

        /** Waits (3 minutes at most) for a line; exits the demo when the process ends first. */
        void await(Predicate<String> ready) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            synchronized (lines) {
                while (lines.stream().noneMatch(ready)) {
                    if (ended.getCount() == 0 || System.nanoTime() > deadline) {
                        System.err.println("jwd: " + process.info().command().orElse("a process")
                                + " did not start: see its log under target/demo/");
                        System.exit(1);
                    }
                    lines.wait(1000);
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            List<ProcessHandle> children = process.descendants().toList();
            process.destroy();
            children.forEach(ProcessHandle::destroy);
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            children.forEach(ProcessHandle::destroyForcibly);
        }

        @Override
        public String toString() {
            return "process " + process.pid();
        }
    }
}
