package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/jwd run} as an operator uses it. */
class LauncherIT {
    private static JwdProcess.Result run(Path config, String properties) throws Exception {
        Files.writeString(config, properties);
        return JwdProcess.runToEnd(Duration.ofSeconds(90), "run", "--config", config.toString(), "--port", "0");
    }

    /** The launcher reads the file with jwd's parser before Jetty starts: it stops there, with status 2. */
    @Test
    void anInvalidConfigurationExitsNonZeroNamingEveryBadKey(@TempDir Path dir) throws Exception {
        JwdProcess.Result result = run(dir.resolve("bad.properties"), """
                server.a.url=http://127.0.0.1:1
                server.a.type=j2e
                server.b.url=ftp://x
                server.b.type=abap
                server.b.capacity=-3
                wdisp/load_balancing_strategy=fastest
                """);

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("server.a.type = 'j2e': expected j2ee or abap",
                "server.b.url = 'ftp://x'", "server.b.capacity = '-3': expected a positive integer",
                "wdisp/load_balancing_strategy = 'fastest'");
        assertThat(result.output()).doesNotContain("jwd: ready");
    }

    /** Keys that only the dispatcher reads (the watch, admin.*) are read by the launcher too: one reading, one check. */
    @Test
    void aConfigurationTheWebappWouldRefuseStopsTheStartBeforeJettyStarts(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("refused.properties");
        JwdProcess.Result result = run(config, """
                server.a.url=http://127.0.0.1:1
                server.a.type=j2ee
                jwd.config_watch=banana
                """);

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("jwd: the configuration " + config + " is invalid:\n"
                + "  " + config + ":3: jwd.config_watch = 'banana': expected how often the configuration file is checked");
        assertThat(result.output()).doesNotContain("jwd: ready");
    }

    /** A key no section reads (a misspelling) stops the start, named with its line and the key it was meant to be. */
    @Test
    void anUnknownKeyStopsTheStartNamingItsFileAndLineAndWhatIsKnown(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("typo.properties");
        JwdProcess.Result result = run(config, """
                server.a.url=http://127.0.0.1:1
                server.a.type=j2ee
                server.a.capacty=2
                jwd.debug_header=true
                """);

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains(
                "  " + config + ":3: server.a.capacty = '2': expected a known server key: one of capacity,",
                "  " + config + ":4: jwd.debug_header = 'true': expected a known key (",
                "did you mean jwd.debug_headers?");
        assertThat(result.output()).doesNotContain("jwd: ready");
    }

    @Test
    void sigtermStopsJettyAndTheLauncherEndsWithIt() throws Exception {
        try (JwdProcess jwd = JwdProcess.start("server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n")) {
            ProcessHandle jetty = ProcessHandle.of(jwd.jettyPid()).orElseThrow();

            int status = jwd.terminate(Duration.ofSeconds(60));

            // a stop that was asked for and ran is a success: a service manager must not count it as a failure
            assertThat(status).isZero();
            assertThat(jetty.isAlive()).isFalse();
            assertThatThrownBy(() -> new Socket("127.0.0.1", jwd.port()).close()).isInstanceOf(ConnectException.class);
        }
    }

    /**
     * A proxy's heap is chosen, not the JVM's quarter of the machine, two malloc arenas, not one per thread, and the
     * native heap trimmed (the JDK the tests run on has the option); an operator's own choices win.
     */
    @Test
    void theJvmGetsABoundedHeapTwoMallocArenasAndATrimmedNativeHeapUnlessTheOperatorGivesTheirOwn() throws Exception {
        String config = "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n";
        try (JwdProcess chosen = JwdProcess.start(config, Map.of("JWD_JAVA_OPTS", ""));
             JwdProcess own = JwdProcess.start(config, Map.of("JWD_JAVA_OPTS", "-Xmx200m -XX:TrimNativeHeapInterval=0",
                     "MALLOC_ARENA_MAX", "4"))) {
            assertThat(jvmArguments(chosen)).contains("-Xmx384m", "-XX:+UseParallelGC", "-XX:+ExitOnOutOfMemoryError",
                    "-XX:TrimNativeHeapInterval=5000");
            assertThat(jvmEnvironment(chosen)).contains("MALLOC_ARENA_MAX=2");
            assertThat(jvmArguments(own)).contains("-Xmx200m", "-XX:TrimNativeHeapInterval=0")
                    .doesNotContain("-Xmx384m", "-XX:TrimNativeHeapInterval=5000");
            assertThat(jvmEnvironment(own)).contains("MALLOC_ARENA_MAX=4").doesNotContain("MALLOC_ARENA_MAX=2");
        }
    }

    /**
     * A JVM without {@code -XX:TrimNativeHeapInterval} (an older build) refuses it and would not start: the launcher
     * finds that out from its version question and starts jwd without it. The JVM here is the real one behind a
     * {@code java} first on the PATH that refuses the option as such a JVM does.
     */
    @Test
    void aJvmWithoutTheNativeHeapsTrimStartsJwdWithoutIt(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, """
                #!/usr/bin/env bash
                for a in "$@"; do
                  if [[ $a == -XX:TrimNativeHeapInterval=* ]]; then
                    echo "Unrecognized VM option '${a#-XX:}'" >&2
                    echo "Error: Could not create the Java Virtual Machine." >&2
                    exit 1
                  fi
                done
                exec %s "$@"
                """.formatted(Path.of(System.getProperty("java.home"), "bin", "java")));
        assertThat(java.toFile().setExecutable(true)).isTrue();
        String config = "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n";
        try (JwdProcess older = JwdProcess.start(config, Map.of("JWD_JAVA_OPTS", "",
                "PATH", bin + ":" + System.getenv("PATH"), "JWD_WORK", dir.resolve("work").toString(), "JWD_CDS", "0"))) {
            assertThat(jvmArguments(older)).contains("-Xmx384m", "-XX:+UseParallelGC")
                    .noneMatch(argument -> argument.contains("TrimNativeHeapInterval"));
        }
    }

    private static List<String> jvmEnvironment(JwdProcess jwd) throws IOException {
        return nulSeparated(jwd, "environ");
    }

    /**
     * Jetty's command line is resolved by start.jar once and kept in the work directory: the next start with the same
     * arguments runs it directly (no start.jar in the JVM's command line), other Jetty arguments get a command of their
     * own, and Logback reads jetty-base/resources/logback.xml (module jwd-logging).
     */
    @Test
    void jettysCommandLineIsResolvedOnceAndKeptForTheSameArguments(@TempDir Path work) throws Exception {
        String config = "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n";
        Map<String, String> environment = Map.of("JWD_WORK", work.toString(), "JWD_CDS", "0");
        Path command;
        FileTime written;
        try (JwdProcess first = JwdProcess.start(config, environment)) {
            assertThat(commands(work)).hasSize(1);
            command = commands(work).get(0);
            written = Files.getLastModifiedTime(command);
            assertThat(jvmArguments(first)).contains("org.eclipse.jetty.xml.XmlConfiguration")
                    .anyMatch(a -> a.startsWith("-Dlogback.configurationFile=")
                            && a.endsWith("/jetty-base/resources/logback.xml"))
                    .noneMatch(a -> a.endsWith("start.jar"));
        }
        Map<String, String> otherJettyArguments = new HashMap<>(environment);
        otherJettyArguments.put("JWD_JETTY_ARGS", "jetty.httpConfig.outputBufferSize=16384");
        try (JwdProcess again = JwdProcess.start(config, environment);
             JwdProcess other = JwdProcess.start(config, otherJettyArguments)) {
            assertThat(commands(work)).hasSize(2).contains(command);
            assertThat(Files.getLastModifiedTime(command)).isEqualTo(written);
            assertThat(jvmArguments(again)).doesNotContain("jetty.httpConfig.outputBufferSize=16384");
            assertThat(jvmArguments(other)).contains("jetty.httpConfig.outputBufferSize=16384");
        }
    }

    /**
     * What earlier runs kept in the work directory for another JDK, class path or Jetty command line (an archive is
     * 25-45 MB), and what a killed run left half-written, goes at a start once no run wrote it for a week; what this
     * run uses stays however old, and so do newer files and the operator's own.
     */
    @Test
    void aStartRemovesWhatEarlierRunsKeptForOtherJdksOrArgumentsOnceAWeekOld(@TempDir Path work) throws Exception {
        String config = "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n";
        Map<String, String> environment = Map.of("JWD_WORK", work.toString(), "JWD_CDS", "0");
        try (JwdProcess first = JwdProcess.start(config, environment)) {
            assertThat(commands(work)).hasSize(1);
        }
        Path ownCommand = commands(work).get(0);
        FileTime eightDaysAgo = FileTime.from(Instant.now().minus(Duration.ofDays(8)));
        Files.setLastModifiedTime(ownCommand, eightDaysAgo);
        Path otherCommand = file(work, "jetty-12345.cmd", eightDaysAgo);
        Path otherArchive = file(work, "jwd-17.0.1-111-222.jsa", eightDaysAgo);
        Path halfWritten = file(work, "jwd-25.0.1-111-222.aot.4242", eightDaysAgo);
        Path recentArchive = file(work, "jwd-21.0.1-111-222.jsa", FileTime.from(Instant.now().minus(Duration.ofDays(6))));
        Path operatorState = file(work, "operator-state-jwd-abc.properties", eightDaysAgo);

        try (JwdProcess again = JwdProcess.start(config, environment)) {
            // once Jetty has started, on a thread of its own
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(otherCommand).doesNotExist();
                assertThat(otherArchive).doesNotExist();
                assertThat(halfWritten).doesNotExist();
                assertThat(again.log()).anyMatch(l -> l.contains("removed from the work directory"));
            });
            assertThat(ownCommand).exists();
            assertThat(recentArchive).exists();
            assertThat(operatorState).exists();
        }
    }

    private static Path file(Path work, String name, FileTime modified) throws IOException {
        Path file = Files.writeString(work.resolve(name), "from an earlier run");
        Files.setLastModifiedTime(file, modified);
        return file;
    }

    private static List<Path> commands(Path work) throws IOException {
        try (var files = Files.list(work)) {
            return files.filter(f -> f.getFileName().toString().matches("jetty-\\d+\\.cmd")).toList();
        }
    }

    private static List<String> jvmArguments(JwdProcess jwd) throws IOException {
        return nulSeparated(jwd, "cmdline");
    }

    /** A file of the JVM's in /proc whose entries end with a NUL (its command line, its environment). */
    private static List<String> nulSeparated(JwdProcess jwd, String file) throws IOException {
        byte[] bytes = Files.readAllBytes(Path.of("/proc", Long.toString(jwd.jettyPid()), file));
        return List.of(new String(bytes, StandardCharsets.ISO_8859_1).split("\0"));
    }

    @Test
    void aMissingConfigurationFileIsNamed(@TempDir Path dir) throws Exception {
        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(30), "run", "--config",
                dir.resolve("nope.properties").toString());

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("nope.properties does not exist");
    }

    @Test
    void anUnknownCommandIsRefused() throws Exception {
        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(30), "fly");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("unknown command 'fly'", "usage:");
    }
}
