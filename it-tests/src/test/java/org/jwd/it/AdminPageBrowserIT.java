package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.jwd.config.PasswordHash;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Every feature of the Web Administration page in headless Chromium, through the distribution, by selectors: the
 * version, start and readiness; cells updated in place (an element and a text selection survive refreshes); pausing;
 * human units; each server's state and since when, requests, errors by class, response times, bytes and failed
 * health checks; drain and disable behind a confirmation; an action's error that stays until dismissed; the reload
 * button; explain as text; a session lookup; the URL mapping table; the server table within a 1,400-pixel window,
 * the window every test sees the page in. It leaves a screenshot of the page in
 * {@code it-tests/target/admin.png} ({@code -Djwd.screenshot=docs}: also in {@code docs/admin.png}, the README's).
 */
@Timeout(240)
class AdminPageBrowserIT {
    private static final String MONITOR_PASSWORD = "only looking";
    /** The width of the window every test sees the page in: a laptop's browser, not a wide screen. */
    private static final int WINDOW_WIDTH = 1400;
    private static DemoBackend a;
    private static DemoBackend b;
    private static JwdProcess jwd;
    private static AdminClient admin;
    private static Path config;
    private HeadlessChromium chromium;
    private ChromeDriver driver;
    private WebDriverWait wait;

    @BeforeAll
    static void start() throws IOException {
        a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        b = DemoBackend.start(DemoBackend.Options.j2ee("b").withDelayMillis(20));
        config = Files.createTempFile("jwd-page", ".properties");
        Files.writeString(config, """
                server.a.url=%s
                server.a.type=j2ee
                server.a.capacity=2
                server.a.logon_groups=PORTAL
                server.b.url=%s
                server.b.type=j2ee
                server.c.url=%s
                server.c.type=j2ee
                server.c.health_path=/c/status?code=404
                server.c.health_interval=500ms
                server.c.health_fall=1
                logon_group.PORTAL.url_prefixes=/irj/portal
                icf.url_prefixes=/sap/bc/
                SessionTableTimeout=10m
                admin.users.watcher.password_hash=%s
                """.formatted(a.url(), b.url(), a.url(), PasswordHash.create(MONITOR_PASSWORD.toCharArray(), 10_000))
                + AdminClient.CONFIG);
        jwd = JwdProcess.startWith(config, Map.of());
        admin = new AdminClient(jwd);
        for (int i = 0; i < 6; i++) {
            admin.through("/irj/portal/start");
        }
        admin.through("/irj/status?code=404");
        admin.through("/irj/status?code=500");
    }

    @AfterAll
    static void stop() throws IOException {
        if (jwd != null) {
            jwd.close();
        }
        a.close();
        b.close();
        Files.deleteIfExists(config);
    }

    @BeforeEach
    void openThePage() throws IOException {
        chromium = new HeadlessChromium("AdminPageBrowserIT");
        driver = chromium.driver();
        wait = chromium.waiting();
        driver.manage().window().setSize(new Dimension(WINDOW_WIDTH, 1400));
        as(AdminClient.USER, AdminClient.PASSWORD);
    }

    @AfterEach
    void closeTheBrowser() throws IOException {
        chromium.close();
    }

    /** Loads the page with this user's credentials on every request it makes (the DevTools protocol's headers). */
    private void as(String user, String password) {
        driver.executeCdpCommand("Network.enable", Map.of());
        driver.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers",
                Map.of("Authorization", AdminClient.basic(user, password))));
        driver.get(jwd.uri("/jwd/admin/").toString());
        wait.until(d -> !text("#server-a td[data-field=served]").isEmpty() && !text("#version").endsWith("…"));
    }

    private String text(String selector) {
        return driver.findElements(By.cssSelector(selector)).stream().findFirst().map(WebElement::getText)
                .orElse("");
    }

    private WebElement element(String selector) {
        return wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(selector)));
    }

    @Test
    void showsTheVersionTheStartAndWhetherThisNodeIsReady() {
        wait.until(d -> "ready: 2 of 3 servers up".equals(element("#ready").getAttribute("title")));

        assertThat(text("#ready")).isEqualTo("ready");
        assertThat(text("#version")).matches("version \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
        assertThat(text("#started")).matches("started .+, up \\d+ (s|min \\d+ s)");
        assertThat(text("#summary")).contains("3 servers: 2 up, 0 drained, 1 down");
    }

    @Test
    void updatesCellsInPlaceSoThatElementsAndASelectionSurviveTheRefreshes() {
        WebElement served = element("#server-a td[data-field=served]");
        long before = Long.parseLong(served.getText());
        chromium.js("var r = document.createRange(); r.selectNodeContents(document.querySelector("
                + "'#server-b td[data-field=groups]')); window.getSelection().removeAllRanges();"
                + " window.getSelection().addRange(r);");

        for (int i = 0; i < 4; i++) {
            admin.through("/irj/portal/more");
        }

        wait.until(d -> Long.parseLong(served.getText()) > before);
        assertThat(chromium.js("return window.getSelection().toString()")).isEqualTo("!J2EE, !ALL, SPACE");
        assertThat(chromium.js("return document.body.contains(window.getSelection().anchorNode)")).isEqualTo(true);
    }

    @Test
    void pausesAndResumesTheRefresh() {
        element("#pause").click();
        assertThat(text("#pause")).isEqualTo("Resume");
        assertThat(text("#updated")).startsWith("paused at ");
        String served = text("#server-b td[data-field=served]");

        admin.through("/irj/while-paused", "Cookie", "saplb_*=(J2EE)b");

        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7))
                .until(() -> text("#server-b td[data-field=served]").equals(served));
        element("#pause").click();
        wait.until(d -> !text("#server-b td[data-field=served]").equals(served));
        assertThat(text("#pause")).isEqualTo("Pause");
    }

    @Test
    void showsEachServersStateSinceWhenItsTrafficInHumanUnitsAndItsFailedChecks() {
        wait.until(d -> text("#server-a td[data-field=response]").matches("[0-9.]+ / [0-9.]+ ms"));

        assertThat(text("#server-a td[data-field=state]")).matches("up\\nfor \\d+ (s|min \\d+ s)");
        assertThat(element("#server-a td[data-field=state] .since").getAttribute("title"))
                .contains("enabled by the configuration (server.a.state=active)");
        assertThat(text("#server-a td[data-field=bytes]")).matches("\\d+ B / \\d+(\\.\\d)? (B|KB)");
        int[] sum = new int[3];
        for (String id : new String[] {"a", "b", "c"}) {
            String[] cell = text("#server-" + id + " td[data-field=errors]").split(" / | · ");
            for (int i = 0; i < 3; i++) {
                sum[i] += Integer.parseInt(cell[i]);
            }
        }
        assertThat(sum).as("their own 4xx, their own 5xx, jwd's 502/503/504: one 404 and one 500 went out")
                .containsExactly(1, 1, 0);
        wait.until(d -> text("#server-c td[data-field=state]").startsWith("down"));
        assertThat(text("#server-c td[data-field=last_check]")).matches("\\d+ failed · GET http://127\\.0\\.0\\.1:\\d+"
                + "/c/status\\?code=404: status 404, expected 200-399");
        assertThat(element("#server-c td[data-field=last_check]").getAttribute("title"))
                .contains("every 500ms", "expects 200-399", "fall 1").contains("last failure at ");
    }

    @Test
    void theServerTableFitsAWindow1400PixelsWideWithEveryColumnFilled() {
        wait.until(d -> text("#server-c td[data-field=last_check]").contains("failed")
                && text("#server-a td[data-field=response]").matches("[0-9.]+ / [0-9.]+ ms"));

        Map<?, ?> fit = (Map<?, ?>) chromium.js("""
                const table = document.getElementById('servers').getBoundingClientRect();
                const actions = document.querySelector('#servers thead th:last-child').getBoundingClientRect();
                return {viewport: document.documentElement.clientWidth, window: window.innerWidth,
                        table: table.right, actions: actions.right,
                        scroll: document.documentElement.scrollWidth};
                """);
        System.out.println("the server table in a " + WINDOW_WIDTH + " pixel window: " + fit);
        double viewport = ((Number) fit.get("viewport")).doubleValue();
        assertThat(((Number) fit.get("window")).intValue()).as("the window's width").isEqualTo(WINDOW_WIDTH);
        assertThat(((Number) fit.get("table")).doubleValue()).as("the server table's right edge, %s", fit)
                .isLessThanOrEqualTo(viewport);
        assertThat(((Number) fit.get("actions")).doubleValue()).as("the Actions column's right edge, %s", fit)
                .isLessThanOrEqualTo(viewport);
        assertThat(((Number) fit.get("scroll")).doubleValue()).as("the page's width, %s", fit)
                .isLessThanOrEqualTo(viewport);
    }

    @Test
    void drainAndDisableAskFirstAndEnableDoesNot() {
        try {
            element("#drain-b").click();
            Alert confirm = wait.until(ExpectedConditions.alertIsPresent());
            assertThat(confirm.getText()).isEqualTo("Drain server b? It takes no new sessions; the sessions it holds"
                    + " continue.");
            confirm.accept();
            wait.until(d -> text("#server-b td[data-field=state]").startsWith("drained"));
            assertThat(admin.server("b")).containsEntry("admin_state", "drained");

            element("#disable-b").click();
            wait.until(ExpectedConditions.alertIsPresent()).dismiss();
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                    .until(() -> "drained".equals(admin.server("b").get("admin_state")));

            element("#disable-b").click();
            wait.until(ExpectedConditions.alertIsPresent()).accept();
            wait.until(d -> text("#server-b td[data-field=state]").startsWith("disabled"));

            element("#enable-b").click();
            wait.until(d -> text("#server-b td[data-field=state]").startsWith("up"));
            assertThat(text("#error")).isEmpty();
        } finally {
            admin.act("b", "enable");
        }
    }

    @Test
    void anActionsErrorStaysUntilItIsDismissed() {
        as("watcher", MONITOR_PASSWORD);

        element("#drain-a").click();
        wait.until(ExpectedConditions.alertIsPresent()).accept();
        wait.until(d -> element("#error").isDisplayed());
        String error = text("#error-text");
        assertThat(error).isEqualTo("drain a failed: 403: jwd: user watcher has role monitor: POST"
                + " /api/servers/a/drain needs role admin");

        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7))
                .until(() -> element("#error").isDisplayed() && text("#error-text").equals(error));
        element("#error-dismiss").click();
        assertThat(element("#error").isDisplayed()).isFalse();
    }

    @Test
    void reloadsTheConfigurationFileAndSaysWhatCameOfIt() throws IOException {
        element("#reload-button").click();
        wait.until(d -> text("#reload-result").startsWith("reload unchanged at "));

        Files.writeString(config, Files.readString(config) + "jwd.debug_headers=true\n");
        try {
            element("#reload-button").click();
            wait.until(d -> text("#reload-result").startsWith("reload applied at "));
            wait.until(d -> text("#config td[data-field='jwd.debug_headers']").equals("true"));
        } finally {
            Files.writeString(config, Files.readString(config).replace("jwd.debug_headers=true\n", ""));
            admin.send(admin.request("/jwd/admin/api/reload").header("X-Jwd-Admin", "1")
                    .header("Origin", jwd.uri().toString()).POST(java.net.http.HttpRequest.BodyPublishers.noBody())
                    .build());
        }
    }

    @Test
    void explainsAUrlInWords() {
        // the browser's favicon request went through jwd to a server, which gave it a session: a first request
        driver.manage().deleteAllCookies();
        WebElement url = element("#explain-url");
        url.clear();
        url.sendKeys("/irj/portal/x");
        element("#explain-button").click();

        wait.until(d -> !text("#explain-result dd[data-field=server]").isEmpty());
        assertThat(text("#explain-result dd[data-field=path]")).isEqualTo("/irj/portal/x");
        assertThat(text("#explain-result dd[data-field=group]")).startsWith("PORTAL: a up");
        assertThat(text("#explain-result dd[data-field=server]")).isEqualTo("a (balanced)");
        assertThat(text("#explain-result dd[data-field=permission]")).isEqualTo("no permission table: permitted");
        assertThat(text("#explain-result dd[data-field=session]")).isEqualTo("none: a first request");
    }

    @Test
    void findsWhereAPastedSessionIdentifiersSessionIs() {
        String server = admin.through("/irj/lookup", "Cookie", "JSESSIONID=paste-me-1")
                .headers().firstValue("X-Served-By").orElseThrow();

        element("#lookup-value").sendKeys("JSESSIONID=paste-me-1");
        element("#lookup-button").click();

        wait.until(d -> !text("#lookup-result td[data-field=server]").isEmpty());
        assertThat(text("#lookup-result td[data-field=server]")).isEqualTo(server);
        assertThat(text("#lookup-result td[data-field=binding]")).isEqualTo("session table");
        // the server set JSESSIONID=paste-me-1 itself, so SAP's session ID table learned it: its idle time is
        // wdisp/HTTP/context_timeout's (1 h by default), not SessionTableTimeout's (request-time bindings only)
        assertThat(text("#lookup-result td[data-field=idle_left]")).matches("59 min \\d+ s|1 h 0 min");
        assertThat(jwd.log()).noneMatch(l -> l.contains("paste-me-1"));

        element("#lookup-value").clear();
        element("#lookup-value").sendKeys("nobody-knows-me");
        element("#lookup-button").click();
        wait.until(d -> text("#lookup-result").startsWith("no server holds it"));
    }

    @Test
    void showsTheUrlMappingTableAndTheLogonGroupsPrefixes() {
        wait.until(d -> !text("#urlmapping").isEmpty());

        assertThat(text("#mapping-all h3")).isEqualTo("1 ICF prefixes, root URLs to j2ee (is/HTTP/default_root_hdl)");
        assertThat(text("#mapping-all .source")).isEqualTo("icf.url_prefixes only (no icf.url_prefixes_url)");
        assertThat(text("#mapping-all-prefix-_sap_bc_")).isEqualTo("/sap/bc/ any case icf.url_prefixes");
        assertThat(text("#mapping-all-group-PORTAL")).isEqualTo("PORTAL B /irj/portal");
    }

    /** The README's picture of the page: taken with every table filled, after a short while of traffic. */
    @Test
    void leavesAScreenshotForTheReadme() throws IOException {
        for (int i = 0; i < 10; i++) {
            admin.through("/irj/portal/screenshot");
        }
        wait.until(d -> text("#server-a td[data-field=response]").matches("[0-9.]+ / [0-9.]+ ms")
                && !text("#urlmapping").isEmpty() && !text("#config").isEmpty());
        chromium.js("window.scrollTo(0, 0)");

        Path png = driver.getScreenshotAs(OutputType.FILE).toPath();
        // The build's picture goes to target/admin.png; -Djwd.screenshot=docs also puts it in docs/admin.png, the
        // README's (a test run leaves the work tree as it found it). Written, not copied: the driver's file is private
        // to this user, the picture is for every reader.
        Path shot = JwdProcess.target().resolve("admin.png");
        Files.write(shot, Files.readAllBytes(png));
        assertThat(Files.size(shot)).isGreaterThan(10_000);
        if ("docs".equals(System.getProperty("jwd.screenshot"))) {
            Files.copy(shot, JwdProcess.projectDir().resolve("docs/admin.png"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
