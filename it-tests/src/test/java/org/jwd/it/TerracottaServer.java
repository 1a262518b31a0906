package org.jwd.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Terracotta server from the Ehcache kit (unpacked under {@code src/demo/target/terracotta} by the build), started as
 * an operator would: {@code server/bin/start-tc-server.sh -auto-activate} on loopback, on two free ports, with
 * its directories under {@code target/tmp}. Ready once its log says it moved to ACTIVE (about 30 s).
 * {@link #kill()} crashes it (SIGKILL); {@link #restart()} starts it again on the same ports and directories:
 * without persistence it comes back empty, as after a real crash.
 */
public final class TerracottaServer implements AutoCloseable {
    private static final String ACTIVE = "Moved to State[ ACTIVE-COORDINATOR ]";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private final Path kit;
    private final Path dir;
    private final int port;
    private final int groupPort;
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private Process process;

    private TerracottaServer(Path kit, Path dir, int port, int groupPort) {
        this.kit = kit;
        this.dir = dir;
        this.port = port;
        this.groupPort = groupPort;
    }

    /** Starts a server on free loopback ports and waits until it is active. */
    public static TerracottaServer start() {
        try {
            Path tmp = JwdProcess.target().resolve("tmp");
            Files.createDirectories(tmp);
            TerracottaServer server = new TerracottaServer(kit(), Files.createTempDirectory(tmp, "terracotta-"),
                    freePort(), freePort());
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The kit's root: {@code src/demo/target/terracotta/ehcache-clustered-<version>-kit}. */
    public static Path kit() throws IOException {
        Path parent = JwdProcess.projectDir().resolve("src/demo/target/terracotta");
        try (Stream<Path> kits = Files.list(parent)) {
            return kits.filter(p -> Files.isExecutable(p.resolve("server/bin/start-tc-server.sh"))).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no Terracotta kit under " + parent
                            + ": run mvn package first"));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private synchronized void launch() throws IOException {
        ProcessBuilder pb = new ProcessBuilder(kit.resolve("server/bin/start-tc-server.sh").toString(),
                "-cluster-name", "jwd-it", "-auto-activate",
                "-hostname", "127.0.0.1", "-bind-address", "127.0.0.1", "-group-bind-address", "127.0.0.1",
                "-port", String.valueOf(port), "-group-port", String.valueOf(groupPort),
                "-offheap-resources", "main:128MB",
                "-config-dir", dir.resolve("config").toString(), "-log-dir", dir.resolve("logs").toString(),
                "-metadata-dir", dir.resolve("metadata").toString(),
                "-data-dirs", "main:" + dir.resolve("data"))
                .redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // C2 kept: after a stall the server works through the nodes' backlog, as a production server would
        pb.environment().put("JAVA_OPTS", "-Xms64m -Xmx512m");
        log.add("--- starting: " + String.join(" ", pb.command()));
        Process started = pb.start();
        process = started;
        CompletableFuture<Void> active = new CompletableFuture<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(started.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    log.add(line);
                    if (line.contains(ACTIVE)) {
                        active.complete(null);
                    }
                }
            } catch (IOException ignored) {
                // the server ended
            }
            active.completeExceptionally(new IllegalStateException("the Terracotta server exited"));
        }, "terracotta-log");
        pump.setDaemon(true);
        pump.start();
        try {
            active.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            kill();
            throw new IllegalStateException("the Terracotta server did not become active: " + e + "\n"
                    + String.join("\n", log()), e);
        }
    }

    /** {@code terracotta://127.0.0.1:<port>/<entity>} */
    public URI uri(String entity) {
        return URI.create("terracotta://127.0.0.1:" + port + "/" + entity);
    }

    public int port() {
        return port;
    }

    /** Crashes the server: SIGKILL to its JVM and its launcher script, no goodbye to the clients. */
    public synchronized void kill() {
        Process p = process;
        if (p == null) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
        log.add("--- killed");
    }

    /**
     * Freezes the server (SIGSTOP to its JVM and launcher): it keeps its connections and answers nothing, as a
     * server starved of CPU; {@link #resume()} lets it go on where it stopped.
     */
    public synchronized void pause() {
        signal("-STOP");
        log.add("--- paused");
    }

    /** Lets a {@link #pause() paused} server go on (SIGCONT). */
    public synchronized void resume() {
        signal("-CONT");
        log.add("--- resumed");
    }

    private void signal(String signal) {
        Process p = process;
        if (p == null) {
            throw new IllegalStateException("the Terracotta server is not running");
        }
        List<String> command = new ArrayList<>(List.of("kill", signal, String.valueOf(p.pid())));
        p.descendants().forEach(child -> command.add(String.valueOf(child.pid())));
        try {
            int status = new ProcessBuilder(command).inheritIO().start().waitFor();
            if (status != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + status);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the server again on the same ports and directories, and waits until it is active. */
    public void restart() {
        kill();
        try {
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<String> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    @Override
    public void close() {
        kill();
    }

    @Override
    public String toString() {
        return "Terracotta server at 127.0.0.1:" + port + " (" + dir + ")";
    }
}
