package org.jwd.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real dispatcher as its users run it: {@code bin/jwd run} starts the Jetty distribution with the
 * built WAR deployed, on an ephemeral port on 127.0.0.1. {@link #close()} stops it with SIGTERM, as an
 * operator would, and kills whatever is left.
 */
public final class JwdProcess implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("jwd: ready on (http://\\S+)/");

    private final Process process;
    private final URI uri;
    private final List<String> log;

    private JwdProcess(Process process, URI uri, List<String> log) {
        this.process = process;
        this.uri = uri;
        this.log = log;
    }

    public static Path projectDir() {
        return Path.of(System.getProperty("jwd.projectDir", "."));
    }

    /** Writes {@code properties} to a temporary file and starts a dispatcher with it. */
    public static JwdProcess start(String properties) {
        return start(properties, Map.of());
    }

    /** @param environment extra environment, e.g. {@code JWD_JAVA_OPTS} */
    public static JwdProcess start(String properties, Map<String, String> environment) {
        try {
            Path config = Files.createTempFile("jwd-it", ".properties");
            Files.writeString(config, properties);
            config.toFile().deleteOnExit();
            return startWith(config, environment);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JwdProcess startWith(Path config, Map<String, String> environment) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(projectDir().resolve("bin/jwd").toString(), "run",
                "--config", config.toString(), "--port", "0", "--host", "127.0.0.1");
        pb.environment().putAll(environment);
        Process process = pb.start();
        List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
        pump(process.getErrorStream(), log);
        CompletableFuture<URI> ready = new CompletableFuture<>();
        Thread stdout = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    log.add(line);
                    Matcher m = READY.matcher(line);
                    if (m.find()) {
                        ready.complete(URI.create(m.group(1)));
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
            ready.completeExceptionally(new IllegalStateException("jwd exited before it was ready"));
        }, "jwd-stdout");
        stdout.setDaemon(true);
        stdout.start();
        try {
            return new JwdProcess(process, ready.get(60, TimeUnit.SECONDS), log);
        } catch (Exception e) {
            destroy(process);
            throw new IllegalStateException("jwd did not start: " + e + "\n" + String.join("\n", log), e);
        }
    }

    private static void pump(java.io.InputStream in, List<String> log) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    log.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "jwd-stderr");
        t.setDaemon(true);
        t.start();
    }

    /** {@code http://127.0.0.1:<port>} */
    public URI uri() {
        return uri;
    }

    public URI uri(String pathAndQuery) {
        return URI.create(uri + pathAndQuery);
    }

    public int port() {
        return uri.getPort();
    }

    /** The pid of the JVM running Jetty (a child of the launcher script). */
    public long jettyPid() {
        return process.descendants().filter(p -> p.info().command().orElse("").endsWith("java"))
                .findFirst().orElseThrow().pid();
    }

    public List<String> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        destroy(process);
    }

    private static void destroy(Process process) {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                throw new TimeoutException();
            }
        } catch (InterruptedException | TimeoutException e) {
            process.destroyForcibly();
        }
        for (ProcessHandle child : children) {
            child.destroyForcibly();
        }
    }

    /** Runs {@code bin/jwd} with these arguments to its end, returning exit code and output. */
    public static Result runToEnd(Duration timeout, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(projectDir().resolve("bin/jwd").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            destroy(p);
            throw new IllegalStateException("bin/jwd " + String.join(" ", args) + " did not end in " + timeout);
        }
        return new Result(p.exitValue(), output.join());
    }

    public record Result(int exitCode, String output) {
    }

    @Override
    public String toString() {
        return "jwd at " + uri;
    }
}
