package org.jwd.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpServer;
import org.jwd.config.DispatcherConfig;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlPrefixLoaderTest {
    private static final String SAP_LIST = """
            PREFIX=/sap/bc/bsp/&CASE=&VHOST=*
            PREFIX=/sap/public/&CASE=X&VHOST=*
            PREFIX=/sap/opu/odata/&CASE=1&VHOST=*
            """;

    private HttpServer server;
    private URI url;
    private volatile int status = 200;
    private volatile String body = SAP_LIST;
    private UrlPrefixLoader loader;
    /** lets the answer of {@code /slow} go */
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/sap/public/icf_info/icr_urlprefix", exchange -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.createContext("/slow", exchange -> {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] bytes = SAP_LIST.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/sap/public/icf_info/icr_urlprefix");
    }

    /** the shared scheduler of the refreshes */
    private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);

    {
        scheduler.setRemoveOnCancelPolicy(true);
    }

    @AfterEach
    void stop() {
        if (loader != null) {
            loader.close();
        }
        scheduler.shutdownNow();
        release.countDown();
        server.stop(0);
    }

    private UrlPrefixLoader loader(List<String> fileEntries) {
        // Generous timeouts: no test here waits for one to pass, and a loaded CI machine answers slowly.
        loader = new UrlPrefixLoader(fileEntries, url, Duration.ofHours(1), Duration.ofSeconds(20),
                Duration.ofSeconds(20));
        return loader;
    }

    @ParameterizedTest(name = "{0} is read as {1}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            PREFIX=/sap/bc/bsp/&CASE=&VHOST=*          | /sap/bc/bsp/          | -
            PREFIX=/sap/bc/bsp/&CASE=X&VHOST=*         | case:/sap/bc/bsp/     | -
            PREFIX=/sap/bc/bsp/&CASE=x                 | case:/sap/bc/bsp/     | -
            PREFIX=/sap/bc/bsp/&CASE=1&VHOST=myhost    | case:/sap/bc/bsp/     | -
            PREFIX=/sap/bc/bsp/&CASE=0                 | /sap/bc/bsp/          | -
            prefix=/sap/bc/bsp&case=                   | /sap/bc/bsp/          | -
            VHOST=*&CASE=&PREFIX=/sap/bc/bsp/          | /sap/bc/bsp/          | -
            PREFIX=/sap/bc/bsp/&VHOST=*                | /sap/bc/bsp/          | -
            PREFIX=/sap/bc/bsp/&CASE=Y                 | /sap/bc/bsp/          | CASE='Y' is neither X, 1, 0 nor empty; read as case-insensitive
            /sap/bc/                                   | /sap/bc/              | -
            icase:/sap/bc/                             | /sap/bc/              | -
            case:/sap/bc/                              | case:/sap/bc/         | -
            '  /sap/bc/  '                             | /sap/bc/              | -
            # a comment                                | -                     | -
            ''                                         | -                     | -
            <html><body>Logon</body></html>            | -                     | has no PREFIX=
            CASE=X&VHOST=*                             | -                     | has no PREFIX=
            Please log on                              | -                     | 'Please log on' has no PREFIX=
            PREFIX=sap/bc/&CASE=X                      | -                     | expected a path starting with '/'
            PREFIX=/sap/%2e%2e/&CASE=X                 | -                     | encoded dot segment
            PREFIX=/sap/bc/adt/%2Fdmo%2F/&CASE=X       | case:/sap/bc/adt/%2Fdmo%2F/ | -
            """)
    void aLineOfTheListIsReadAsSapWritesIt(String line, String expected, String problem) {
        List<String> problems = new ArrayList<>();

        List<UrlPrefix> prefixes = UrlPrefixLoader.parse(line, problems);

        assertThat(prefixes).extracting(UrlPrefix::toString)
                .isEqualTo(expected == null ? List.of() : List.of(expected));
        if (problem == null) {
            assertThat(problems).isEmpty();
        } else {
            assertThat(problems).singleElement().asString().startsWith("line 1: ").contains(problem);
        }
    }

    @Test
    void startingLoadsTheUrlAndMergesItWithTheFileEntries() {
        UrlPrefixLoader loader = loader(List.of("/logon/", "/sap/public/"));

        loader.start(scheduler);

        UrlMappingTable table = loader.current().get();
        assertThat(table.entries()).extracting(UrlPrefix::toString).containsExactly(
                "/logon/", "/sap/public/", "/sap/bc/bsp/", "case:/sap/public/", "case:/sap/opu/odata/");
        assertThat(table.match("/SAP/BC/BSP/sap/it00/default.htm")).hasToString("/sap/bc/bsp/");
        assertThat(table.match("/SAP/opu/odata/x")).isNull();
        assertThat(table.match("/sap/opu/odata/x")).hasToString("case:/sap/opu/odata/");
        assertThat(loader.lastError()).isNull();
    }

    @Test
    void aRefreshPicksUpAChangedList() {
        UrlPrefixLoader loader = loader(List.of());
        loader.start(scheduler);
        Supplier<UrlMappingTable> current = loader.current();
        assertThat(current.get().isAbap("/sap/bc/webdynpro/x")).isFalse();

        body = SAP_LIST + "PREFIX=/sap/bc/webdynpro/&CASE=&VHOST=*\n";
        assertThat(loader.refreshNow()).isTrue();

        assertThat(current.get().isAbap("/sap/bc/webdynpro/x")).isTrue();
        assertThat(current.get().size()).isEqualTo(4);
    }

    @Test
    void aRefreshAnsweredWith500KeepsTheLastGoodTableAndLogsAWarningNamingTheUrl() {
        UrlPrefixLoader loader = loader(List.of("/logon/"));
        loader.start(scheduler);
        UrlMappingTable before = loader.current().get();

        status = 500;
        body = "PREFIX=/other/&CASE=X\n";
        boolean refreshed;
        try (LogCapture log = new LogCapture(UrlPrefixLoader.class)) {
            refreshed = loader.refreshNow();
            assertThat(log.text()).contains("WARN").contains(url.toString()).contains("status 500");
        }

        assertThat(refreshed).isFalse();
        assertThat(loader.current().get()).isSameAs(before);
        assertThat(loader.lastError()).contains("status 500");
    }

    @Test
    void aRefreshWhileTheServerIsDownKeepsTheLastGoodTable() {
        UrlPrefixLoader loader = loader(List.of());
        loader.start(scheduler);
        UrlMappingTable before = loader.current().get();

        server.stop(0);

        assertThat(loader.refreshNow()).isFalse();
        assertThat(loader.current().get()).isSameAs(before);
        assertThat(before.size()).isEqualTo(3);
        assertThat(loader.lastError()).contains("ConnectException");
    }

    @ParameterizedTest(name = "a 200 answer of {0} is a failed refresh")
    @CsvSource(delimiter = '|', textBlock = """
            ''                                                    | no URL prefix
            <html><body>Please log on</body></html>               | no URL prefix
            '# nothing but a comment'                             | no URL prefix
            """)
    void aResponseWithoutAnyPrefixIsAFailedRefresh(String answer, String error) {
        UrlPrefixLoader loader = loader(List.of());
        loader.start(scheduler);
        UrlMappingTable before = loader.current().get();

        body = answer;

        assertThat(loader.refreshNow()).isFalse();
        assertThat(loader.current().get()).isSameAs(before);
        assertThat(loader.lastError()).contains(error);
    }

    @ParameterizedTest(name = "a loaded table with {0} is refused whole")
    @CsvSource(delimiter = '|', textBlock = """
            PREFIX=/&CASE=X&VHOST=*
            PREFIX=/&CASE=&VHOST=*
            /
            icase:/
            PREFIX=/sap/..&CASE=X
            """)
    void aLoadedTableWithTheRootEntryIsRefusedWithAWarningAndThePreviousTableStays(String rootLine) {
        UrlPrefixLoader loader = loader(List.of("/logon/"));
        loader.start(scheduler);
        UrlMappingTable before = loader.current().get();

        body = "PREFIX=/sap/bc/gui/&CASE=X\n" + rootLine + "\n";
        boolean refreshed;
        try (LogCapture log = new LogCapture(UrlPrefixLoader.class)) {
            refreshed = loader.refreshNow();
            assertThat(log.text()).contains("WARN", url.toString(), "the table is refused", "covers every URL",
                    "keeping the last good table (4 entries)");
        }

        assertThat(refreshed).isFalse();
        assertThat(loader.current().get()).isSameAs(before);
        assertThat(loader.current().get().isAbap("/sap/bc/gui/x")).isFalse();
        assertThat(loader.current().get().isAbap("/irj/portal")).isFalse();
        assertThat(loader.lastError()).contains("URL prefix '", "refused: it covers every URL");
    }

    @Test
    void aFileEntryOfTheRootIsRefusedAtConstructionNamingIt() {
        assertThatThrownBy(() -> new UrlPrefixLoader(List.of("/sap/bc/", "icase:/"), null, Duration.ofSeconds(1),
                Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL prefix '/' refused: it covers every URL, so every request would go to the "
                        + "ABAP servers");
    }

    @Test
    void aFailedFirstLoadLeavesTheFileEntriesUntilALaterLoadSucceeds() {
        status = 503;
        UrlPrefixLoader loader = loader(List.of("/logon/"));
        loader.start(scheduler);
        assertThat(loader.current().get().entries()).extracting(UrlPrefix::toString).containsExactly("/logon/");

        status = 200;
        assertThat(loader.refreshNow()).isTrue();

        assertThat(loader.current().get().size()).isEqualTo(4);
        assertThat(loader.lastError()).isNull();
    }

    @Test
    void withoutAUrlTheTableIsTheFileEntries() throws Exception {
        DispatcherConfig config = ConfigReader.parse("icf.url_prefixes = /sap/bc/, /logon\n", "test");
        try (UrlPrefixLoader loader = new UrlPrefixLoader(config)) {
            loader.start(scheduler);

            assertThat(loader.refreshNow()).isFalse();
            assertThat(loader.current().get().entries()).extracting(UrlPrefix::toString)
                    .containsExactly("/sap/bc/", "/logon/");
            assertThat(loader.url()).isNull();
        }
    }

    @Test
    void aFileEntryIsCaseInsensitiveUnlessWrittenCaseSensitive() {
        try (UrlPrefixLoader loader = new UrlPrefixLoader(List.of("/logon/", "case:/Public/"), null,
                Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1))) {
            loader.start(scheduler);

            assertThat(loader.current().get().match("/LOGON/x")).hasToString("/logon/");
            assertThat(loader.current().get().match("/Public/x")).hasToString("case:/Public/");
            assertThat(loader.current().get().match("/PUBLIC/x")).isNull();
        }
    }

    @Test
    void theConfigurationNamesTheUrlAndTheRefreshInterval() throws Exception {
        DispatcherConfig config = ConfigReader.parse("icf.url_prefixes = /logon/\n"
                + "icf.url_prefixes_url = " + url + "\n" + "wdisp/auto_refresh = 60\n", "test");
        try (UrlPrefixLoader loader = new UrlPrefixLoader(config)) {
            loader.start(scheduler);

            assertThat(loader.current().get().size()).isEqualTo(4);
            assertThat(loader).hasToString("UrlPrefixLoader(" + url + " every PT1M, "
                    + loader.current().get() + ")");
        }
    }

    @Test
    void anInvalidFileEntryIsRefusedAtConstruction() {
        assertThatThrownBy(() -> new UrlPrefixLoader(List.of("/sap/%zz/"), null, Duration.ofSeconds(1),
                Duration.ofSeconds(1), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/sap/%zz/");
    }

    @Test
    void onceStartedTheLoaderRefreshesOnItsOwnAsAJobOfTheSchedulerItIsGivenUntilItIsClosed() {
        loader = new UrlPrefixLoader(List.of(), url, Duration.ofMillis(50), Duration.ofSeconds(20),
                Duration.ofSeconds(20));
        loader.start(scheduler);
        body = "PREFIX=/changed/&CASE=X\n";

        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(loader.current().get().isAbap("/changed/x")).isTrue());
        // the refresh that loaded it ran on the scheduler (counted once that run is over)
        await().atMost(Duration.ofSeconds(10)).until(() -> scheduler.getCompletedTaskCount() > 0);

        loader.close();

        // a refresh running now finishes, but is not scheduled again
        await().atMost(Duration.ofSeconds(10)).until(() -> scheduler.getQueue().isEmpty()
                && scheduler.getActiveCount() == 0);
        assertThat(scheduler.isShutdown()).as("the scheduler is its owner's to stop").isFalse();
    }

    @Test
    void aClosedLoaderCannotBeStartedAgain() {
        UrlPrefixLoader loader = loader(List.of());
        loader.close();

        assertThatThrownBy(() -> loader.start(scheduler)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theLoaderNamesItsUrlItsRefreshIntervalAndItsFileEntries() {
        UrlPrefixLoader loader = new UrlPrefixLoader(List.of("/logon/"), url, Duration.ofSeconds(25),
                Duration.ofSeconds(20), Duration.ofSeconds(20));
        this.loader = loader;

        assertThat(loader.url()).isEqualTo(url);
        assertThat(loader.refresh()).isEqualTo(Duration.ofSeconds(25));
        assertThat(loader.fileTable().entries()).extracting(UrlPrefix::toString).containsExactly("/logon/");
        assertThat(loader.loadedAtMillis()).isZero();
    }

    @Test
    void aLoadRecordsWhenTheUrlLastAnsweredWithATable() {
        UrlPrefixLoader loader = loader(List.of());
        long before = System.currentTimeMillis();

        loader.start(scheduler);

        assertThat(loader.loadedAtMillis()).isBetween(before, System.currentTimeMillis());
    }

    @Test
    void anUnchangedListAfterAFailureIsASuccessfulRefreshThatClearsTheError() {
        UrlPrefixLoader loader = loader(List.of());
        loader.start(scheduler);
        UrlMappingTable before = loader.current().get();
        status = 503;
        assertThat(loader.refreshNow()).isFalse();
        assertThat(loader.lastError()).isNotNull();

        status = 200;
        long since = System.currentTimeMillis();

        assertThat(loader.refreshNow()).isTrue();
        assertThat(loader.lastError()).isNull();
        assertThat(loader.loadedAtMillis()).isBetween(since, System.currentTimeMillis());
        assertThat(loader.current().get()).isSameAs(before);
    }

    @Test
    void aResponseWithoutAnyPrefixNamesNoLineWhenNoneWasWrong() {
        UrlPrefixLoader loader = loader(List.of());
        body = "";

        assertThat(loader.refreshNow()).isFalse();

        assertThat(loader.lastError()).isEqualTo("java.io.IOException: the response has no URL prefix");
    }

    @Test
    void aResponseWithoutAnyPrefixNamesItsFirstFiveWrongLinesAndThatThereAreMore() {
        UrlPrefixLoader loader = loader(List.of());
        body = "x1\nx2\nx3\nx4\nx5\n";

        assertThat(loader.refreshNow()).isFalse();
        assertThat(loader.lastError()).isEqualTo("java.io.IOException: the response has no URL prefix ("
                + "line 1: 'x1' has no PREFIX=; line 2: 'x2' has no PREFIX=; line 3: 'x3' has no PREFIX=; "
                + "line 4: 'x4' has no PREFIX=; line 5: 'x5' has no PREFIX=)");

        body = "x1\nx2\nx3\nx4\nx5\nx6\n";

        assertThat(loader.refreshNow()).isFalse();
        assertThat(loader.lastError()).endsWith("line 5: 'x5' has no PREFIX=; ...)");
    }

    @Test
    void linesIgnoredBesidePrefixesAreLoggedAsAWarningAndAListWithoutThemIsNot() {
        UrlPrefixLoader loader = loader(List.of());
        try (LogCapture log = new LogCapture(UrlPrefixLoader.class)) {
            loader.start(scheduler);
            assertThat(log.text()).doesNotContain("WARN");
        }

        body = SAP_LIST + "x1\n";
        try (LogCapture log = new LogCapture(UrlPrefixLoader.class)) {
            assertThat(loader.refreshNow()).isTrue();
            assertThat(log.text()).contains("WARN").contains("URL prefixes at " + url
                    + ": 1 lines ignored or read with the default: line 4: 'x1' has no PREFIX=");
        }
    }

    @Test
    void aNewTableIsLoggedOnceAndAChangedBodyWithTheSameTableIsNot() {
        UrlPrefixLoader loader = loader(List.of("/logon/"));
        try (LogCapture log = new LogCapture(UrlPrefixLoader.class)) {
            loader.start(scheduler);
            assertThat(log.text()).contains("INFO").contains("URL mapping table now has 4 entries (3 from " + url
                    + ", 1 from icf.url_prefixes)");
        }

        body = SAP_LIST + "# the same prefixes\n";
        try (LogCapture log = new LogCapture(UrlPrefixLoader.class)) {
            assertThat(loader.refreshNow()).isTrue();
            assertThat(log.text()).doesNotContain("URL mapping table now has");
        }
    }

    @Test
    void aJavaPrefixOfTheListIsNoEntryOfTheTable() {
        List<String> problems = new ArrayList<>();

        List<UrlPrefix> prefixes = UrlPrefixLoader.parse(
                "PREFIX=/irj/&CASE=&VHOST=*&STACK=J2EE\nPREFIX=/sap/bc/&CASE=&VHOST=*&STACK=ABAP\n", problems);

        assertThat(prefixes).extracting(UrlPrefix::toString).containsExactly("/sap/bc/");
        assertThat(problems).isEmpty();
    }

    @Test
    void aFailedConnectionIsDescribedWithItsCauses() {
        UrlPrefixLoader loader = loader(List.of());
        server.stop(0);

        assertThat(loader.refreshNow()).isFalse();

        assertThat(loader.lastError()).startsWith("java.net.ConnectException").contains(" (java.");
    }

    @Test
    void aFetchGivesUpAfterTheRequestTimeoutWhenItIsShorterThanTheRefreshInterval() throws Exception {
        DispatcherConfig config = ConfigReader.parse("icf.url_prefixes_url = " + url.resolve("/slow") + "\n"
                + "wdisp/auto_refresh = 60\n" + "jwd.request_timeout = 300ms\n", "test");
        try (UrlPrefixLoader loader = new UrlPrefixLoader(config)) {
            assertThat(loader.refreshNow()).isFalse();

            assertThat(loader.lastError()).contains("HttpTimeoutException");
        }
    }

    @Test
    void aLoadInterruptedWhileOpenIsAFailureAndKeepsTheInterrupt() {
        UrlPrefixLoader loader = loader(List.of());
        loader.start(scheduler);
        UrlMappingTable before = loader.current().get();
        body = "PREFIX=/other/\n";

        Thread.currentThread().interrupt();
        boolean refreshed = loader.refreshNow();
        boolean interrupted = Thread.interrupted();

        assertThat(refreshed).isFalse();
        assertThat(interrupted).as("the interrupt is kept").isTrue();
        assertThat(loader.lastError()).contains("InterruptedException");
        assertThat(loader.current().get()).isSameAs(before);
    }

    @Test
    void aLoadInterruptedOnceClosedIsNoFailure() {
        UrlPrefixLoader loader = loader(List.of());
        loader.close();

        Thread.currentThread().interrupt();
        boolean refreshed = loader.refreshNow();
        boolean interrupted = Thread.interrupted();

        assertThat(refreshed).isFalse();
        assertThat(interrupted).isTrue();
        assertThat(loader.lastError()).isNull();
    }
}
