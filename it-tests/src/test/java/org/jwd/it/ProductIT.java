package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.demo.DemoBackend;

/** The product as an administrator meets it: its commands, a pasted SAP profile, a graceful stop. */
class ProductIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** SIGTERM with 20 requests in flight: they all finish with 200, no new connection is accepted, exit status 0. */
    @Test
    void sigtermLetsTheRequestsInFlightFinishRefusesNewConnectionsAndExitsZero() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             // Jetty's own graceful stop, as a user's (the tests' shorter wait for idle connections left out)
             JwdProcess jwd = JwdProcess.start("server.a.url=" + a.url() + "\nserver.a.type=j2ee\n",
                     Map.of("JWD_JETTY_ARGS", ""))) {
            List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                inFlight.add(HTTP.sendAsync(HttpRequest.newBuilder(jwd.uri("/irj/hold")).timeout(Duration.ofSeconds(60))
                        .build(), HttpResponse.BodyHandlers.ofString()));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> a.held() == 20);

            ProcessHandle.of(jwd.launcherPid()).orElseThrow().destroy();

            // the listener closes at once, while the 20 requests are still held by the server
            await().atMost(Duration.ofSeconds(20)).until(() -> refuses(jwd.port()));
            assertThat(jwd.isAlive()).isTrue();
            a.release(20);
            for (CompletableFuture<HttpResponse<String>> response : inFlight) {
                assertThat(response.get().statusCode()).isEqualTo(200);
            }
            assertThat(jwd.waitFor(Duration.ofSeconds(60))).isZero();
        }
    }

    /**
     * With {@code jwd.stop_delay}, SIGTERM turns {@code /jwd/health/ready} to 503 at once while the node serves on,
     * each answer closing its connection, and the listener closes only once the delay has passed: the time a load
     * balancer's checks need to take the node out.
     */
    @Test
    void sigtermWithAStopDelayAnswersNotReadyAtOnceAndServesOnUntilTheDelayHasPassed() throws Exception {
        try (DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
             JwdProcess jwd = JwdProcess.start("server.a.url=" + a.url() + "\nserver.a.type=j2ee\n"
                     + "jwd.stop_delay=3s\n")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> get(jwd.uri("/jwd/health/ready")).statusCode() == 200);
            long signalled = System.nanoTime();
            ProcessHandle.of(jwd.launcherPid()).orElseThrow().destroy();

            await().atMost(Duration.ofSeconds(2)).until(() -> get(jwd.uri("/jwd/health/ready")).statusCode() == 503);
            assertThat(get(jwd.uri("/jwd/health/ready")).body()).isEqualToIgnoringWhitespace("stopping");
            HttpResponse<String> served = get(jwd.uri("/irj/echo"));
            assertThat(served.statusCode()).isEqualTo(200);
            assertThat(served.headers().firstValue("Connection")).hasValue("close");
            await().atMost(Duration.ofSeconds(20)).until(() -> refuses(jwd.port()));
            assertThat(Duration.ofNanos(System.nanoTime() - signalled)).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
            assertThat(String.join("\n", jwd.log())).contains("jwd: stopping: serving on for jwd.stop_delay (3000 ms)");
            assertThat(jwd.waitFor(Duration.ofSeconds(30))).isZero();
        }
    }

    private static boolean refuses(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * An SAP Web Dispatcher profile pastes: its instance lines, its icm/server_port_<xx> lines (where jwd listens, no
     * --port given), wdisp/system_0, the permission table and the access log.
     */
    @Test
    void aPastedWebDispatcherProfileStartsListeningWhereItSays(@TempDir Path dir) throws Exception {
        int http = freePort();
        int second = freePort();
        Files.writeString(dir.resolve("permission_table.txt"), "D /sap/bc/admin/*\nP /*\n");
        Files.createDirectories(dir.resolve("log"));
        try (DemoBackend abap = DemoBackend.start(DemoBackend.Options.abap("abap1"));
             DemoBackend java = DemoBackend.start(DemoBackend.Options.j2ee("java1"))) {
            Path profile = dir.resolve("WDP_W00_wdhost");
            Files.writeString(profile, """
                    SAPSYSTEMNAME = WDP
                    SAPGLOBALHOST = wdhost
                    SAPSYSTEM = 00
                    INSTANCE_NAME = W00
                    DIR_INSTANCE = /usr/sap/WDP/W00
                    DIR_LOGGING = %s
                    _PF = $(DIR_PROFILE)/WDP_W00_wdhost
                    SETENV_00 = DIR_LIBRARY=$(DIR_LIBRARY)
                    icm/max_conn = 2000
                    icm/min_threads = 10
                    icm/max_threads = 110
                    mpi/total_size_MB = 80
                    wdisp/HTTP/max_pooled_con = 2000
                    icm/server_port_0 = PROT=HTTP,PORT=%d,HOST=127.0.0.1,TIMEOUT=60,PROCTIMEOUT=600
                    icm/server_port_1 = PROT=HTTP,PORT=%d,HOST=127.0.0.1
                    wdisp/system_0 = SID=ERP, SRCURL=/sap/;/irj/
                    system.ERP.server.abap1.url = %s
                    system.ERP.server.abap1.type = abap
                    system.ERP.server.java1.url = %s
                    system.ERP.server.java1.type = j2ee
                    system.ERP.icf.url_prefixes = /sap/
                    wdisp/permission_table = permission_table.txt
                    icm/HTTP/logging_0 = PREFIX=/,LOGFILE=$(DIR_LOGGING)$(DIR_SEP)access_log,LOGFORMAT=SAP
                    """.formatted(dir.resolve("log"), http, second, abap.url(), java.url()));

            try (JwdProcess jwd = JwdProcess.startAsIs(profile, Map.of())) {
                assertThat(jwd.port()).isEqualTo(http);
                assertThat(get(URI.create("http://127.0.0.1:" + http + "/sap/bc/echo")).headers()
                        .firstValue("X-Served-By")).hasValue("abap1");
                assertThat(get(URI.create("http://127.0.0.1:" + second + "/irj/echo")).headers()
                        .firstValue("X-Served-By")).hasValue("java1");
                assertThat(get(URI.create("http://127.0.0.1:" + http + "/sap/bc/admin/x")).statusCode())
                        .isEqualTo(403);
                assertThat(String.join("\n", jwd.log())).contains("jwd: SAP profile lines read, not used:"
                        + " SAPSYSTEMNAME, SAPGLOBALHOST, SAPSYSTEM, INSTANCE_NAME, DIR_INSTANCE, _PF, SETENV_00,"
                        + " icm/max_conn, icm/min_threads, icm/max_threads, mpi/total_size_MB,"
                        + " wdisp/HTTP/max_pooled_con");
                await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve("log/access_log"))
                        && Files.readString(dir.resolve("log/access_log")).contains("/sap/bc/echo"));
            }
        }
    }

    @Test
    void checkSaysAGoodFileIsValidAndBindsNothing(@TempDir Path dir) throws Exception {
        int port = freePort();
        Path config = dir.resolve("jwd.properties");
        Files.writeString(config, "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n"
                + "icm/server_port_0=PROT=HTTP,PORT=" + port + ",HOST=127.0.0.1\nSAPSYSTEMNAME=WDP\n");

        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(60), "check", "--config", config.toString());

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("jwd: " + config + " is valid: 1 servers (1 j2ee, 0 abap)",
                "it would listen on http://127.0.0.1:" + port, "SAP profile lines read, not used: SAPSYSTEMNAME");
        try (ServerSocket stillFree = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertThat(stillFree.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void checkNamesEveryProblemWithFileAndLineAndExitsOne(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("permission_table.txt"), "X /sap/*\n");
        Path config = dir.resolve("jwd.properties");
        Files.writeString(config, """
                server.a.url=http://127.0.0.1:1
                server.a.type=j2e
                jwd.request_timeout=60
                wdisp/permission_table=permission_table.txt
                SessionTableTimeOut=10m
                rdisp/msserv=sapmsERP
                icm/server_port_0=PROT=P4,PORT=50004
                """);

        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(60), "check", "--config", config.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.output()).contains(
                config + ":2: server.a.type = 'j2e': expected j2ee or abap",
                config + ":3: jwd.request_timeout = '60': expected a number with a unit: add a unit",
                "permission_table.txt:1",
                config + ":5: SessionTableTimeOut = '10m'", "did you mean SessionTableTimeout?",
                config + ":6: rdisp/msserv = 'sapmsERP'", "ms/http_port",
                config + ":7: icm/server_port_0 = 'PROT=P4,PORT=50004': PROT=P4 is not served by jwd");
    }

    @Test
    void helpGoesToStandardOutputAndAUsageErrorToStandardErrorWithStatusTwo() throws Exception {
        JwdProcess.Result help = JwdProcess.runToEndSeparately(Duration.ofSeconds(30), "--help");
        JwdProcess.Result runHelp = JwdProcess.runToEndSeparately(Duration.ofSeconds(30), "run", "--help");
        JwdProcess.Result wrong = JwdProcess.runToEndSeparately(Duration.ofSeconds(30), "run", "--colour", "red");
        JwdProcess.Result version = JwdProcess.runToEndSeparately(Duration.ofSeconds(30), "--version");

        assertThat(help.exitCode()).isZero();
        assertThat(help.output()).contains("usage: bin/jwd COMMAND", "check --config FILE");
        assertThat(runHelp.exitCode()).isZero();
        assertThat(runHelp.output()).startsWith("  run --config FILE").doesNotContain("lgtst");
        assertThat(wrong.exitCode()).isEqualTo(2);
        assertThat(wrong.output()).isEmpty();
        assertThat(wrong.errors()).contains("unknown option for run: --colour");
        assertThat(version.exitCode()).isZero();
        assertThat(version.output()).matches("jwd \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(([0-9a-f]{10}|unknown)\\)\\s*");
    }

    private static HttpResponse<String> get(URI uri) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
