package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jwd.it.PortalLandscape.IView;
import org.jwd.it.PortalLandscape.Journal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The portal with two iViews in a real browser (headless Debian Chromium through chromedriver), behind jwd.
 *
 * <p>The browser loads {@code /portal}, which sets only a JSESSIONID, so when Chromium loads the two iframes
 * (some 15 ms apart; each iView answer takes {@link PortalLandscape#IVIEW_DELAY_MILLIS}) both requests carry
 * that JSESSIONID, no {@code saplb_*} cookie, and are in flight together. Without the temporary session table
 * jwd balances them to different server processes; each creates a session under the same JSESSIONID and
 * sets its own {@code saplb_*}, the browser keeps the last one, and one iView's session is lost. With the
 * table the first request binds the JSESSIONID to one server and the concurrent one follows it.
 */
@Timeout(120)
class PortalBrowserIT {
    private PortalLandscape landscape;
    private HeadlessChromium chromium;
    private ChromeDriver driver;
    private WebDriverWait wait;

    @BeforeEach
    void startBrowser() throws IOException {
        chromium = new HeadlessChromium("PortalBrowserIT");
        driver = chromium.driver();
        wait = chromium.waiting();
    }

    @AfterEach
    void stop() throws IOException {
        try {
            if (chromium != null) {
                chromium.close();
            }
        } finally {
            if (landscape != null) {
                landscape.close();
            }
        }
    }

    @Test
    void losesAnIViewSessionWithoutTheSessionTable() {
        landscape = PortalLandscape.start(PortalLandscape.NO_TABLE);

        Journal journal = browse(3);

        System.out.println(journal);
        assertThat(journal.losses())
                .withFailMessage("without the session table one iView's session must be lost (a count restarts or "
                        + "the iViews end on different servers), but nothing was\n%s\n%s", journal, report())
                .isNotEmpty();
    }

    @Test
    void keepsBothIViewsOnOneServerWithTheSessionTable() {
        landscape = PortalLandscape.start(PortalLandscape.TEMPORARY_TABLE);

        Journal journal = browse(20);

        System.out.println(journal);
        assertThat(journal.losses())
                .withFailMessage("with the session table no iView session may be lost, but: %s\n%s\n%s",
                        journal.losses().isEmpty() ? "" : journal.losses().get(0), journal, report())
                .isEmpty();
        assertThat(journal.servers()).as("the servers both iViews were on\n%s", journal).hasSize(1);
    }

    /**
     * Up to {@code rounds} times: (re)load the portal, read both iViews, click in each; it stops after the
     * first round that lost something. The first load is the race: the browser has no cookie before it, and
     * the portal sets only a JSESSIONID.
     */
    private Journal browse(int rounds) {
        Journal journal = new Journal();
        try {
            browse(rounds, journal);
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + journal + "\n" + report(), e);
        }
        return journal;
    }

    private void browse(int rounds, Journal journal) {
        for (int round = 1; round <= rounds; round++) {
            // The query only tells this round's portal page from the last one (the portal ignores it).
            String portal = "?round=" + round;
            driver.switchTo().defaultContent();
            driver.get(landscape.url("/portal" + portal));
            Portal loaded = read(portal, "");
            if (round == 1) {
                // The scenario: both iView requests carry the portal's JSESSIONID and are in flight together.
                assertThat(List.of(loaded.a().iView().session(), loaded.b().iView().session()))
                        .as("the iViews use the portal's JSESSIONID\n%s", loaded)
                        .containsOnly(loaded.session());
                assertThat(loaded.a().overlaps(loaded.b()))
                        .as("the iframes' first requests overlap\n%s", loaded).isTrue();
            }
            journal.loaded(round, loaded.a().iView(), loaded.b().iView());
            // A click in each iView; the second one does not wait for the first iView's answer.
            click("iviewA");
            click("iviewB");
            Portal clicked = read(portal, "?click=1");
            journal.clicked(round, clicked.a().iView(), clicked.b().iView());
            if (journal.lostAny()) {
                break;
            }
        }
    }

    /**
     * Clicks the iView's link in its iframe: the iframe loads {@code ?click=1}. The link's own {@code click()}, not a
     * mouse click at its place: the portal page rewrites its explanations as the iViews' answers come in, and a frame
     * that moves between WebDriver's reading of the place and its click would miss the link.
     */
    private void click(String frame) {
        enter(frame);
        js("document.getElementById('click').click();");
    }

    /**
     * Waits until the portal page with query {@code portal} and both its iViews' pages with query {@code iView}
     * ({@code location.search}) have loaded, and reads them: one script per look (the iframes are same-origin),
     * so that a round costs few WebDriver commands.
     */
    private Portal read(String portal, String iView) {
        driver.switchTo().defaultContent();
        Map<?, ?> shown = wait.until(d -> (Map<?, ?>) js("""
                const [portal, iView] = arguments;
                if (document.readyState !== 'complete' || location.search !== portal) {
                    return null;
                }
                const result = {session: document.getElementById('session').textContent};
                for (const frame of ['iviewA', 'iviewB']) {
                    const w = document.getElementById(frame).contentWindow;
                    const count = w.document.getElementById('count');
                    if (w.document.readyState !== 'complete' || w.location.search !== iView || !count) {
                        return null;
                    }
                    const n = w.performance.getEntriesByType('navigation')[0];
                    result[frame] = {count: count.textContent,
                            server: w.document.getElementById('server').textContent,
                            session: w.document.getElementById('session').textContent,
                            requestStart: w.performance.timeOrigin + n.requestStart,
                            responseStart: w.performance.timeOrigin + n.responseStart};
                }
                return result;
                """, portal, iView));
        return new Portal(String.valueOf(shown.get("session")), shown(shown.get("iviewA"), "a"),
                shown(shown.get("iviewB"), "b"));
    }

    private static Shown shown(Object value, String name) {
        Map<?, ?> m = (Map<?, ?>) value;
        return new Shown(new IView(name, Long.parseLong(String.valueOf(m.get("count")).trim()),
                String.valueOf(m.get("server")), String.valueOf(m.get("session")), null),
                ((Number) m.get("requestStart")).doubleValue(), ((Number) m.get("responseStart")).doubleValue());
    }

    private void enter(String frame) {
        driver.switchTo().defaultContent();
        driver.switchTo().frame(frame);
    }

    /** The portal page's session and its two iViews. */
    private record Portal(String session, Shown a, Shown b) {
        @Override
        public String toString() {
            return "portal session " + session + "\n" + a + "\n" + b;
        }
    }

    /** An iView and when its page's request left and its answer began (epoch milliseconds, as Chromium saw it). */
    private record Shown(IView iView, double requestStart, double responseStart) {
        boolean overlaps(Shown other) {
            return requestStart < other.responseStart && other.requestStart < responseStart;
        }

        @Override
        public String toString() {
            return iView + String.format(Locale.ROOT, ", requested at %.1f, answered at %.1f", requestStart,
                    responseStart);
        }
    }

    private Object js(String script, Object... args) {
        return chromium.js(script, args);
    }

    /** The browser's cookies and the servers' sessions, for failure messages. */
    private String report() {
        HeadlessChromium.Cookies cookies = chromium.cookies();
        return cookies.text() + "\n" + landscape.report(cookies.jsessionid());
    }
}
