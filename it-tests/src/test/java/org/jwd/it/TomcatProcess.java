package org.jwd.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A stock Apache Tomcat from Maven Central ({@code org.apache.tomcat:tomcat}, unpacked by the build into
 * {@code jwd.tomcatHome}) started as its users start it, {@code bin/catalina.sh run}, with an instance directory
 * of its own ({@code CATALINA_BASE}): the distribution's {@code conf/} copied, and a {@code server.xml} with an
 * HTTP connector on an ephemeral port of 127.0.0.1, no shutdown port, and the instance's {@code jvmRoute} (which
 * Tomcat appends to its session ids: {@code <id>.<jvmRoute>}). Its console output (Tomcat's log and jwd's) is
 * kept in {@link #log()}. {@link #close()} stops it with SIGTERM; {@link #kill()} with SIGKILL.
 */
final class TomcatProcess implements AutoCloseable {
    /** Tomcat names a connector on port 0 after the port it got: {@code http-nio-127.0.0.1-auto-1-40123}. */
    private static final Pattern STARTED_CONNECTOR = Pattern.compile(
            "Starting ProtocolHandler \\[\"http-nio-127\\.0\\.0\\.1-auto-\\d+-(\\d+)\"]");
    private static final Pattern STARTED = Pattern.compile("Server startup in \\[?\\d+");

    private final Process process;
    private final URI uri;
    private final Path base;
    private final List<String> log;

    private TomcatProcess(Process process, URI uri, Path base, List<String> log) {
        this.process = process;
        this.uri = uri;
        this.base = base;
        this.log = log;
    }

    static Path home() {
        return Path.of(System.getProperty("jwd.tomcatHome", "target/tomcat/apache-tomcat-10.1.59"));
    }

    /** An instance directory: the distribution's {@code conf/}, a {@code server.xml} of its own, empty webapps. */
    static Path newBase(String name, String jvmRoute) throws IOException {
        Path base = Files.createTempDirectory(JwdProcess.target(), "tomcat-" + name + "-");
        copyTree(home().resolve("conf"), base.resolve("conf"));
        for (String dir : List.of("logs", "temp", "work", "webapps", "conf/Catalina/localhost")) {
            Files.createDirectories(base.resolve(dir));
        }
        Files.writeString(base.resolve("conf/server.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- port="-1": no shutdown port; the test stops Tomcat with SIGTERM -->
                <Server port="-1" shutdown="SHUTDOWN">
                  <Service name="Catalina">
                    <Connector port="0" address="127.0.0.1" protocol="HTTP/1.1" connectionTimeout="20000"/>
                    <Engine name="Catalina" defaultHost="localhost"%s>
                      <Host name="localhost" appBase="webapps" unpackWARs="true" autoDeploy="false"/>
                    </Engine>
                  </Service>
                </Server>
                """.formatted(jvmRoute == null ? "" : " jvmRoute=\"" + jvmRoute + "\""));
        return base;
    }

    /** Deploys {@code docBase} (a directory or a WAR outside the instance) at {@code /contextName}. */
    static void deploy(Path base, String contextName, Path docBase) throws IOException {
        Files.writeString(base.resolve("conf/Catalina/localhost/" + contextName + ".xml"),
                "<Context docBase=\"" + docBase.toAbsolutePath() + "\"/>\n");
    }

    /**
     * Starts Tomcat on {@code base} and waits until it has started (its webapps deployed or failed).
     *
     * @param catalinaOpts what {@code CATALINA_OPTS} carries, e.g. {@code -Djwd.config=...}
     */
    static TomcatProcess start(Path base, String catalinaOpts) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(home().resolve("bin/catalina.sh").toString(), "run")
                .redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("CATALINA_HOME", home().toString());
        env.put("CATALINA_BASE", base.toString());
        env.put("CATALINA_OPTS", catalinaOpts);
        env.remove("JAVA_OPTS");
        Process process = pb.start();
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Integer> port = new CompletableFuture<>();
        CompletableFuture<Void> started = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    log.add(line);
                    Matcher m = STARTED_CONNECTOR.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                    if (STARTED.matcher(line).find()) {
                        started.complete(null);
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
            started.completeExceptionally(new IllegalStateException("Tomcat exited before it had started"));
        }, "tomcat-output");
        reader.setDaemon(true);
        reader.start();
        try {
            started.get(60, TimeUnit.SECONDS);
            return new TomcatProcess(process, URI.create("http://127.0.0.1:" + port.getNow(-1)), base, log);
        } catch (Exception e) {
            stop(process);
            throw new IllegalStateException("Tomcat did not start: " + e + "\n" + String.join("\n", log), e);
        }
    }

    /** {@code http://127.0.0.1:<port>} */
    URI uri() {
        return uri;
    }

    URI uri(String pathAndQuery) {
        return URI.create(uri + pathAndQuery);
    }

    Path base() {
        return base;
    }

    /** Everything Tomcat printed so far: its own log lines and those of its webapps (jwd's among them). */
    List<String> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    /** SIGKILL: the server is gone at once, its connections reset, as a crashed server process. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(20, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        stop(process);
    }

    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    @Override
    public String toString() {
        return "Tomcat at " + uri + " (" + base + ")";
    }
}
