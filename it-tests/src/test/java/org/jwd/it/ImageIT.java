package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.demo.DemoBackend;

/**
 * The container image ({@code src/image/target/jwd-image.tar}, OCI) as a container runtime would read it: its
 * configuration (entrypoint, user, ports, volume), its layers (the WAR, Jetty, a Java runtime), and its file system
 * run — unpacked, entered with {@code chroot} as its user with {@code /proc} mounted, as a runtime would start it —
 * forwarding a request and stopping with status 0 on SIGTERM. No container runtime runs on this machine.
 */
class ImageIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path IMAGE = JwdProcess.projectDir().resolve("src/image/target/jwd-image.tar");
    private static Map<String, byte[]> blobs;
    private static JsonNode config;
    private static List<String> layers;

    @BeforeAll
    static void readTheImage() throws IOException {
        blobs = new HashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(Files.newInputStream(IMAGE))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                if (e.isFile()) {
                    blobs.put(e.getName(), tar.readAllBytes());
                }
            }
        }
        JsonNode index = JSON.readTree(blobs.get("index.json"));
        JsonNode manifest = JSON.readTree(blob(index.get("manifests").get(0).get("digest").asText()));
        config = JSON.readTree(blob(manifest.get("config").get("digest").asText())).get("config");
        layers = new ArrayList<>();
        manifest.get("layers").forEach(l -> layers.add(l.get("digest").asText()));
    }

    private static byte[] blob(String digest) {
        return blobs.get("blobs/sha256/" + digest.substring("sha256:".length()));
    }

    @Test
    void itRunsTheLauncherAsANonRootUserWithItsConfigurationMountedAndItsPortsExposed() {
        assertThat(config.get("Entrypoint")).extracting(JsonNode::asText)
                .containsExactly("/opt/jwd/bin/jwd", "run", "--config", "/etc/jwd/jwd.properties");
        assertThat(config.get("Cmd")).extracting(JsonNode::asText).containsExactly("--host", "0.0.0.0");
        assertThat(config.get("User").asText()).isEqualTo("10001:10001");
        assertThat(config.get("ExposedPorts").fieldNames()).toIterable().containsExactlyInAnyOrder("8080/tcp",
                "8443/tcp");
        assertThat(config.get("Volumes").fieldNames()).toIterable().containsExactly("/etc/jwd");
        assertThat(config.get("Env")).extracting(JsonNode::asText).contains("JWD_WORK=/var/lib/jwd",
                "JAVA_HOME=/opt/java");
    }

    @Test
    void itHoldsTheWarJettyAndAJavaRuntime() throws IOException {
        List<String> files = new ArrayList<>();
        for (String layer : layers) {
            try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(
                    new java.io.ByteArrayInputStream(blob(layer))))) {
                for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                    files.add(e.getName().startsWith("./") ? e.getName().substring(2) : e.getName());
                }
            }
        }

        assertThat(files).contains("opt/jwd/lib/jwd.war", "opt/jwd/bin/jwd", "opt/java/bin/java",
                "opt/jwd/LICENSE", "opt/jwd/NOTICE");
        assertThat(files).anyMatch(f -> f.matches("opt/jwd/jetty-home-[0-9.]+/start\\.jar"));
        assertThat(files).anyMatch(f -> f.matches("opt/jwd/jetty-base/lib/jwd/jwd-server-.*\\.jar"));
    }

    /** Its file system, entered as a container runtime enters it, runs jwd: a request forwarded, SIGTERM exits 0. */
    @Test
    void itsFileSystemRunsJwdAsItsUserAndStopsWithStatusZero(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        for (String layer : layers) {
            Files.write(dir.resolve("layer.tar.gz"), blob(layer));
            run(List.of("tar", "-xzf", dir.resolve("layer.tar.gz").toString(), "-C", root.toString()));
        }
        Files.setPosixFilePermissions(root.resolve("etc/jwd"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(root.resolve("proc"));
        // what a container runtime gives every container: /proc (mounted below) and /dev/null
        Files.createDirectories(root.resolve("dev"));
        run(List.of("mknod", "-m", "666", root.resolve("dev/null").toString(), "c", "1", "3"));
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"))) {
            Files.writeString(root.resolve("etc/jwd/jwd.properties"),
                    "server.a.url=" + a.url() + "\nserver.a.type=j2ee\n");
            run(List.of("mount", "-t", "proc", "proc", root.resolve("proc").toString()));
            try {
                List<String> command = new ArrayList<>(List.of("chroot", "--userspec=10001:10001", root.toString(),
                        "/usr/bin/env", "-i"));
                config.get("Env").forEach(e -> command.add(e.asText()));
                config.get("Entrypoint").forEach(e -> command.add(e.asText()));
                command.addAll(List.of("--host", "127.0.0.1", "--port", "0"));
                Process jwd = new ProcessBuilder(command).redirectErrorStream(true).start();
                try {
                    URI uri = ready(jwd);
                    HttpResponse<String> response = HttpClient.newHttpClient().send(
                            HttpRequest.newBuilder(uri.resolve("/irj/echo")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(response.statusCode()).isEqualTo(200);
                    assertThat(response.headers().firstValue("X-Served-By")).hasValue("a");
                    jwd.destroy();
                    assertThat(jwd.waitFor(60, TimeUnit.SECONDS)).isTrue();
                    assertThat(jwd.exitValue()).isZero();
                } finally {
                    jwd.descendants().forEach(ProcessHandle::destroyForcibly);
                    jwd.destroyForcibly();
                }
            } finally {
                run(List.of("umount", root.resolve("proc").toString()));
            }
        }
    }

    private static URI ready(Process jwd) throws IOException {
        var lines = new java.io.BufferedReader(new java.io.InputStreamReader(jwd.getInputStream()));
        List<String> seen = new ArrayList<>();
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            int at = line.indexOf("jwd: ready on http://");
            if (at >= 0) {
                Thread drain = new Thread(() -> lines.lines().forEach(l -> { }));
                drain.setDaemon(true);
                drain.start();
                return URI.create(line.substring(at + "jwd: ready on ".length()).strip());
            }
            seen.add(line);
        }
        throw new IllegalStateException("jwd ended before it was ready:\n" + String.join("\n", seen));
    }

    private static void run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s: %s", command, output).isZero();
    }
}
