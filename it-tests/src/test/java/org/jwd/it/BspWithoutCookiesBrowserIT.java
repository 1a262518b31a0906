package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * A BSP application in a browser with cookies turned off (headless Chromium blocking every cookie), behind jwd, with
 * two ABAP servers. The BSP runtime then keeps the session in the URL: each link of the page carries it in the
 * mangled segment ({@code /sap(cz1TSUQlM2FBTk9OJTNh...)/bc/bsp/...}, SAP's BSP "Session Handling without Cookies").
 * jwd reads the ABAP session id there as it reads the {@code sap-contextid} cookie, so every click reaches the
 * server that holds the session, whose count goes on; a new session is still balanced.
 */
@Timeout(120)
class BspWithoutCookiesBrowserIT {
    private static final String START = "/sap/bc/bsp/sap/zjwd/bsp.htm";

    private DemoBackend abap1;
    private DemoBackend abap2;
    private JwdProcess jwd;
    private HeadlessChromium chromium;
    private ChromeDriver driver;

    @BeforeEach
    void start() throws IOException {
        abap1 = DemoBackend.start(DemoBackend.Options.abap("abap1").withName("h1_JWD_00"));
        abap2 = DemoBackend.start(DemoBackend.Options.abap("abap2").withName("h2_JWD_01"));
        jwd = JwdProcess.start("""
                server.abap1.url=%s
                server.abap1.type=abap
                server.abap1.name=h1_JWD_00
                server.abap2.url=%s
                server.abap2.type=abap
                server.abap2.name=h2_JWD_01
                icf.url_prefixes=/sap/
                wdisp/load_balancing_strategy=simple_weighted_round_robin
                health.interval=1h
                """.formatted(abap1.url(), abap2.url()));
        chromium = new HeadlessChromium("BspWithoutCookiesBrowserIT", false);
        driver = chromium.driver();
    }

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
            for (DemoBackend backend : new DemoBackend[] {abap1, abap2}) {
                if (backend != null) {
                    backend.close();
                }
            }
        }
    }

    /** A page shown: server, session, count, and its link. */
    private record Page(String server, String session, long hits, WebElement next) {
    }

    /** The page shown once it has loaded. */
    private Page page() {
        return chromium.waiting().until(d -> {
            WebElement hits = d.findElements(By.id("hits")).stream().findFirst().orElse(null);
            if (hits == null || hits.getText().isEmpty()) {
                return null;
            }
            return new Page(d.findElement(By.id("server")).getText(), d.findElement(By.id("session")).getText(),
                    Long.parseLong(hits.getText()), d.findElement(By.id("next")));
        });
    }

    /** Follows the page's link: the next page, once this one is gone. */
    private Page click(Page page) {
        page.next().click();
        chromium.waiting().until(ExpectedConditions.stalenessOf(page.next()));
        return page();
    }

    @Test
    void keepsItsSessionOnOneAbapServerOverTenClicksWithCookiesTurnedOff() {
        driver.get(jwd.uri(START).toString());
        Page first = page();
        assertThat(first.hits()).isEqualTo(1);
        assertThat(first.next().getAttribute("href")).contains("/sap(").contains(")/bc/bsp/sap/zjwd/bsp.htm");

        Page page = first;
        for (int click = 1; click <= 10; click++) {
            Page next = click(page);

            assertThat(next.server()).as("click %d", click).isEqualTo(first.server());
            assertThat(next.session()).as("click %d", click).isEqualTo(first.session());
            assertThat(next.hits()).as("click %d: the session's count goes on", click).isEqualTo(page.hits() + 1);
            page = next;
        }
        assertThat(driver.manage().getCookies()).as("the browser kept no cookie").isEmpty();
        assertThat(driver.getCurrentUrl()).contains("/sap(");
    }

    @Test
    void aNewSessionIsStillBalanced() {
        Set<String> servers = new HashSet<>();
        Page previous = null;
        for (int i = 0; i < 4; i++) {
            driver.get(jwd.uri(START + "?visit=" + i).toString());
            if (previous != null) {
                chromium.waiting().until(ExpectedConditions.stalenessOf(previous.next()));
            }
            Page page = page();
            assertThat(page.hits()).as("a new session each time: no cookie carries the last one").isEqualTo(1);
            servers.add(page.server());
            previous = page;
        }
        assertThat(servers).containsExactlyInAnyOrder("abap1", "abap2");
    }
}
