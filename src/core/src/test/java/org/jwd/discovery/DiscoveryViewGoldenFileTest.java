package org.jwd.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kept view of the landscape ({@code jwd.discovery_file}) as jwd 1.0 wrote it (format 1), kept under
 * {@code src/test/resources/org/jwd/discovery/golden/}: every later jwd must read it back whole.
 * {@code -Djwd.golden.write=<src/core>} writes a fixture of the latest format, for a new format's first commit; the
 * fixtures already there are never written again.
 */
class DiscoveryViewGoldenFileTest {
    @TempDir
    Path dir;

    /** What the fixture holds: SAP's example answers for one named system, a bare server list for the implicit one. */
    private static Map<String, Answers> answers() {
        Map<String, Answers> answers = new LinkedHashMap<>();
        answers.put("ERP", new Answers(SapExamples.SERVER_LIST, SapExamples.URL_PREFIXES, SapExamples.GROUPS, null,
                SapExamples.JAVA_GROUPS, "http://ms:8101/msgserver/text/logon?version=1.2", "http://ls0042:8000",
                1_767_225_600_000L));
        answers.put("-", new Answers("version 1.2\n", null, null, null, null, "file:/etc/jwd/servers.txt", null,
                1_767_225_601_000L));
        return answers;
    }

    @Test
    void theViewJwd10KeptIsReadBackWhole() throws IOException {
        Path file = dir.resolve("discovery-view.txt");
        try (InputStream in = getClass().getResourceAsStream("golden/discovery-view-format-1.txt")) {
            Files.copy(in, file);
        }

        assertThat(Files.readAllLines(file).get(0)).isEqualTo("jwd discovery view 1");
        assertThat(new KeptViews(file).load()).isEqualTo(answers());
    }

    @Test
    @EnabledIfSystemProperty(named = "jwd.golden.write", matches = ".+")
    void writeTheFixture() throws IOException {
        new KeptViews(Path.of(System.getProperty("jwd.golden.write"), "src/test/resources/org/jwd/discovery/golden",
                "discovery-view-format-" + KeptViews.FORMAT.latest() + ".txt")).store(answers());
    }
}
