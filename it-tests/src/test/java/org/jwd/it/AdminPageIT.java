package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.htmlunit.BrowserVersion;
import org.htmlunit.DefaultCredentialsProvider;
import org.htmlunit.FailingHttpStatusCodeException;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlPage;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Web Administration page in a browser engine (HtmlUnit, JavaScript on): it needs credentials, its numbers
 * follow the traffic, and its buttons drain, disable and enable a server.
 */
@Timeout(120)
class AdminPageIT {
    private static final long SLOW_MILLIS = 150;
    /** A response time cell: p50 / p99 in milliseconds. */
    private static final java.util.regex.Pattern TIMES =
            java.util.regex.Pattern.compile("([0-9.]+) / ([0-9.]+) ms");
    private static DemoBackend a;
    private static DemoBackend b;
    private static JwdProcess jwd;
    private static AdminClient admin;

    @BeforeAll
    static void start() {
        a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        // b answers after 150 ms: its response times must show it
        b = DemoBackend.start(DemoBackend.Options.j2ee("b").withDelayMillis(SLOW_MILLIS));
        jwd = JwdProcess.start("""
                server.a.url=%s
                server.a.type=j2ee
                server.b.url=%s
                server.b.type=j2ee
                server.b.route=rb
                SessionTableTimeout=60s
                """.formatted(a.url(), b.url()) + AdminClient.CONFIG);
        admin = new AdminClient(jwd);
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        a.close();
        b.close();
    }

    private static WebClient browser(String user, String password) {
        WebClient web = new WebClient(BrowserVersion.CHROME);
        web.getOptions().setJavaScriptEnabled(true);
        web.getOptions().setCssEnabled(false);
        web.getOptions().setThrowExceptionOnScriptError(true);
        if (user != null) {
            DefaultCredentialsProvider credentials = new DefaultCredentialsProvider();
            credentials.addCredentials(user, password.toCharArray());
            web.setCredentialsProvider(credentials);
        }
        return web;
    }

    private static String text(HtmlPage page, String selector) {
        DomNode node = page.querySelector(selector);
        return node == null ? null : node.getTextContent().strip();
    }

    private static long number(HtmlPage page, String selector) {
        String t = text(page, selector);
        return t == null || t.isEmpty() ? -1 : Long.parseLong(t);
    }

    @Test
    void thePageNeedsCredentials() {
        try (WebClient web = browser(null, null)) {
            assertThatThrownBy(() -> web.getPage(jwd.uri("/jwd/admin/").toURL()))
                    .isInstanceOf(FailingHttpStatusCodeException.class)
                    .satisfies(e -> assertThat(((FailingHttpStatusCodeException) e).getStatusCode()).isEqualTo(401));
        }
        try (WebClient web = browser(AdminClient.USER, "wrong")) {
            assertThatThrownBy(() -> web.getPage(jwd.uri("/jwd/admin/").toURL()))
                    .isInstanceOf(FailingHttpStatusCodeException.class);
        }
    }

    @Test
    void showsEachServersResponseTimesOfTheLastMinute() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertThat(admin.through("/irj/timed").statusCode()).isEqualTo(200);
        }
        try (WebClient web = browser(AdminClient.USER, AdminClient.PASSWORD)) {
            HtmlPage page = web.getPage(jwd.uri("/jwd/admin/").toURL());
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(text(page, "#server-a td[data-field=first_byte]")).matches(TIMES);
                assertThat(text(page, "#server-b td[data-field=response]")).matches(TIMES);
            });
            java.util.regex.Matcher slow = TIMES.matcher(text(page, "#server-b td[data-field=response]"));
            java.util.regex.Matcher fast = TIMES.matcher(text(page, "#server-a td[data-field=response]"));
            assertThat(slow.matches() && fast.matches()).isTrue();
            double slowP50 = Double.parseDouble(slow.group(1));
            assertThat(slowP50).isGreaterThanOrEqualTo(SLOW_MILLIS);
            assertThat(Double.parseDouble(slow.group(2))).isGreaterThanOrEqualTo(slowP50);
            assertThat(Double.parseDouble(fast.group(1))).isLessThan(slowP50);
            assertThat(page.<org.htmlunit.html.DomElement>querySelector("#server-b td[data-field=response]")
                    .getAttribute("title")).endsWith("answers in the last minute");
        }
    }

    @Test
    void showsNoSystemsWithoutWdispSystemEntries() throws Exception {
        try (WebClient web = browser(AdminClient.USER, AdminClient.PASSWORD)) {
            HtmlPage page = web.getPage(jwd.uri("/jwd/admin/").toURL());
            // HtmlUnit sends the page's requests one after another: the groups come after the servers
            await().atMost(Duration.ofSeconds(10)).until(() -> text(page, "#server-a td[data-field=state] .label") != null
                    && page.querySelector("[id='group-!J2EE-j2ee']") != null);

            assertThat(page.<org.htmlunit.html.DomElement>querySelector("#systems-section").hasAttribute("hidden"))
                    .isTrue();
            assertThat(page.<org.htmlunit.html.DomElement>querySelector("#servers-system").hasAttribute("hidden"))
                    .isTrue();
            assertThat(page.<org.htmlunit.html.DomElement>querySelector("#server-a td[data-field=system]")
                    .hasAttribute("hidden")).isTrue();
            assertThat(text(page, "[id='group-!J2EE-j2ee'] h3")).isEqualTo("!J2EE");
        }
    }

    @Test
    void numbersChangeAfterTraffic() throws Exception {
        try (WebClient web = browser(AdminClient.USER, AdminClient.PASSWORD)) {
            HtmlPage page = web.getPage(jwd.uri("/jwd/admin/").toURL());
            assertThat(page.getTitleText()).contains("jwd");
            // HtmlUnit sends the page's requests one after another, api/config last: wait for the whole first round
            // (its script runs beside the test: a row may be on its way while another is there)
            await().atMost(Duration.ofSeconds(10)).until(() -> number(page, "#server-a td[data-field=served]") >= 0
                    && text(page, "#server-b td[data-field=actions]") != null
                    && text(page, "#config td[data-field='server.a.type']") != null);
            long servedA = number(page, "#server-a td[data-field=served]");
            long servedB = number(page, "#server-b td[data-field=served]");
            long bindings = number(page, "#sessiontable td[data-field=bindings]");
            assertThat(text(page, "#server-a td[data-field=state] .label")).isEqualTo("up");
            // b's route is configured; a has none (its session ids carry no suffix to learn from)
            assertThat(text(page, "#server-b td[data-field=route]")).isEqualTo("rb (config)");
            assertThat(text(page, "#server-a td[data-field=route]")).isEqualTo("–");
            // the configuration table comes with a request of its own, which may still be on its way
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(text(page, "#config td[data-field='server.a.type']")).isEqualTo("j2ee"));

            for (int i = 0; i < 6; i++) {
                assertThat(admin.through("/irj/page-traffic").statusCode()).isEqualTo(200);
            }
            admin.through("/irj/page-traffic", "Cookie", "JSESSIONID=page-1");

            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                assertThat(number(page, "#server-a td[data-field=served]")
                        + number(page, "#server-b td[data-field=served]")).isEqualTo(servedA + servedB + 7);
                assertThat(number(page, "#sessiontable td[data-field=bindings]")).isGreaterThan(bindings);
                assertThat(text(page, "#summary")).contains("2 up");
            });
            assertThat(number(page, "#server-a td[data-field=served]")).isGreaterThan(servedA);
            assertThat(number(page, "#server-b td[data-field=served]")).isGreaterThan(servedB);
            // the chart draws one line per server from the history
            await().atMost(Duration.ofSeconds(15)).until(() ->
                    page.querySelector("#chart polyline[data-server=a]") != null
                            && page.querySelector("#chart polyline[data-server=b]") != null);
            assertThat(text(page, "#groups")).contains("!J2EE").contains("favorite:");
        }
    }

    @Test
    void drainDisableAndEnableWorkFromThePage() throws Exception {
        try (WebClient web = browser(AdminClient.USER, AdminClient.PASSWORD)) {
            HtmlPage page = web.getPage(jwd.uri("/jwd/admin/").toURL());
            await().atMost(Duration.ofSeconds(10)).until(() -> page.querySelector("#drain-b") != null);
            try {
                page.<HtmlButton>querySelector("#drain-b").click();
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                    assertThat(admin.server("b")).containsEntry("state", "drained");
                    assertThat(text(page, "#server-b td[data-field=state] .label")).isEqualTo("drained");
                });
                assertThat(text(page, "#error-text")).isEmpty();
                for (int i = 0; i < 4; i++) {
                    assertThat(admin.through("/irj/drained").headers().firstValue("X-Served-By")).hasValue("a");
                }

                await().atMost(Duration.ofSeconds(10)).until(() ->
                        page.querySelector("#disable-b") != null && !page.<HtmlButton>querySelector("#disable-b").isDisabled());
                page.<HtmlButton>querySelector("#disable-b").click();
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                        assertThat(text(page, "#server-b td[data-field=state] .label")).isEqualTo("disabled"));
                assertThat(admin.server("b")).containsEntry("state", "disabled");

                await().atMost(Duration.ofSeconds(10)).until(() ->
                        page.querySelector("#enable-b") != null && !page.<HtmlButton>querySelector("#enable-b").isDisabled());
                page.<HtmlButton>querySelector("#enable-b").click();
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                    assertThat(admin.server("b")).containsEntry("state", "up");
                    assertThat(text(page, "#server-b td[data-field=state] .label")).isEqualTo("up");
                });
            } finally {
                admin.act("b", "enable");
            }
        }
    }
}
