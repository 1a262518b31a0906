package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The demo's own configuration ({@code config/demo-systems.properties}) and action file
 * ({@code config/demo-actions.txt}) in headless Chromium ({@link DemoLandscape}): opening {@code /} lands on the
 * portal page through the action file's {@code RegRedirectUrl}.
 */
@Timeout(120)
class DemoRedirectBrowserIT {
    @TempDir
    Path dir;
    private DemoLandscape demo;
    private HeadlessChromium chromium;

    @AfterEach
    void stop() throws IOException {
        try {
            if (chromium != null) {
                chromium.close();
            }
        } finally {
            if (demo != null) {
                demo.close();
            }
        }
    }

    @Test
    void openingTheRootOfTheDemoLandsOnThePortalPageThroughTheDemosActionFile() throws IOException {
        demo = DemoLandscape.start(dir);
        chromium = new HeadlessChromium("DemoRedirectBrowserIT");

        chromium.driver().get(demo.url("/"));

        new WebDriverWait(chromium.driver(), Duration.ofSeconds(30))
                .until(d -> d.getCurrentUrl().endsWith("/portal"));
        assertThat(chromium.driver().getCurrentUrl()).isEqualTo(demo.url("/portal"));
        assertThat(chromium.driver().getTitle()).startsWith("Portal on j2ee");
        assertThat(chromium.driver().findElements(By.tagName("iframe"))).hasSize(4);
    }
}
