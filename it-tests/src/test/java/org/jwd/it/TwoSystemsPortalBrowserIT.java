package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * A portal page whose iViews come from two systems, in headless Chromium, behind one jwd in the distribution:
 * PRT (three Java server processes, reached by {@code SRCURL=/irj/}) serves the portal page and the iViews
 * {@code a} and {@code b}; ERP (two Java server processes, {@code SRCURL=/erp/}) serves the iView {@code c}. The
 * browser has one {@code JSESSIONID} cookie for the host, the portal's, and sends it with all three iViews, which
 * it loads concurrently; each system's servers keep a session under that one id. With the session table on, jwd
 * binds the id once in each system, so every reload and every click finds each iView's session on its server:
 * the counts go on. Were the bindings not kept apart by system, ERP's request would rebind the id to an ERP server
 * and PRT's next requests would be balanced anew (an ERP server is no PRT server): a count would restart.
 */
@Timeout(180)
class TwoSystemsPortalBrowserIT {
    private static final int ROUNDS = 10;
    private static final List<String> PRT_IVIEWS = List.of("a", "b");
    private static final List<String> IVIEWS = List.of("a", "b", "c");

    private final List<DemoBackend> prt = new ArrayList<>();
    private final List<DemoBackend> erp = new ArrayList<>();
    private JwdProcess jwd;
    private HeadlessChromium chromium;
    private ChromeDriver driver;

    @BeforeEach
    void start() throws IOException {
        StringBuilder config = new StringBuilder("""
                wdisp/system_0=SID=PRT, SRCURL=/irj/
                wdisp/system_1=SID=ERP, SRCURL=/erp/
                SessionTableTimeout=60s
                jwd.debug_headers=true
                health.interval=1h
                """);
        for (int i = 1; i <= 3; i++) {
            prt.add(backend("PRT", "j2ee" + i, config));
        }
        for (int i = 1; i <= 2; i++) {
            erp.add(backend("ERP", "erpj2ee" + i, config));
        }
        jwd = JwdProcess.start(config.toString());
        chromium = new HeadlessChromium("TwoSystemsPortalBrowserIT");
        driver = chromium.driver();
    }

    /** A Java server process of {@code sid}, its keys appended to {@code config}. */
    private static DemoBackend backend(String sid, String id, StringBuilder config) {
        DemoBackend backend = DemoBackend.start(DemoBackend.Options.j2ee(id)
                .withIviewDelayMillis(PortalLandscape.IVIEW_DELAY_MILLIS)
                .withIviews("/irj/iview/a", "/irj/iview/b", "/erp/iview/c"));
        String key = "system." + sid + ".server." + id;
        config.append(key).append(".url=").append(backend.url()).append('\n')
                .append(key).append(".type=j2ee\n")
                // what its saplb_* cookie carries, so that jwd recognises the cookie as valid in its system
                .append(key).append(".lb_id=").append(backend.saplbValue()).append('\n');
        return backend;
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
            prt.forEach(DemoBackend::close);
            erp.forEach(DemoBackend::close);
        }
    }

    @Test
    void keepsEachIViewsSessionOnItsServerInItsSystemWithTheSessionTable() {
        Map<String, Long> clicks = new LinkedHashMap<>();
        Map<String, String> servers = new LinkedHashMap<>();
        List<String> seen = new ArrayList<>();
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                String portal = "?round=" + round;
                driver.switchTo().defaultContent();
                driver.get(jwd.uri("/irj/portal" + portal).toString());
                Map<String, Shown> loaded = read(portal, "");
                check(round, "load", loaded, clicks, servers, seen);
                for (String name : IVIEWS) {
                    click(name);
                    clicks.merge(name, 1L, Long::sum);
                }
                check(round, "click", read(portal, "?click=1"), clicks, servers, seen);
            }
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nwhat the iViews showed:\n  " + String.join("\n  ", seen)
                    + "\n" + report(), e);
        }
        String session = servers.isEmpty() ? null : driver.manage().getCookieNamed("JSESSIONID").getValue();
        assertThat(backend(servers.get("a")).hasSession(session) && backend(servers.get("c")).hasSession(session))
                .as("one JSESSIONID, a session on a server of each system\n%s", report()).isTrue();
    }

    /**
     * What a (re)load or a click must show: every iView's count is its clicks so far, each iView stays on the
     * server it began on, PRT's two iViews share one PRT server, ERP's iView is on an ERP server, all with the
     * portal's JSESSIONID.
     */
    private void check(int round, String phase, Map<String, Shown> shown, Map<String, Long> clicks,
                       Map<String, String> servers, List<String> seen) {
        shown.values().forEach(v -> seen.add("round " + round + " " + phase + ": " + v));
        String at = "round " + round + " " + phase + ": ";
        for (Shown v : shown.values()) {
            assertThat(v.count()).as(at + "iView %s's count after %d click(s), on %s", v.name(),
                    clicks.getOrDefault(v.name(), 0L), v.server()).isEqualTo(clicks.getOrDefault(v.name(), 0L));
            String first = servers.putIfAbsent(v.name(), v.server());
            assertThat(v.server()).as(at + "iView %s's server: it began on %s", v.name(), first)
                    .isEqualTo(first == null ? v.server() : first);
            assertThat(v.session()).as(at + "iView %s's session id", v.name()).isEqualTo(shown.get("a").session());
        }
        assertThat(shown.get("b").server()).as(at + "PRT's iViews on one server").isEqualTo(shown.get("a").server());
        assertThat(prt).as(at + "iView a's server is PRT's").contains(backend(shown.get("a").server()));
        assertThat(erp).as(at + "iView c's server is ERP's").contains(backend(shown.get("c").server()));
    }

    private DemoBackend backend(String id) {
        return Stream.concat(prt.stream(), erp.stream()).filter(b -> b.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no server " + id + " behind jwd"));
    }

    /**
     * Clicks the iView's link in its iframe: the iframe loads {@code ?click=1}. The link's own {@code click()}, not a
     * mouse click at its place: the portal page rewrites its explanations as the iViews' answers come in, and a frame
     * that moves between WebDriver's reading of the place and its click would miss the link.
     */
    private void click(String name) {
        driver.switchTo().defaultContent();
        driver.switchTo().frame(frame(name));
        chromium.js("document.getElementById('click').click();");
    }

    private static String frame(String name) {
        return "iview" + name.toUpperCase(Locale.ROOT);
    }

    /**
     * Waits until the portal page with query {@code portal} and every iView's page with query {@code iView} have
     * loaded, and reads them with one script per look (the iframes are same-origin).
     */
    private Map<String, Shown> read(String portal, String iView) {
        driver.switchTo().defaultContent();
        List<String> frames = IVIEWS.stream().map(TwoSystemsPortalBrowserIT::frame).toList();
        Map<?, ?> shown;
        try {
            shown = waitForFrames(portal, iView, frames);
        } catch (TimeoutException e) {
            throw new AssertionError("waited for the portal page " + portal + " with every iView at '" + iView
                    + "'; the frames showed: " + chromium.js("""
                    return Array.from(document.querySelectorAll('iframe')).map(f => f.id + ' '
                        + (f.contentWindow ? f.contentWindow.location.search + ' '
                        + f.contentWindow.document.readyState : 'no window')).join(', ');
                    """), e);
        }
        Map<String, Shown> iViews = new LinkedHashMap<>();
        for (String name : IVIEWS) {
            Map<?, ?> m = (Map<?, ?>) shown.get(frame(name));
            iViews.put(name, new Shown(name, Long.parseLong(String.valueOf(m.get("count")).trim()),
                    String.valueOf(m.get("server")), String.valueOf(m.get("session"))));
        }
        return iViews;
    }

    private Map<?, ?> waitForFrames(String portal, String iView, List<String> frames) {
        return chromium.waiting().until(d -> (Map<?, ?>) chromium.js("""
                const [portal, iView, frames] = arguments;
                if (document.readyState !== 'complete' || location.search !== portal) {
                    return null;
                }
                const result = {};
                for (const frame of frames) {
                    const element = document.getElementById(frame);
                    const w = element && element.contentWindow;
                    const count = w && w.document.getElementById('count');
                    if (!count || w.document.readyState !== 'complete' || w.location.search !== iView) {
                        return null;
                    }
                    result[frame] = {count: count.textContent,
                            server: w.document.getElementById('server').textContent,
                            session: w.document.getElementById('session').textContent};
                }
                return result;
                """, portal, iView, frames));
    }

    /** What one iView page showed: its click count in the session of the server that answered. */
    private record Shown(String name, long count, String server, String session) {
        @Override
        public String toString() {
            return "iView " + name + " (" + (PRT_IVIEWS.contains(name) ? "PRT" : "ERP") + "): count " + count + " on "
                    + server + " (session " + session + ")";
        }
    }

    /** The browser's cookies and which servers hold its session, for failure messages. */
    private String report() {
        HeadlessChromium.Cookies browser = chromium.cookies();
        String cookies = browser.text();
        String session = browser.jsessionid();
        StringBuilder sb = new StringBuilder(cookies).append("\nservers behind ").append(jwd).append(':');
        for (DemoBackend b : Stream.concat(prt.stream(), erp.stream()).toList()) {
            sb.append("\n  ").append(prt.contains(b) ? "PRT " : "ERP ").append(b.id()).append(": ")
                    .append(session != null && b.hasSession(session) ? "holds" : "does not hold").append(" session ")
                    .append(session).append("; answered ").append(b.requestCounts());
        }
        return sb.toString();
    }
}
