package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.demo.DemoBackend;

/**
 * The release tarball as an administrator installs it: unpacked into an empty directory, run with a Java runtime
 * alone — no Maven on the PATH, no network (a network namespace of its own with loopback only), an empty home and
 * temporary directory — it forwards a request, stops with status 0 on SIGTERM, and writes nothing outside its work
 * directory.
 */
class DistributionIT {
    /** The commands bin/jwd may use: a PATH of these alone has no Maven. */
    private static final List<String> TOOLS = List.of("bash", "sh", "env", "dirname", "readlink", "sed", "realpath",
            "mkdir", "nproc", "cksum", "cut", "mv", "rm", "cat", "tr", "head", "ls", "awk", "find", "ip", "kill");

    @Test
    void theUnpackedTarballRunsWithAJavaRuntimeAloneAndWritesOnlyToItsWorkDirectory(@TempDir Path dir)
            throws Exception {
        Path tarball = JwdProcess.dist().resolveSibling(JwdProcess.dist().getFileName() + ".tar.gz");
        Path unpacked = Files.createDirectories(dir.resolve("opt"));
        run(List.of("tar", "-xzf", tarball.toString(), "-C", unpacked.toString()), Map.of());
        Path home = Files.createDirectories(dir.resolve("home"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path tools = tools(Files.createDirectories(dir.resolve("tools")));
        Path jwd;
        try (Stream<Path> one = Files.list(unpacked)) {
            jwd = one.findFirst().orElseThrow();
        }
        Map<String, String> before = tree(jwd);

        String output = run(List.of("unshare", "--net", "--", javaBin().toString(), "-cp",
                System.getProperty("java.class.path"), InNamespace.class.getName(), jwd.resolve("bin/jwd").toString(),
                dir.resolve("jwd.properties").toString()), Map.of("PATH", tools.toString(), "HOME", home.toString(),
                "TMPDIR", tmp.toString()));

        assertThat(output).contains("no network: true", "status 200 from a", "exit status 0");
        Map<String, String> after = tree(jwd);
        after.keySet().removeIf(path -> path.startsWith("work/"));
        assertThat(after).isEqualTo(before);
        assertThat(tree(home)).isEmpty();
        assertThat(tree(tmp)).isEmpty();
        assertThat(tree(jwd.resolve("work"))).containsKey("tmp/");
    }

    /**
     * Inside the network namespace: loopback up, a backend, the distribution's {@code bin/jwd run} with the restricted
     * environment, one request, SIGTERM. Prints what happened, one fact a line.
     */
    public static final class InNamespace {
        public static void main(String[] args) throws Exception {
            Path launcher = Path.of(args[0]);
            Path config = Path.of(args[1]);
            run(List.of("ip", "link", "set", "lo", "up"), Map.of());
            System.out.println("no network: " + noNetwork());
            try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"))) {
                Files.writeString(config, "server.a.url=" + a.url() + "\nserver.a.type=j2ee\n");
                ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "run", "--config", config.toString(),
                        "--port", "0").redirectErrorStream(true);
                pb.environment().keySet().retainAll(List.of("PATH", "HOME", "TMPDIR"));
                Process jwd = pb.start();
                URI uri = ready(jwd);
                HttpResponse<String> response = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(uri.resolve("/irj/echo")).build(), HttpResponse.BodyHandlers.ofString());
                System.out.println("status " + response.statusCode() + " from "
                        + response.headers().firstValue("X-Served-By").orElse("?"));
                jwd.destroy();
                System.out.println("exit status " + (jwd.waitFor(60, TimeUnit.SECONDS) ? jwd.exitValue() : "none"));
            }
        }

        private static boolean noNetwork() {
            try (java.net.Socket s = new java.net.Socket()) {
                s.connect(new java.net.InetSocketAddress("repo.maven.apache.org", 443), 3000);
                return false;
            } catch (IOException e) {
                return true;
            }
        }

        private static URI ready(Process jwd) throws IOException {
            var lines = new java.io.BufferedReader(new java.io.InputStreamReader(jwd.getInputStream(),
                    StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                int at = line.indexOf("jwd: ready on http://");
                if (at >= 0) {
                    Thread drain = new Thread(() -> lines.lines().forEach(l -> { }));
                    drain.setDaemon(true);
                    drain.start();
                    return URI.create(line.substring(at + "jwd: ready on ".length()).strip());
                }
                System.out.println("jwd: " + line);
            }
            throw new IllegalStateException("jwd ended before it was ready");
        }
    }

    /** A directory of links to {@link #TOOLS} and to this JVM's java: the PATH of an installation with Java alone. */
    private static Path tools(Path dir) throws IOException {
        for (String tool : TOOLS) {
            for (String where : List.of("/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/")) {
                if (Files.isExecutable(Path.of(where + tool))) {
                    Files.createSymbolicLink(dir.resolve(tool), Path.of(where + tool));
                    break;
                }
            }
        }
        Files.createSymbolicLink(dir.resolve("java"), javaBin());
        assertThat(dir.resolve("mvn")).doesNotExist();
        return dir;
    }

    private static Path javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** Every file and directory below {@code root}, relative, with its size and time of change (files only). */
    private static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> tree = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(p -> !p.equals(root)).toList()) {
                String name = root.relativize(p).toString().replace('\\', '/');
                if (Files.isDirectory(p)) {
                    tree.put(name + "/", "");
                } else {
                    FileTime changed = Files.getLastModifiedTime(p);
                    tree.put(name, Files.size(p) + " " + changed);
                }
            }
        }
        return tree;
    }

    private static String run(List<String> command, Map<String, String> environment) throws IOException,
            InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(environment);
        Process p = pb.start();
        List<String> out = new ArrayList<>();
        Thread reader = new Thread(() -> {
            try {
                out.addAll(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        reader.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        reader.join(Duration.ofSeconds(10).toMillis());
        String text = String.join("\n", out);
        assertThat(p.exitValue()).as("%s:\n%s", command, text).isZero();
        return text;
    }
}
