package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The demo's portal page explains itself, in headless Chromium, behind jwd with the demo's own configuration
 * ({@link DemoLandscape}): below each iView, the server its session lives on, and where jwd sends its requests and
 * why ({@code X-Jwd-Route}). Chromium loads the iViews' frames at once, so their first requests race: with the
 * temporary session table (PRT) the iViews of one system share a server for every JSESSIONID it never saw; without it
 * ({@code ?without-table}: NTB, {@code SessionTableTimeout=0}) they are split, and the page says which session is
 * lost. It leaves a picture of each page in {@code it-tests/target/portal*.png}.
 */
@Timeout(240)
class DemoPortalBrowserIT {
    private static final int ROUNDS = 5;
    private static final List<String> IVIEWS = List.of("a", "b", "c", "d");

    private static Path dir;
    private static DemoLandscape demo;
    private HeadlessChromium chromium;
    private ChromeDriver driver;

    @BeforeAll
    static void startTheDemo() throws IOException {
        dir = Files.createTempDirectory("jwd-demo-portal");
        demo = DemoLandscape.start(dir);
    }

    @AfterAll
    static void stopTheDemo() throws IOException {
        if (demo != null) {
            demo.close();
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    @BeforeEach
    void startBrowser() throws IOException {
        chromium = new HeadlessChromium("DemoPortalBrowserIT");
        driver = chromium.driver();
        driver.manage().window().setSize(new Dimension(1280, 1000));
    }

    @AfterEach
    void stopBrowser() throws IOException {
        chromium.close();
    }

    @Test
    void explainsForEachIViewTheServerItsSessionIsOnAndWhyJwdSendsItThere() throws IOException {
        Map<String, Card> cards = load("/portal");
        screenshot("portal.png");

        for (Card card : cards.values()) {
            assertThat(card.sessionServer()).as("iView %s's session server, as its page says", card)
                    .isEqualTo(card.framesServer());
            assertThat(card.nextServer()).as("where jwd sends iView %s", card).isEqualTo(card.sessionServer());
            assertThat(card.route()).as("iView %s's route", card)
                    .isEqualTo("system=" + card.system() + "; group=" + card.group() + "; server=" + card.nextServer()
                            + "; reason=" + card.reason());
            assertThat(card.because()).as("iView %s's reason in words", card).isNotBlank().isNotEqualTo("…");
            assertThat(card.verdict()).as("iView %s", card).startsWith("kept");
        }
        assertThat(List.of(cards.get("a").system(), cards.get("b").system(), cards.get("c").system(),
                cards.get("d").system())).containsExactly("PRT", "PRT", "ERP", "ERP");
        assertThat(cards.get("d").reason()).isEqualTo("sap-contextid");
        assertThat(cards.get("d").because()).contains("sap-contextid cookie names it");
        assertThat(chromium.js("return document.getElementById('summary-text').textContent"))
                .asString().startsWith("iViews a and b of PRT, loaded at the same time, are on one server, "
                        + cards.get("a").sessionServer());
    }

    @Test
    void losesAnIViewsSessionWithoutTheTemporarySessionTableAndNotWithIt() throws IOException {
        List<String> without = new ArrayList<>();
        for (int round = 1; round <= ROUNDS && without.stream().noneMatch(s -> s.contains("verdict lost")); round++) {
            // every load of the page is a new logon: a new JSESSIONID, no saplb_* cookie, the iViews race again
            Map<String, Card> cards = load("/portal?without-table&round=" + round);
            without.add("round " + round + ": " + summary() + "\n    " + String.join("\n    ",
                    cards.values().stream().map(Card::toString).toList()));
            assertThat(List.of(cards.get("a").system(), cards.get("b").system())).containsOnly("NTB");
        }
        screenshot("portal-without-table.png");
        assertThat(without).as("without the temporary table, the iViews a and b race to two servers and one's "
                + "session is lost within %d loads\n%s", ROUNDS, demo.report())
                .anyMatch(s -> s.contains("split across") && s.contains("verdict lost"));

        List<String> with = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            // a JSESSIONID from elsewhere on the domain, which PRT never saw set: only the temporary table binds it
            driver.manage().deleteAllCookies();
            driver.manage().addCookie(new Cookie("JSESSIONID", UUID.randomUUID().toString().replace("-", ""), "/"));
            Map<String, Card> cards = load("/portal?round=" + round);
            with.add("round " + round + ": " + summary() + "\n    " + String.join("\n    ",
                    cards.values().stream().map(Card::toString).toList()));
        }
        assertThat(with).as("with the temporary table, no iView is lost\n%s", demo.report())
                .allMatch(s -> s.contains("on one server") && !s.contains("verdict lost"));
    }

    /** Loads the portal page and waits until every iView is explained. */
    private Map<String, Card> load(String pathAndQuery) {
        driver.get(demo.url(pathAndQuery));
        String search = pathAndQuery.contains("?") ? pathAndQuery.substring(pathAndQuery.indexOf('?')) : "";
        List<?> shown = chromium.waiting().until(d -> (List<?>) chromium.js("""
                if (location.search !== arguments[0] || document.body.getAttribute('data-explained') !== 'true') {
                    return null;
                }
                const text = (card, field) => card.querySelector('[data-field="' + field + '"]').textContent;
                return Array.from(document.querySelectorAll('article.iview')).map(card => [
                    card.getAttribute('data-name'),
                    card.querySelector('iframe').contentDocument.getElementById('server').textContent,
                    card.getAttribute('data-session-server'), card.getAttribute('data-next-server'),
                    card.getAttribute('data-system'), card.getAttribute('data-reason'),
                    text(card, 'reason'), text(card, 'route'), text(card, 'verdict')]);
                """, search));
        Map<String, Card> cards = new LinkedHashMap<>();
        for (Object row : shown) {
            List<?> r = (List<?>) row;
            cards.put(String.valueOf(r.get(0)), new Card(String.valueOf(r.get(0)), String.valueOf(r.get(1)),
                    String.valueOf(r.get(2)), String.valueOf(r.get(3)), String.valueOf(r.get(4)),
                    String.valueOf(r.get(5)), String.valueOf(r.get(6)), String.valueOf(r.get(7)),
                    String.valueOf(r.get(8))));
        }
        assertThat(cards.keySet()).containsExactlyElementsOf(IVIEWS);
        return cards;
    }

    private String summary() {
        return String.valueOf(chromium.js("return document.getElementById('summary-text').textContent"));
    }

    private void screenshot(String name) throws IOException {
        Path png = driver.getScreenshotAs(OutputType.FILE).toPath();
        Files.write(JwdProcess.target().resolve(name), Files.readAllBytes(png));
    }

    /**
     * What the page says of one iView.
     *
     * @param framesServer  the server its own page (in the frame) names
     * @param sessionServer the server the portal page says its session is on
     * @param nextServer    where jwd sent the iView's next request (X-Jwd-Route)
     * @param because       the reason in words
     */
    private record Card(String name, String framesServer, String sessionServer, String nextServer, String system,
                        String reason, String because, String route, String verdict) {
        String group() {
            return route.replaceAll(".*group=([^;]*);.*", "$1");
        }

        @Override
        public String toString() {
            return "iView " + name + ": session on " + sessionServer + ", next to " + nextServer + " [" + route
                    + "] verdict " + verdict;
        }
    }
}
