package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The configuration layer is the bottom one: every feature reads its section through it, so it must know none of
 * them, or the packages import each other in circles again.
 */
class ConfigLayerTest {
    private static final Path SOURCES = Path.of("src/main/java/org/jwd/config");

    @Test
    void importsNoOtherJwdPackage() throws IOException {
        List<String> upward;
        try (Stream<Path> files = Files.list(SOURCES)) {
            upward = files.filter(f -> f.toString().endsWith(".java")).flatMap(ConfigLayerTest::imports)
                    .filter(i -> i.contains(" org.jwd."))
                    .filter(i -> !i.matches(".*: import (static )?org\\.jwd\\.config\\.[A-Z].*"))
                    .toList();
        }

        assertThat(Files.isDirectory(SOURCES)).as("run from the project's directory").isTrue();
        assertThat(upward).isEmpty();
    }

    /** {@code File.java: import ...;} for each import of the file. */
    private static Stream<String> imports(Path file) {
        try {
            return Files.readAllLines(file).stream().map(String::strip).filter(line -> line.startsWith("import "))
                    .map(line -> file.getFileName() + ": " + line);
        } catch (IOException e) {
            throw new IllegalStateException(file.toString(), e);
        }
    }
}
