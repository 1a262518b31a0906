package org.jwd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * What ships is what the modules compile: the WAR's own classes are the webapp module's, the server-level jar's the
 * server module's, the core jar (in the WAR and beside the server-level jar) the core's; every class of the three
 * modules is in exactly one of the three, as the distribution holds them. No list of includes is kept anywhere.
 */
class ArtifactContentsTest {
    private static final Path DIST = Path.of(System.getProperty("jwd.dist"));

    @Test
    void theWarsOwnClassesAreTheWebappModulesAndItCarriesTheCoreJar() throws IOException {
        Map<String, Set<String>> war = warContents();

        assertThat(war.get("WEB-INF/classes")).isEqualTo(compiled("webapp"));
        assertThat(war.keySet()).filteredOn(k -> k.startsWith("WEB-INF/lib/jwd-"))
                .containsExactly("WEB-INF/lib/jwd-core-" + version() + ".jar");
        assertThat(war.get("WEB-INF/lib/jwd-core-" + version() + ".jar")).isEqualTo(compiled("core"));
    }

    @Test
    void theServerLevelJarsAreTheServerModulesAndTheCore() throws IOException {
        Path lib = DIST.resolve("jetty-base/lib/jwd");

        assertThat(classesOf(lib.resolve("jwd-server-" + version() + ".jar"))).isEqualTo(compiled("server"));
        assertThat(classesOf(lib.resolve("jwd-core-" + version() + ".jar"))).isEqualTo(compiled("core"));
        try (Stream<Path> jars = Files.list(lib)) {
            assertThat(jars.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("jwd-")))
                    .containsExactlyInAnyOrder("jwd-server-" + version() + ".jar", "jwd-core-" + version() + ".jar");
        }
    }

    @Test
    void everyClassOfTheModulesShipsInExactlyOneArtifact() throws IOException {
        Map<String, Set<String>> war = warContents();
        List<Set<String>> artifacts = List.of(war.get("WEB-INF/classes"),
                classesOf(DIST.resolve("jetty-base/lib/jwd/jwd-server-" + version() + ".jar")),
                classesOf(DIST.resolve("jetty-base/lib/jwd/jwd-core-" + version() + ".jar")));
        List<String> problems = new ArrayList<>();
        for (String module : List.of("core", "server", "webapp")) {
            for (String c : compiled(module)) {
                long in = artifacts.stream().filter(a -> a.contains(c)).count();
                if (in != 1) {
                    problems.add(c + " of " + module + " is in " + in + " artifacts");
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theDistributionsConfigHoldsTheDashboardAndTheAlertRulesAsTheProjectHasThem() throws IOException {
        Path shipped = DIST.resolve("config");
        List<String> names;
        try (Stream<Path> files = Files.list(shipped)) {
            names = files.map(p -> p.getFileName().toString()).sorted().toList();
        }

        assertThat(names).contains("jwd-dashboard.json", "jwd-alerts.yml", "template.properties");
        for (String name : names) {
            assertThat(shipped.resolve(name)).as(name).hasSameBinaryContentAs(
                    Modules.project().resolve("config").resolve(name));
        }
    }

    @Test
    void listsTheClassesOfAJarAndNotItsOtherFiles(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path jar = dir.resolve("x.jar");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            for (String name : List.of("org/jwd/a/A.class", "org/jwd/a/A$1.class", "META-INF/x.txt", "org/jwd/a/")) {
                out.putNextEntry(new JarEntry(name));
                out.closeEntry();
            }
        }

        assertThat(classesOf(jar)).containsExactly("org/jwd/a/A$1.class", "org/jwd/a/A.class");
    }

    private static String version() {
        String name = DIST.getFileName().toString();
        return name.substring("jwd-".length());
    }

    /** The class files a module compiled, as paths below its output directory. */
    private static Set<String> compiled(String module) {
        Path classes = Modules.dir(module).resolve("target/classes");
        try (Stream<Path> files = Files.walk(classes)) {
            Set<String> names = new TreeSet<>();
            files.filter(f -> f.toString().endsWith(".class"))
                    .forEach(f -> names.add(classes.relativize(f).toString().replace('\\', '/')));
            assertThat(names).as("classes of %s", module).isNotEmpty();
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Set<String> classesOf(Path jar) throws IOException {
        try (InputStream in = Files.newInputStream(jar)) {
            return classesOf(in);
        }
    }

    private static Set<String> classesOf(InputStream jar) throws IOException {
        Set<String> names = new TreeSet<>();
        JarInputStream in = new JarInputStream(jar);
        for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
            if (e.getName().endsWith(".class")) {
                names.add(e.getName());
            }
        }
        return names;
    }

    /** {@code WEB-INF/classes} -> its classes, and each {@code WEB-INF/lib/*.jar} -> its classes. */
    private static Map<String, Set<String>> warContents() throws IOException {
        Map<String, Set<String>> contents = new TreeMap<>();
        contents.put("WEB-INF/classes", new TreeSet<>());
        try (JarInputStream war = new JarInputStream(Files.newInputStream(DIST.resolve("lib/jwd.war")))) {
            for (JarEntry e = war.getNextJarEntry(); e != null; e = war.getNextJarEntry()) {
                String name = e.getName();
                if (name.startsWith("WEB-INF/classes/") && name.endsWith(".class")) {
                    contents.get("WEB-INF/classes").add(name.substring("WEB-INF/classes/".length()));
                } else if (name.startsWith("WEB-INF/lib/") && name.endsWith(".jar")) {
                    // the nested jar is read from the WAR's stream; JarInputStream must not close it
                    contents.put(name, classesOf(new java.io.FilterInputStream(war) {
                        @Override
                        public void close() {
                        }
                    }));
                }
            }
        }
        return contents;
    }
}
