package org.jwd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jwd's packages form layers, each using only its own and lower ones, and no package reaches itself again through
 * others: a package can be understood (and tested) with what lies below it.
 */
class PackageGraphTest {
    /**
     * Top first. The composition root and the command-line tools use everything; the servlets use the runtime
     * (the state in force, the reloader); then the request's stages down to the configuration they are built from.
     */
    static final List<List<String>> LAYERS = List.of(
            List.of("boot", "cli"),
            List.of("admin", "proxy", "launch"),
            List.of("runtime"),
            List.of("systems"),
            List.of("accesslog", "passthrough"),
            List.of("metrics", "health", "registry"),
            List.of("routing"),
            List.of("affinity", "balancing"),
            List.of("filter", "tls", "limits"),
            List.of("topology"),
            List.of("config"));

    private static final PackageGraph JWD = PackageGraph.scan(Path.of("src/main/java"));

    @Test
    void jwdsPackagesFormNoCycle() {
        assertThat(JWD.packages()).contains("runtime", "admin", "config", "boot", "cli");
        assertThat(JWD.cycles(Set.of())).isEmpty();
    }

    @Test
    void noArrowRunsBackUpTheLayers() {
        assertThat(JWD.layerViolations(LAYERS, Set.of())).isEmpty();
    }

    @Test
    void theAdministrationUsesTheRuntimeAndNotTheOtherWayRound() {
        assertThat(JWD.arrows()).contains("admin -> runtime").doesNotContain("runtime -> admin", "runtime -> boot",
                "runtime -> proxy");
    }

    @Test
    void findsACycleThroughThreePackagesAndNamesItsMembers() {
        PackageGraph graph = new PackageGraph(Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a", "d"),
                "d", Set.of()));

        assertThat(graph.cycles(Set.of())).containsExactly(Set.of("a", "b", "c"));
        assertThat(graph.cycles(Set.of("c -> a"))).isEmpty();
    }

    @Test
    void findsAnArrowBackUpAndAPackageInNoLayer() {
        PackageGraph graph = new PackageGraph(Map.of("top", Set.of("bottom"), "bottom", Set.of("top"),
                "stray", Set.of()));

        assertThat(graph.layerViolations(List.of(List.of("top"), List.of("bottom")), Set.of()))
                .containsExactly("package 'stray' is in no layer: add it to the layer order",
                        "bottom -> top runs back up the layers");
    }

    @Test
    void readsImportsAndNamesInFullButNotComments(@TempDir Path root) throws IOException {
        Path dir = Files.createDirectories(root.resolve("org/jwd/admin"));
        Files.writeString(dir.resolve("A.java"), """
                package org.jwd.admin;

                import org.jwd.runtime.Dispatcher;
                import static org.jwd.config.Durations.format;

                /** See {@link org.jwd.proxy.DispatcherServlet}. */
                class A {
                    // org.jwd.boot.Bootstrap builds it
                    org.jwd.topology.Server server;
                    org.jwd.admin.A self;
                }
                """);

        assertThat(PackageGraph.scan(root).arrows())
                .containsExactly("admin -> config", "admin -> runtime", "admin -> topology");
    }
}
