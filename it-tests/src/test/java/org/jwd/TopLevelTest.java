package org.jwd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The top level is the design card's: the build, the WAR, the other modules under {@code src/}, the Jetty base,
 * the configuration examples, the integration tests, the manual, the launcher and CI's entry point; besides them
 * only the documentation and the licence files. What a build or a run writes ({@code target/}) and hidden files
 * do not count.
 */
class TopLevelTest {

    @Test
    void theTopLevelHoldsWhatTheDesignCardNames() throws IOException {
        assertThat(entries(Modules.project())).containsExactlyInAnyOrder("pom.xml", "webapp", "src", "jetty-base",
                "config", "it-tests", "README.md", "bin", "docs", "LICENSE", "NOTICE");
        assertThat(Modules.project().resolve("bin/jwd")).isExecutable();
        assertThat(Modules.project().resolve(".ci/run")).isRegularFile();
    }

    @Test
    void theOtherModulesStandUnderSrc() throws IOException {
        assertThat(entries(Modules.project().resolve("src"))).containsExactlyInAnyOrder("core", "server", "demo",
                "dist", "image", "bench");
        for (String module : new String[] {"core", "server", "demo", "dist", "image", "bench", "webapp", "it-tests"}) {
            assertThat(Modules.dir(module).resolve("pom.xml")).as(module).isRegularFile();
        }
    }

    /** A short launcher: what it would grow beyond starting and stopping belongs in Java (the tools, the server). */
    @Test
    void theLauncherIsUnder250Lines() throws IOException {
        assertThat(Files.readAllLines(Modules.project().resolve("bin/jwd"))).hasSizeLessThan(250);
    }

    private static Stream<String> entries(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith(".") && !n.equals("target")).toList().stream();
        }
    }
}
