package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jwd.demo.DemoBackend;
import org.jwd.demo.ErpLandscape;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The demo's ERP instances as a user watches them, in headless Chromium, with the demo's own configuration
 * ({@link DemoLandscape}: ERP configured by {@code MSHOST}/{@code MSPORT} alone, {@code wdisp/auto_refresh} 5 s): one
 * more ERP instance started on the message-server stand-in's page is on jwd's admin page within the refresh, in the
 * Discovery section's changes, and answers requests through jwd; stopped, it leaves. The admin page's Discovery
 * section by selectors: where ERP's view comes from, when it was refreshed, the view in force, the last error, the
 * changes; a message server answering an HTML page makes it say so while the last good view serves. It leaves
 * pictures of both pages in {@code it-tests/target/standin.png} and {@code target/admin-discovery.png}.
 */
@Timeout(300)
class DemoInstancesBrowserIT {
    /** The demo's {@code wdisp/auto_refresh} ({@code config/demo-systems.properties}). */
    private static final Duration REFRESH = Duration.ofSeconds(5);
    /** Long enough for a refresh and the admin page's slow tables (read every 10 s). */
    private static final Duration WAIT = Duration.ofSeconds(40);
    private static final String MORE = ErpLandscape.MORE;

    private static Path dir;
    private static DemoLandscape demo;
    private HeadlessChromium chromium;
    private ChromeDriver driver;
    private WebDriverWait wait;

    @BeforeAll
    static void startTheDemo() throws IOException {
        dir = Files.createTempDirectory("jwd-demo-instances");
        demo = DemoLandscape.start(dir);
    }

    @AfterAll
    static void stopTheDemo() throws IOException {
        if (demo != null) {
            demo.close();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    @BeforeEach
    void startBrowser() throws IOException {
        chromium = new HeadlessChromium("DemoInstancesBrowserIT");
        driver = chromium.driver();
        driver.manage().window().setSize(new Dimension(1400, 1200));
        wait = new WebDriverWait(driver, WAIT, Duration.ofMillis(100));
        wait.ignoring(StaleElementReferenceException.class);
        // the demo's user of the admin page (config/demo-systems.properties), on every request the browser makes
        driver.executeCdpCommand("Network.enable", Map.of());
        driver.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers",
                Map.of("Authorization", AdminClient.basic("admin", "demo"))));
    }

    @AfterEach
    void stopBrowser() throws IOException {
        try {
            demo.erp().stopMore();
            demo.erp().standIn().answerWith(null);
        } finally {
            chromium.close();
        }
    }

    @Test
    void anInstanceStartedOnTheStandInsPageJoinsTheAdminPageTakesRequestsAndLeavesWhenStopped() throws IOException {
        openStandIn();
        assertThat(text("#instances tbody")).contains(ErpLandscape.ABAP, ErpLandscape.JAVA).doesNotContain(MORE);

        element("#start-more").click();
        wait.until(d -> present("#instance-" + MORE));
        long clicked = System.nanoTime();
        assertThat(text("#instance-" + MORE + " td[data-field=stack]")).isEqualTo("ABAP");
        assertThat(text("#instance-" + MORE + " td[data-field=capacity]")).isEqualTo("DIAG LB=3");
        screenshot("standin.png");

        openAdmin();
        wait.until(d -> present("#server-" + MORE));
        Duration joined = Duration.ofNanos(System.nanoTime() - clicked);
        assertThat(joined).as("on the admin page within the refresh (and the page's own 2 s)")
                .isLessThan(REFRESH.plusSeconds(6));
        assertThat(text("#server-" + MORE + " td[data-field=id]")).isEqualTo(MORE + " ◆");
        assertThat(element("#server-" + MORE + " td[data-field=id]").getAttribute("title"))
                .contains("(SAP instance " + MORE + ", from http://127.0.0.1:" + demo.erp().standIn().port()
                        + "/msgserver/text/logon?version=1.2)");
        assertThat(text("#server-" + MORE + " td[data-field=system]")).isEqualTo("ERP");
        assertThat(text("#server-" + MORE + " td[data-field=type]")).isEqualTo("abap");
        assertThat(text("#server-" + MORE + " td[data-field=capacity]")).isEqualTo("3");
        assertThat(text("#server-" + MORE + " td[data-field=groups]")).contains(ErpLandscape.GROUP);
        wait.until(d -> text("#discovery-ERP td[data-field=changes]").contains("added " + MORE));

        openStandIn();
        element("#send").click();
        wait.until(d -> text("#sent").startsWith("20 requests to "));
        Matcher sent = Pattern.compile(".*, answered by " + ErpLandscape.ABAP + " (\\d+), " + MORE + " (\\d+)")
                .matcher(text("#sent"));
        assertThat(sent.matches()).as(text("#sent")).isTrue();
        long answered = Long.parseLong(sent.group(2));
        assertThat(List.of(Long.parseLong(sent.group(1)), answered))
                .as("new sessions balanced over ERP's two ABAP servers of capacity 3, alternately")
                .allSatisfy(n -> assertThat(n).isBetween(9L, 11L));
        assertThat(demo.erp().more().requestCount("/sap/bc/echo")).as("the server itself").isEqualTo(answered);
        openAdmin();
        wait.until(d -> !text("#server-" + MORE + " td[data-field=served]").isEmpty()
                && Long.parseLong(text("#server-" + MORE + " td[data-field=served]")) >= answered);

        openStandIn();
        element("#stop-more").click();
        wait.until(d -> present("#start-more"));
        assertThat(present("#instance-" + MORE)).isFalse();
        openAdmin();
        wait.until(d -> present("#server-" + ErpLandscape.ABAP) && !present("#server-" + MORE));
        wait.until(d -> text("#discovery-ERP td[data-field=changes]").contains("removed " + MORE));
        AdminClient through = new AdminClient(demo.jwd());
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = through.through("/sap/bc/echo");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("X-Served-By")).hasValue(ErpLandscape.ABAP);
        }
    }

    @Test
    void theDiscoverySectionSaysWhereErpsViewComesFromAndKeepsTheLastGoodOneWhenTheMessageServerFails()
            throws IOException {
        String list = "http://127.0.0.1:" + demo.erp().standIn().port() + "/msgserver/text/logon?version=1.2";
        DemoBackend abap = demo.erp().backends().get(0);
        openAdmin();
        wait.until(d -> element("#discovery-section").isDisplayed() && present("#discovery-ERP"));

        assertThat(text("#discovery-meta")).startsWith("the last good view is kept in ").endsWith(".txt");
        assertThat(text("#discovery-ERP td[data-field=system]")).isEqualTo("ERP");
        assertThat(text("#discovery-ERP td[data-field=source]")).isEqualTo(list + " · ICF " + abap.url());
        assertThat(text("#discovery-ERP td[data-field=refreshed]")).matches("\\d+ m?s ago");
        assertThat(text("#discovery-ERP td[data-field=view]")).isEqualTo("2 servers, fresh");
        assertThat(text("#discovery-ERP td[data-field=error]")).isEqualTo("–");
        assertThat(text("#discovery-ERP td[data-field=changes]"))
                .contains("added " + ErpLandscape.ABAP, "added " + ErpLandscape.JAVA);
        assertThat(driver.findElements(By.cssSelector("#discovery tbody tr"))).as("PRT and NTB discover nothing")
                .hasSize(1);

        demo.erp().standIn().answerWith("<html><body>Logon</body></html>");
        wait.until(d -> text("#discovery-ERP td[data-field=view]").startsWith("last good view: no answer since "));
        assertThat(element("#discovery-ERP td[data-field=view]").getAttribute("class")).isEqualTo("warn");
        assertThat(text("#discovery-ERP td[data-field=error]")).startsWith("message server " + list + ": ")
                .contains("an HTML page, not a server list");
        assertThat(present("#server-" + ErpLandscape.ABAP) && present("#server-" + ErpLandscape.JAVA)).isTrue();
        assertThat(new AdminClient(demo.jwd()).through("/sap/bc/echo").headers().firstValue("X-Served-By"))
                .hasValue(ErpLandscape.ABAP);
        screenshot("admin-discovery.png");

        demo.erp().standIn().answerWith(null);
        wait.until(d -> text("#discovery-ERP td[data-field=view]").equals("2 servers, fresh")
                && text("#discovery-ERP td[data-field=error]").equals("–"));
    }

    private void openStandIn() {
        driver.get("http://127.0.0.1:" + demo.erp().standIn().port() + "/");
        wait.until(d -> present("#instances") && (present("#start-more") || present("#stop-more")));
    }

    private void openAdmin() {
        driver.get(demo.url("/jwd/admin/"));
        wait.until(d -> !text("#server-" + ErpLandscape.ABAP + " td[data-field=served]").isEmpty());
    }

    private boolean present(String selector) {
        return !driver.findElements(By.cssSelector(selector)).isEmpty();
    }

    private String text(String selector) {
        return driver.findElements(By.cssSelector(selector)).stream().findFirst().map(WebElement::getText)
                .orElse("");
    }

    private WebElement element(String selector) {
        return wait.until(d -> d.findElement(By.cssSelector(selector)));
    }

    private void screenshot(String name) throws IOException {
        Path png = driver.getScreenshotAs(OutputType.FILE).toPath();
        Files.write(JwdProcess.target().resolve(name), Files.readAllBytes(png));
    }
}
