package org.jwd.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A load balancer in front of two jwd nodes, run from the configuration the project ships ({@code config/haproxy.cfg},
 * {@code config/nginx-jwd.conf}) with only its addresses replaced: the nodes' {@code 127.0.0.1:8080} and
 * {@code 127.0.0.1:8081}, its own {@code 127.0.0.1:8000}. So what is measured is what a user copies. HAProxy runs in
 * the foreground ({@code -db}); nginx with a main configuration of its own around the shipped http-block part
 * (its pid file, logs and temporary files in {@code dir}). Debian's {@code haproxy} and {@code nginx} packages.
 */
public final class FrontBalancer implements AutoCloseable {
    /** Which balancer, and its file under {@code config/}. */
    public enum Kind {
        HAPROXY("haproxy.cfg"), NGINX("nginx-jwd.conf");

        private final String file;

        Kind(String file) {
            this.file = file;
        }

        public String file() {
            return file;
        }
    }

    private final Kind kind;
    private final Process process;
    private final int port;

    private FrontBalancer(Kind kind, Process process, int port) {
        this.kind = kind;
        this.process = process;
        this.port = port;
    }

    /** Where the balancer's program is, or null when it is not installed. */
    public static Path program(Kind kind) {
        String name = kind == Kind.HAPROXY ? "haproxy" : "nginx";
        for (String dir : List.of("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /**
     * Starts the balancer on a free loopback port in front of {@code node1} and {@code node2} ({@code host:port}),
     * and waits until it listens.
     *
     * @param project the source tree (its {@code config/})
     * @param dir     where its configuration, pid file and logs go
     */
    public static FrontBalancer start(Kind kind, Path project, Path dir, String node1, String node2)
            throws IOException, InterruptedException {
        Path program = program(kind);
        if (program == null) {
            throw new IllegalStateException(kind + " is not installed (bin/jwd test installs it: apt-get install "
                    + kind.name().toLowerCase(Locale.ROOT) + ")");
        }
        int port = freePort();
        String shipped = Files.readString(project.resolve("config").resolve(kind.file()));
        for (String address : List.of("127.0.0.1:8080", "127.0.0.1:8081", "127.0.0.1:8000")) {
            if (!shipped.contains(address)) {
                throw new IllegalStateException("config/" + kind.file() + " no longer names " + address);
            }
        }
        String config = shipped.replace("127.0.0.1:8080", node1).replace("127.0.0.1:8081", node2)
                .replace("127.0.0.1:8000", "127.0.0.1:" + port);
        Files.createDirectories(dir);
        Path file = dir.resolve(kind.file());
        Files.writeString(file, config);
        ProcessBuilder pb = kind == Kind.HAPROXY
                ? new ProcessBuilder(program.toString(), "-db", "-f", file.toString())
                : new ProcessBuilder(program.toString(), "-p", dir.toString(), "-e", dir.resolve("error.log").toString(),
                        "-c", nginxMain(dir, file).toString());
        Process process = pb.redirectErrorStream(true).redirectOutput(dir.resolve(kind.name().toLowerCase(
                Locale.ROOT) + ".log").toFile()).start();
        FrontBalancer front = new FrontBalancer(kind, process, port);
        front.awaitListening(dir);
        return front;
    }

    /** nginx's main configuration: in the foreground, its files in {@code dir}, the shipped part included. */
    private static Path nginxMain(Path dir, Path part) throws IOException {
        Path temp = dir.resolve("temp");
        Files.createDirectories(temp);
        boolean root = "root".equals(System.getProperty("user.name"));
        String main = (root ? "user root;\n" : "") + """
                daemon off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log notice;
                events { worker_connections 1024; }
                http {
                    access_log %1$s/access.log;
                    client_body_temp_path %2$s/body;
                    proxy_temp_path %2$s/proxy;
                    fastcgi_temp_path %2$s/fastcgi;
                    uwsgi_temp_path %2$s/uwsgi;
                    scgi_temp_path %2$s/scgi;
                    include %3$s;
                }
                """.formatted(dir, temp, part);
        Path file = dir.resolve("nginx-main.conf");
        Files.writeString(file, main);
        return file;
    }

    private void awaitListening(Path dir) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!listening()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                close();
                throw new IllegalStateException(kind + " did not start listening on 127.0.0.1:" + port + ":\n"
                        + Files.readString(dir.resolve(kind.name().toLowerCase(Locale.ROOT) + ".log")));
            }
            Thread.sleep(50); // a process's port coming up: no event to wait for
        }
    }

    private boolean listening() {
        try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    public Kind kind() {
        return kind;
    }

    /** {@code http://127.0.0.1:<port>/} */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    /** Stops it (SIGTERM, then SIGKILL after 10 s), with its workers. */
    @Override
    public void close() {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        children.forEach(ProcessHandle::destroyForcibly);
    }

    @Override
    public String toString() {
        return kind + " on " + uri();
    }
}
