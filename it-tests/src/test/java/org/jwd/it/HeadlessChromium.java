package org.jwd.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.openqa.selenium.Cookie;
import org.openqa.selenium.JavascriptException;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.PageLoadStrategy;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium through its chromedriver, with a fresh profile, as the browser tests use it. With the
 * driver given, Selenium Manager is not run: nothing is downloaded. Commands do not wait for page loads
 * ({@link PageLoadStrategy#NONE}): every wait is explicit ({@link #waiting()}), so that a test sees the iframes of a
 * page load concurrently, as Chromium loads them. {@link #close()} ends the browser and deletes the profile.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final Duration WAIT = Duration.ofSeconds(15);

    private final Path profile;
    private final ChromeDriver driver;
    private final WebDriverWait wait;

    /** @param logName the driver's log: {@code target/chromedriver-<logName>.log} */
    HeadlessChromium(String logName) throws IOException {
        this(logName, true);
    }

    /**
     * @param logName the driver's log: {@code target/chromedriver-<logName>.log}
     * @param cookies whether the browser keeps cookies; {@code false} blocks every one, as a user who turned cookies
     *                off
     */
    HeadlessChromium(String logName, boolean cookies) throws IOException {
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        profile = Files.createTempDirectory("jwd-chromium-profile");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort()
                .withLogFile(JwdProcess.target().resolve("chromedriver-" + logName + ".log").toFile())
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--disable-quic", "--user-data-dir=" + profile);
        options.setPageLoadStrategy(PageLoadStrategy.NONE);
        if (!cookies) {
            // Chromium's content setting: 2 blocks
            options.setExperimentalOption("prefs", Map.of("profile.default_content_setting_values.cookies", 2));
        }
        ChromeDriver started;
        try {
            started = new ChromeDriver(service, options);
        } catch (RuntimeException e) {
            deleteRecursively(profile);
            throw e;
        }
        driver = started;
        wait = new WebDriverWait(driver, WAIT, Duration.ofMillis(20));
        // A look into an iframe that is between two documents may fail for a moment; the next one succeeds.
        wait.ignoring(JavascriptException.class);
    }

    ChromeDriver driver() {
        return driver;
    }

    /** Waits up to 15 s, looking every 20 ms. */
    WebDriverWait waiting() {
        return wait;
    }

    /**
     * The browser's cookies, for a failure message.
     *
     * @param text       one line a cookie, or why they are unknown
     * @param jsessionid its JSESSIONID; {@code null} when it has none, or they are unknown
     */
    record Cookies(String text, String jsessionid) {
    }

    /** The browser's cookies (of the top document), without failing: it serves a failure message. */
    Cookies cookies() {
        try {
            driver.switchTo().defaultContent();
            Cookie c = driver.manage().getCookieNamed("JSESSIONID");
            return new Cookies(driver.manage().getCookies().stream().map(Cookie::toString)
                    .collect(Collectors.joining("\n  ", "the browser's cookies:\n  ", "")), c == null ? null : c.getValue());
        } catch (RuntimeException e) {
            return new Cookies("the browser's cookies: unknown (" + e.getMessage().lines().findFirst().orElse("")
                    + ")", null);
        }
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            deleteRecursively(profile);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
