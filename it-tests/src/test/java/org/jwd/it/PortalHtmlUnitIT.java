package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.htmlunit.CookieManager;
import org.htmlunit.WebClient;
import org.htmlunit.WebRequest;
import org.htmlunit.WebResponse;
import org.htmlunit.html.HtmlAnchor;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.util.Cookie;
import org.jwd.it.PortalLandscape.IView;
import org.jwd.it.PortalLandscape.Journal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The portal race without a real browser. HtmlUnit loads a page's iframes one after the other, so two
 * {@link WebClient}s sharing one {@link CookieManager} play the two iframes of one browser: after the portal
 * gave the JSESSIONID (and no {@code saplb_*}), a {@link CyclicBarrier} releases both to request their iView
 * at the same moment, then both click. The cookie manager keeps the last {@code saplb_*}, as a browser does.
 */
@Timeout(90)
class PortalHtmlUnitIT {
    /** One landscape per {@code SessionTableTimeout}, shared by the tests: each test is its own browser. */
    private static final Map<String, PortalLandscape> LANDSCAPES = new HashMap<>();

    private PortalLandscape landscape;
    private ExecutorService executor;
    /** The cookies and the servers' sessions at the end of {@link #race}, for failure messages. */
    private String report;

    @BeforeEach
    void startExecutor() {
        executor = Executors.newFixedThreadPool(2);
    }

    @AfterEach
    void stopExecutor() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopLandscapes() {
        LANDSCAPES.values().forEach(PortalLandscape::close);
        LANDSCAPES.clear();
    }

    private static PortalLandscape landscape(String sessionTables) {
        return LANDSCAPES.computeIfAbsent(sessionTables, PortalLandscape::start);
    }

    @Test
    void keepsBothIViewsOnOneServerWithTheSessionTable() throws Exception {
        landscape = landscape(PortalLandscape.TEMPORARY_TABLE);

        Journal journal = race(10, null);

        assertNothingLost(journal);
    }

    /**
     * The JSESSIONID comes from elsewhere on the domain (another system), so jwd has never seen it: the two
     * concurrent iView requests are the session's first requests, and the first binding must win.
     */
    @Test
    void keepsBothIViewsOnOneServerWithTheSessionTableForAJsessionidJwdNeverSaw() throws Exception {
        landscape = landscape(PortalLandscape.TEMPORARY_TABLE);

        Journal journal = race(10, UUID.randomUUID().toString().replace("-", ""));

        assertNothingLost(journal);
    }

    /**
     * SAP's defaults, no temporary table: the portal page's server set the JSESSIONID, the session ID table learned
     * it from that answer, so both concurrent iView requests follow it.
     */
    @Test
    void keepsBothIViewsOnOneServerWithSapsSessionIdTableAlone() throws Exception {
        landscape = landscape(PortalLandscape.SAP_DEFAULTS);

        Journal journal = race(10, null);

        assertNothingLost(journal);
    }

    @Test
    void losesAnIViewSessionWithoutTheSessionTable() throws Exception {
        landscape = landscape(PortalLandscape.NO_TABLE);

        Journal journal = race(3, null);

        System.out.println(journal);
        assertThat(journal.losses())
                .withFailMessage("without the session table one iView's session must be lost (a count restarts or "
                        + "the iViews end on different servers), but nothing was\n%s\n%s", journal, report)
                .isNotEmpty();
    }

    private void assertNothingLost(Journal journal) {
        System.out.println(journal);
        assertThat(journal.losses())
                .withFailMessage("with the session table no iView session may be lost, but: %s\n%s\n%s",
                        journal.losses().isEmpty() ? "" : journal.losses().get(0), journal, report)
                .isEmpty();
        assertThat(journal.servers()).as("the servers both iViews were on\n%s", journal).hasSize(1);
    }

    /**
     * The portal once, then up to {@code rounds} times: both iViews requested together, then one click in each
     * (together too); it stops after the first round that lost something.
     *
     * @param foreignJsessionid {@code null}: the portal sets the JSESSIONID; otherwise the browser holds this
     *                          one already and the portal is skipped, so the concurrent iView requests are the
     *                          first ones of the session that jwd sees
     */
    private Journal race(int rounds, String foreignJsessionid) throws Exception {
        CookieManager cookies = new CookieManager();
        if (foreignJsessionid != null) {
            cookies.addCookie(new Cookie("127.0.0.1", "JSESSIONID", foreignJsessionid, "/", null, false));
        }
        Journal journal = new Journal();
        try (WebClient clientA = client(cookies); WebClient clientB = client(cookies)) {
            if (foreignJsessionid == null) {
                // The portal page only: its iframes must not be loaded one by one before the race.
                WebResponse portal = clientA.loadWebResponse(new WebRequest(new URL(landscape.url("/portal"))));
                assertThat(portal.getStatusCode()).isEqualTo(200);
            }
            Cookie jsessionid = cookies.getCookie("JSESSIONID");
            assertThat(jsessionid).as("the JSESSIONID; cookies %s", cookies.getCookies()).isNotNull();
            assertThat(saplbCookies(cookies)).as("saplb cookies before the race").isEmpty();
            try {
                for (int round = 1; round <= rounds; round++) {
                    List<Timed<HtmlPage>> loaded = together(() -> clientA.getPage(landscape.url("/iview/a")),
                            () -> clientB.getPage(landscape.url("/iview/b")));
                    IView a = read(loaded.get(0).value(), "a");
                    IView b = read(loaded.get(1).value(), "b");
                    if (round == 1) {
                        assertThat(List.of(a.session(), b.session()))
                                .as("the iViews use the browser's JSESSIONID\n%s\n%s", a, b)
                                .containsOnly(jsessionid.getValue());
                        assertThat(loaded.get(0).overlaps(loaded.get(1)))
                                .as("the two iView requests were in flight together: %s", loaded).isTrue();
                    }
                    journal.loaded(round, a, b);
                    HtmlPage pageA = loaded.get(0).value();
                    HtmlPage pageB = loaded.get(1).value();
                    List<Timed<HtmlPage>> clicked = together(() -> click(pageA), () -> click(pageB));
                    journal.clicked(round, read(clicked.get(0).value(), "a"), read(clicked.get(1).value(), "b"));
                    if (journal.lostAny()) {
                        break;
                    }
                }
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\n" + journal + "\n" + report(cookies), e);
            } finally {
                report = report(cookies);
            }
        }
        return journal;
    }

    private String report(CookieManager cookies) {
        Cookie jsessionid = cookies.getCookie("JSESSIONID");
        return "cookies: " + cookies.getCookies().stream().map(c -> c.getName() + "=" + c.getValue())
                .collect(Collectors.joining("; ")) + "\n"
                + landscape.report(jsessionid == null ? null : jsessionid.getValue());
    }

    private static WebClient client(CookieManager cookies) {
        WebClient client = new WebClient();
        // Before the first request: each connection takes the client's cookie manager when it is made.
        client.setCookieManager(cookies);
        client.getOptions().setJavaScriptEnabled(false);
        client.getOptions().setCssEnabled(false);
        client.getOptions().setThrowExceptionOnFailingStatusCode(true);
        client.getOptions().setTimeout(20_000);
        return client;
    }

    private static HtmlPage click(HtmlPage page) throws Exception {
        HtmlAnchor link = page.getHtmlElementById("click");
        HtmlPage next = link.click();
        assertThat(next.getUrl().getQuery()).as("the page the click loaded: %s", next.getUrl()).isEqualTo("click=1");
        return next;
    }

    private static IView read(HtmlPage page, String name) {
        assertThat(page.getUrl().getPath()).isEqualTo("/iview/" + name);
        return new IView(name, Long.parseLong(page.getHtmlElementById("count").getTextContent().trim()),
                page.getHtmlElementById("server").getTextContent(), page.getHtmlElementById("session").getTextContent(),
                page.getWebResponse().getResponseHeaderValue("X-Jwd-Route"));
    }

    private static String saplbCookies(CookieManager cookies) {
        return cookies.getCookies().stream().filter(c -> c.getName().startsWith("saplb_"))
                .map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining(", "));
    }

    /** Runs both at the same moment (released together by a barrier) and returns their results in order. */
    private <T> List<Timed<T>> together(Callable<T> first, Callable<T> second) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(2);
        Future<Timed<T>> f1 = executor.submit(() -> timed(barrier, first));
        Future<Timed<T>> f2 = executor.submit(() -> timed(barrier, second));
        return List.of(f1.get(30, TimeUnit.SECONDS), f2.get(30, TimeUnit.SECONDS));
    }

    private static <T> Timed<T> timed(CyclicBarrier barrier, Callable<T> call) throws Exception {
        barrier.await(10, TimeUnit.SECONDS);
        long start = System.nanoTime();
        T value = call.call();
        return new Timed<>(value, start, System.nanoTime());
    }

    /** A result and when its call ran ({@link System#nanoTime()}). */
    private record Timed<T>(T value, long startNanos, long endNanos) {
        boolean overlaps(Timed<?> other) {
            return startNanos < other.endNanos && other.startNanos < endNanos;
        }

        @Override
        public String toString() {
            return "[" + startNanos / 1_000_000 + ".." + endNanos / 1_000_000 + " ms]";
        }
    }
}
