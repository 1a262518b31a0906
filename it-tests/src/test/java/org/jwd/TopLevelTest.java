package org.jwd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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

    /**
     * The README opens with its contents: one line per section ({@code ##}) in the README's order, its parts
     * ({@code ###}) after it, each a link to GitHub's anchor of the heading. A section added, moved or renamed
     * without its line fails here.
     */
    @Test
    void theReadmeOpensWithContentsThatListEverySectionInOrder() throws IOException {
        List<String> lines = Files.readAllLines(Modules.project().resolve("README.md"));
        List<String> expected = new ArrayList<>();
        boolean code = false;
        for (String line : lines) {
            code ^= line.startsWith("```");
            if (code || line.equals("## Contents")) {
                continue;
            }
            if (line.startsWith("## ")) {
                expected.add("- " + link(line.substring(3)));
            } else if (line.startsWith("### ") && !expected.isEmpty()) {
                int last = expected.size() - 1;
                String entry = expected.get(last);
                expected.set(last, entry + (entry.contains(": [") ? " · " : ": ") + link(line.substring(4)));
            }
        }
        int start = lines.indexOf("## Contents");
        assertThat(start).as("a '## Contents' section").isPositive();
        List<String> contents = lines.subList(start + 1, lines.size()).stream().dropWhile(String::isEmpty)
                .takeWhile(line -> line.startsWith("- ")).toList();
        assertThat(contents).containsExactlyElementsOf(expected);
    }

    /** A Markdown link to the heading, by GitHub's rule: lower case, punctuation dropped, blanks as hyphens. */
    private static String link(String heading) {
        String anchor = heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
        return "[" + heading + "](#" + anchor + ")";
    }

    private static Stream<String> entries(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith(".") && !n.equals("target")).toList().stream();
        }
    }
}
