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
 * The real dispatcher as its users run it: {@code bin/jwd run} of the release distribution as the build unpacked it
 * ({@code src/dist/target/jwd-<version>/}) starts the Jetty distribution with the WAR deployed, on an ephemeral port on
 * 127.0.0.1. {@link #close()} stops it with SIGTERM, as an
 * operator would, and kills whatever is left.
 */
public final class JwdProcess implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("jwd: ready on (http://\\S+)/");
    private static final Pattern READY_HTTPS = Pattern.compile("jwd: ready on (https://\\S+)/");
    private static final Pattern READY_PASSTHROUGH = Pattern.compile("jwd: ready for end-to-end TLS on \\S+:(\\d+)");

    /**
     * The JVM options the tests add before any of their own: the C1 compiler alone, one compiler thread and the
     * serial collector. A test's jwd lives seconds and serves a few hundred requests: C2's compilations (eight
     * threads by the launcher's default on this machine) cost it 2 s of its 4 s start and the other test JVM's
     * CPU, and never pay back. They change how fast jwd runs, not what it does. An empty {@code JWD_JAVA_OPTS} in a
     * test's environment starts jwd with the launcher's own choices alone, as {@code LauncherIT} does to check them
     * ({@code bin/jwd run} adds its own only where the options say nothing).
     */
    static final String TEST_JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:+UseSerialGC";

    /**
     * The Jetty property the tests add before any of their own: a graceful stop closes an idle keep-alive connection
     * after 50 ms instead of Jetty's 1 s. A test's HTTP clients keep their connections to jwd open to the end, so
     * every stop waited that second (a minute and a half of the suite). Requests in flight finish as before; an
     * empty {@code JWD_JETTY_ARGS} in a test's environment keeps Jetty's second, as {@code ProductIT}'s graceful
     * stop does.
     */
    static final String TEST_JETTY_ARGS = "jetty.graceful.shutdownIdleTimeout=50";

    private final Process process;
    private final URI uri;
    private final List<String> log;
    private final CompletableFuture<URI> https;
    private final CompletableFuture<Integer> passthrough;

    private JwdProcess(Process process, URI uri, List<String> log, CompletableFuture<URI> https,
                       CompletableFuture<Integer> passthrough) {
        this.process = process;
        this.uri = uri;
        this.log = log;
        this.https = https;
        this.passthrough = passthrough;
    }

    /** The source tree. */
    public static Path projectDir() {
        return Path.of(System.getProperty("jwd.projectDir", ".."));
    }

    /** The unpacked release distribution the tests run. */
    public static Path dist() {
        return Path.of(System.getProperty("jwd.dist"));
    }

    /** The distribution's launcher, {@code bin/jwd}. */
    public static Path launcher() {
        return dist().resolve("bin/jwd");
    }

    /** The tests' own build directory ({@code it-tests/target}), where they keep logs and files they make. */
    public static Path target() {
        return Path.of(System.getProperty("jwd.target", "target"));
    }

    /** Writes {@code properties} to a temporary file and starts a dispatcher with it. */
    public static JwdProcess start(String properties) {
        return start(properties, Map.of());
    }

    /**
     * @param environment extra environment, e.g. {@code JWD_JAVA_OPTS}
     * @param runArgs     extra options of {@code bin/jwd run}, e.g. {@code --https-port 0}
     */
    public static JwdProcess start(String properties, Map<String, String> environment, String... runArgs) {
        try {
            Path config = Files.createTempFile("jwd-it", ".properties");
            Files.writeString(config, properties);
            config.toFile().deleteOnExit();
            return startWith(config, environment, runArgs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JwdProcess startWith(Path config, Map<String, String> environment, String... runArgs)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--host", "127.0.0.1"));
        args.addAll(List.of(runArgs));
        return startAsIs(config, environment, args.toArray(String[]::new));
    }

    /**
     * Runs {@code bin/jwd run --config config} with exactly {@code runArgs}: without {@code --port}, the
     * configuration's {@code icm/server_port_<xx>} lines say where it listens.
     */
    public static JwdProcess startAsIs(Path config, Map<String, String> environment, String... runArgs)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(launcher().toString(), "run", "--config", config.toString()));
        command.addAll(List.of(runArgs));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(environment);
        withTestDefault(pb, environment, "JWD_JAVA_OPTS", TEST_JVM_OPTIONS);
        withTestDefault(pb, environment, "JWD_JETTY_ARGS", TEST_JETTY_ARGS);
        long startedAt = System.nanoTime();
        Process process = pb.start();
        List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
        pump(process.getErrorStream(), log);
        CompletableFuture<URI> ready = new CompletableFuture<>();
        CompletableFuture<URI> https = new CompletableFuture<>();
        CompletableFuture<Integer> passthrough = new CompletableFuture<>();
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
                    Matcher h = READY_HTTPS.matcher(line);
                    if (h.find()) {
                        https.complete(URI.create(h.group(1)));
                    }
                    Matcher p = READY_PASSTHROUGH.matcher(line);
                    if (p.find()) {
                        passthrough.complete(Integer.parseInt(p.group(1)));
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
            ready.completeExceptionally(new IllegalStateException("jwd exited before it was ready"));
            https.completeExceptionally(new IllegalStateException("jwd printed no https URL"));
            passthrough.completeExceptionally(new IllegalStateException("jwd printed no end-to-end TLS port"));
        }, "jwd-stdout");
        stdout.setDaemon(true);
        stdout.start();
        try {
            JwdProcess started = new JwdProcess(process, ready.get(120, TimeUnit.SECONDS), log, https, passthrough);
            System.out.printf("jwd ready in %d ms%n", (System.nanoTime() - startedAt) / 1_000_000);
            return started;
        } catch (Exception e) {
            destroy(process);
            throw new IllegalStateException("jwd did not start: " + e + "\n" + String.join("\n", log), e);
        }
    }

    /** The tests' own settings before a test's, unless the test gave the variable empty: the launcher's alone. */
    private static void withTestDefault(ProcessBuilder pb, Map<String, String> environment, String name,
                                        String testDefault) {
        String given = environment.get(name);
        if (given == null || !given.isEmpty()) {
            pb.environment().put(name, given == null ? testDefault : testDefault + " " + given);
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

    /** {@code https://127.0.0.1:<port>}: started with {@code --https-port} and a keystore in the configuration. */
    public URI httpsUri() {
        return await(https, "the https URL");
    }

    public URI httpsUri(String pathAndQuery) {
        return URI.create(httpsUri() + pathAndQuery);
    }

    /**
     * The URLs of the {@code count} HTTPS listeners, in the order jwd announced them: the profile's
     * {@code PROT=HTTPS} lines' order.
     */
    public List<URI> httpsUris(int count) {
        httpsUri();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> log().stream()
                .filter(line -> READY_HTTPS.matcher(line).find()).count() >= count);
        return log().stream().map(READY_HTTPS::matcher).filter(Matcher::find).map(m -> URI.create(m.group(1)))
                .toList();
    }

    /** The end-to-end TLS listener's port: the configuration sets {@code wdisp/HTTPS/port}. */
    public int passthroughPort() {
        return await(passthrough, "the end-to-end TLS port");
    }

    /** The readiness lines come one after the other: the https and passthrough lines just after the http one. */
    private <T> T await(CompletableFuture<T> line, String what) {
        try {
            return line.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("jwd did not announce " + what + ": " + e + "\n" + String.join("\n", log()),
                    e);
        }
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

    /**
     * Sends SIGTERM to the launcher, as an operator would, and waits for it to end.
     *
     * @return the launcher's exit status
     * @throws IllegalStateException when it has not ended within {@code timeout}
     */
    public int terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("jwd did not stop within " + timeout + " of SIGTERM\n"
                    + String.join("\n", log()));
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        destroy(process);
    }

    private static void destroy(Process process) {
        List<ProcessHandle> children = process.descendants().toList();
        long stoppingAt = System.nanoTime();
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                throw new TimeoutException();
            }
            System.out.printf("jwd stopped in %d ms%n", (System.nanoTime() - stoppingAt) / 1_000_000);
        } catch (InterruptedException | TimeoutException e) {
            System.out.println("jwd killed: no stop within 20 s of SIGTERM");
            process.destroyForcibly();
        }
        for (ProcessHandle child : children) {
            child.destroyForcibly();
        }
    }

    /** Runs {@code bin/jwd} with these arguments to its end, returning exit code and output. */
    public static Result runToEnd(Duration timeout, String... args) throws IOException, InterruptedException {
        return runToEnd(timeout, Map.of(), args);
    }

    /** As {@link #runToEnd(Duration, String...)}, with {@code environment} added (a password, say). */
    public static Result runToEnd(Duration timeout, Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(launcher().toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(environment);
        Process p = pb.start();
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

    /**
     * @param output what it wrote: both streams with {@link #runToEnd}, standard output alone with
     *               {@link #runToEndSeparately}
     * @param errors its standard error with {@link #runToEndSeparately}; empty with {@link #runToEnd}
     */
    public record Result(int exitCode, String output, String errors) {
        public Result(int exitCode, String output) {
            this(exitCode, output, "");
        }
    }

    /** Runs {@code bin/jwd} with these arguments to its end, its standard output and error apart. */
    public static Result runToEndSeparately(Duration timeout, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(launcher().toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        CompletableFuture<String> output = readAll(p.getInputStream());
        CompletableFuture<String> errors = readAll(p.getErrorStream());
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            destroy(p);
            throw new IllegalStateException("bin/jwd " + String.join(" ", args) + " did not end in " + timeout);
        }
        return new Result(p.exitValue(), output.join(), errors.join());
    }

    private static CompletableFuture<String> readAll(java.io.InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The launcher's pid ({@code bin/jwd}), the process a service manager signals. */
    public long launcherPid() {
        return process.pid();
    }

    /**
     * Waits for the launcher to end (after a signal the test sent).
     *
     * @return its exit status
     */
    public int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("jwd did not stop within " + timeout + "\n" + String.join("\n", log()));
        }
        return process.exitValue();
    }

    @Override
    public String toString() {
        return "jwd at " + uri;
    }
}
