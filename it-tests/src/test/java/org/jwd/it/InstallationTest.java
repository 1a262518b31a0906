package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.jwd.config.PasswordHash;

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

    /** A hash the manual shows parses whole (copying it works) or is a placeholder, and none is the demo's. */
    @Test
    void everyPasswordHashTheManualShowsIsWholeOrAPlaceholderAndNotTheDemos() throws IOException {
        String demo = Files.readAllLines(JwdProcess.projectDir().resolve("config/demo.properties")).stream()
                .filter(l -> l.startsWith("admin.password_hash=")).findFirst().orElseThrow().split("=", 2)[1];
        List<String> hashes = Pattern.compile("(pbkdf2-sha256\\S*|<[^>\n]+>)").matcher(Files.readString(
                JwdProcess.projectDir().resolve("README.md"))).results().map(m -> m.group(1))
                .filter(h -> h.startsWith("pbkdf2") || h.contains("hash-password")).toList();

        assertThat(hashes).hasSizeGreaterThanOrEqualTo(3).doesNotContain(demo);
        for (String hash : hashes) {
            if (hash.startsWith("pbkdf2-sha256$")) {
                assertThat(PasswordHash.parse(hash.replaceAll("[`,.]+$", ""))).as(hash).isNotNull();
            }
        }
    }
}
