package org.jwd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jwd's packages form layers, each using only its own and lower ones, and no package reaches itself again through
 * others: a package can be understood (and tested) with what lies below it. The modules cut the layers where the
 * compiler enforces them: the webapp and the server-level extensions each stand on the core and never on each other.
 */
class PackageGraphTest {
    /** Each module's packages, top layer first; the modules' own order is the map's (the core at the bottom). */
    static final Map<String, List<List<String>>> MODULES = modules();

    private static Map<String, List<List<String>>> modules() {
        Map<String, List<List<String>>> modules = new LinkedHashMap<>();
        // the servlet container's face: the listener that starts the core, the servlets, the command-line tools
        modules.put("webapp", List.of(
                List.of("boot", "cli"),
                List.of("admin", "proxy"),
                List.of("tracing")));
        // what Jetty loads outside the WAR
        modules.put("server", List.of(
                List.of("launch"),
                List.of("passthrough", "telemetry", "termination")));
        // the request's stages, down to the configuration they are built from
        modules.put("core", List.of(
                List.of("runtime"),
                List.of("discovery"),
                List.of("systems"),
                List.of("modification"),
                List.of("accesslog"),
                List.of("metrics", "health", "registry", "operator"),
                List.of("routing"),
                List.of("affinity", "balancing"),
                List.of("sessiontable", "filter", "tls", "limits"),
                List.of("topology"),
                // the configuration, and the files jwd keeps its state in (their format's rule)
                List.of("config", "statefile")));
        return modules;
    }

    /** Every module's layers, one after the other. */
    static final List<List<String>> LAYERS = MODULES.values().stream().flatMap(List::stream).toList();

    private static final PackageGraph JWD = PackageGraph.scan(MODULES.keySet().stream().map(Modules::sources)
            .toArray(Path[]::new));

    @Test
    void jwdsPackagesFormNoCycle() {
        assertThat(JWD.packages()).contains("runtime", "admin", "config", "boot", "cli", "sessiontable", "launch");
        assertThat(JWD.cycles(Set.of())).isEmpty();
    }

    @Test
    void noArrowRunsBackUpTheLayers() {
        assertThat(JWD.layerViolations(LAYERS, Set.of())).isEmpty();
    }

    @Test
    void eachModuleHoldsExactlyItsPackages() {
        MODULES.forEach((module, layers) -> assertThat(PackageGraph.scan(Modules.sources(module)).declared())
                .as("the packages of %s", module)
                .containsExactlyInAnyOrderElementsOf(layers.stream().flatMap(List::stream).toList()));
    }

    @Test
    void theArchitectureDocumentShowsTheseLayers() throws IOException {
        Map<String, List<List<String>>> documented = new LinkedHashMap<>();
        Path doc = Modules.project().resolve("docs/architecture.md");
        Matcher row = Pattern.compile("(?m)^\\| (\\w+) \\| (\\d+) \\| ([a-z, ]+) \\|$").matcher(Files.readString(doc));
        while (row.find()) {
            List<List<String>> layers = documented.computeIfAbsent(row.group(1), m -> new java.util.ArrayList<>());
            assertThat(Integer.parseInt(row.group(2))).as("layer numbers of %s in order", row.group(1))
                    .isEqualTo(layers.size() + 1);
            layers.add(List.of(row.group(3).split(", ")));
        }

        assertThat(documented).isEqualTo(MODULES);
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
