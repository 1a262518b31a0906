package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The demo's own configuration ({@code config/demo-systems.properties}) and action file
 * ({@code config/demo-actions.txt}) in headless Chromium: opening {@code /} lands on the portal page through the
 * action file's {@code RegRedirectUrl}. The demo's fixed ports become ephemeral ones (its servers' URLs, and the
 * second listener and the HTTPS keystore are left out); everything else is the demo's as written.
 */
@Timeout(120)
class DemoRedirectBrowserIT {
    /** The demo's servers and the ports {@code config/demo-systems.properties} gives them. */
    private static final Map<String, Integer> SERVERS = Map.of("j2ee1", 8101, "j2ee2", 8102, "j2ee3", 8103,
            "abap1", 8111, "erpj2ee1", 8121);

    @TempDir
    Path dir;
    private final List<DemoBackend> backends = new ArrayList<>();
    private JwdProcess jwd;
    private HeadlessChromium chromium;

    @AfterEach
    void stop() throws IOException {
        try {
            if (chromium != null) {
                chromium.close();
            }
        } finally {
            if (jwd != null) {
                jwd.close();
            }
            backends.forEach(DemoBackend::close);
        }
    }

    /** The demo's configuration with its servers on ephemeral ports, beside a copy of its action file. */
    private Path demoConfiguration() throws IOException {
        Path config = JwdProcess.projectDir().resolve("config");
        String text = Files.readString(config.resolve("demo-systems.properties"));
        for (Map.Entry<String, Integer> server : SERVERS.entrySet()) {
            DemoBackend.Options options = DemoBackend.Options.j2ee(server.getKey())
                    .withIviews("/irj/iview/a", "/irj/iview/b", "/erp/iview/c", "/sap/bc/iview/d");
            if (server.getKey().equals("abap1")) {
                options = options.withType(DemoBackend.ServerType.ABAP).withName("erp_ERP_00");
            }
            DemoBackend backend = DemoBackend.start(options);
            backends.add(backend);
            text = text.replace("http://127.0.0.1:" + server.getValue(), backend.url());
        }
        List<String> kept = text.lines()
                .filter(line -> !line.startsWith("wdisp/system_2=") && !line.startsWith("jwd.ssl_keystore"))
                .map(line -> line.replace("SRCSRV=*:8080, ", ""))
                .toList();
        Files.copy(config.resolve("demo-actions.txt"), dir.resolve("demo-actions.txt"));
        return Files.write(dir.resolve("demo-systems.properties"), kept);
    }

    @Test
    void openingTheRootOfTheDemoLandsOnThePortalPageThroughTheDemosActionFile() throws IOException {
        jwd = JwdProcess.startWith(demoConfiguration(), Map.of());
        chromium = new HeadlessChromium("DemoRedirectBrowserIT");

        chromium.driver().get(jwd.uri("/").toString());

        new WebDriverWait(chromium.driver(), Duration.ofSeconds(30))
                .until(d -> d.getCurrentUrl().endsWith("/portal"));
        assertThat(chromium.driver().getCurrentUrl()).isEqualTo(jwd.uri("/portal").toString());
        assertThat(chromium.driver().getTitle()).startsWith("Portal on j2ee");
        assertThat(chromium.driver().findElements(By.tagName("iframe"))).hasSize(4);
    }
}
