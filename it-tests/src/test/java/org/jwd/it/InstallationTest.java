package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * What an administrator reads in the unpacked distribution is there: {@code INSTALL} points at the manual beside
 * it, not at a placeholder's address, and every page the manual links to ships with it.
 */
class InstallationTest {
    private static final Pattern LOCAL_LINK = Pattern.compile("\\]\\(((?!https?:|#)[^)#]+)(#[^)]*)?\\)");

    @Test
    void theInstallationStepsPointAtTheManualBesideThemAndNoAddress() throws IOException {
        String install = Files.readString(JwdProcess.dist().resolve("INSTALL"));

        assertThat(install).contains("README.md beside this file");
        assertThat(Pattern.compile("https?://([^\\s/:]+)").matcher(install).results().map(m -> m.group(1)))
                .as("addresses, each an example's").allMatch(host -> host.endsWith(".example.com"));
        assertThat(JwdProcess.dist().resolve("README.md")).hasSameTextualContentAs(
                JwdProcess.projectDir().resolve("README.md"));
    }

    @Test
    void everyPageTheManualLinksToShipsWithIt() throws IOException {
        List<String> links = LOCAL_LINK.matcher(Files.readString(JwdProcess.dist().resolve("README.md"))).results()
                .map(m -> m.group(1)).distinct().toList();

        assertThat(links).contains("docs/architecture.md", "docs/admin.png");
        for (String link : links) {
            assertThat(JwdProcess.dist().resolve(link)).as(link).exists();
        }
    }
}
