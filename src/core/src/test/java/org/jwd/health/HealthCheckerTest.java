package org.jwd.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.ConnectException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.jwd.config.ExpectedStatus;
import org.jwd.config.HealthConfig;
import org.jwd.config.ServerHealthCheck;
import org.jwd.config.ServerState;
import org.jwd.config.ServerConfig;
import org.jwd.topology.Server;
import org.jwd.config.ServerType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The active checks against real Jetty servers on ephemeral ports: an HTTPS-enabled server's two ports are checked
 * apart, over TLS as the forwarding speaks it, and each port's failures take it out of only the groups that use it.
 * Checks are run by hand ({@link HealthChecker#check}); the schedule's interval is an hour.
 */
class HealthCheckerTest {
    private static final String PASSWORD = "s3cret-pw";
    /** rise 1, fall 1: each check decides, so that a test awaits one answer per step */
    private static final HealthConfig CONFIG = new HealthConfig(Duration.ofHours(1), Duration.ofSeconds(5), 1, 1);

    @TempDir
    static Path dir;
    private static Path keyStore;

    private final AtomicInteger plainChecks = new AtomicInteger();
    private final AtomicInteger httpsChecks = new AtomicInteger();
    private org.eclipse.jetty.server.Server plainPort;
    private org.eclipse.jetty.server.Server httpsPort;
    private HealthChecker checker;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    /** A key for 127.0.0.1 (its certificate names the address, as host name verification wants). */
    @BeforeAll
    static void keyStore() throws Exception {
        keyStore = dir.resolve("server.p12");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-validity", "2",
                "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-storetype", "PKCS12")
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isZero();
    }

    @AfterEach
    void stop() throws Exception {
        if (checker != null) {
            checker.close();
        }
        scheduler.shutdownNow();
        for (org.eclipse.jetty.server.Server s : new org.eclipse.jetty.server.Server[] {plainPort, httpsPort}) {
            if (s != null) {
                s.stop();
            }
        }
    }

    /** A Jetty server on 127.0.0.1 ({@code port} 0: ephemeral) answering 200 and counting the requests. */
    private static org.eclipse.jetty.server.Server listen(int port, boolean tls, AtomicInteger count) throws Exception {
        return listen(port, tls, count, 200);
    }

    /** As {@link #listen(int, boolean, AtomicInteger)}, answering {@code status}. */
    private static org.eclipse.jetty.server.Server listen(int port, boolean tls, AtomicInteger count, int status)
            throws Exception {
        org.eclipse.jetty.server.Server server = new org.eclipse.jetty.server.Server();
        ServerConnector connector;
        if (tls) {
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStorePath(keyStore.toString());
            ssl.setKeyStorePassword(PASSWORD);
            ssl.setKeyStoreType("PKCS12");
            connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"),
                    new HttpConnectionFactory());
        } else {
            connector = new ServerConnector(server);
        }
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                count.incrementAndGet();
                response.setStatus(status);
                callback.succeeded();
                return true;
            }
        });
        server.start();
        return server;
    }

    private static int port(org.eclipse.jetty.server.Server server) {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    /** The forwarding's TLS client: trusts the test key's certificate and checks the host name. */
    private static SslContextFactory.Client trusting() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(keyStore)) {
            trust.load(in, PASSWORD.toCharArray());
        }
        SslContextFactory.Client tls = new SslContextFactory.Client();
        tls.setTrustStore(trust);
        tls.setEndpointIdentificationAlgorithm("HTTPS");
        return tls;
    }

    private static Server server(String url, String httpsUrl) {
        return new Server(new ServerConfig("s", url == null ? null : URI.create(url),
                httpsUrl == null ? null : URI.create(httpsUrl), ServerType.J2EE, 1, Set.of(), "s", "s", null, "/"));
    }

    private Server bothPorts() throws Exception {
        plainPort = listen(0, false, plainChecks);
        httpsPort = listen(0, true, httpsChecks);
        return server("http://127.0.0.1:" + port(plainPort), "https://127.0.0.1:" + port(httpsPort));
    }

    private HealthChecker start(Server server, SslContextFactory.Client tls) {
        // the first check too is the test's own
        checker = new HealthChecker(List.of(server), CONFIG, tls, CONFIG.interval());
        checker.start(scheduler);
        return checker;
    }

    @Test
    void anHttpsEnabledServerIsCheckedOnBothPortsTheHttpsOneOverTls() throws Exception {
        Server server = bothPorts();
        start(server, trusting());

        checker.check(server);

        await().atMost(Duration.ofSeconds(10)).until(() -> server.lastCheck(true).endsWith(": 200")
                && server.lastCheck(false).endsWith(": 200"));
        assertThat(server.lastCheck(true)).isEqualTo("GET " + server.config().httpsUrl() + "/: 200");
        assertThat(server.lastCheck(false)).isEqualTo("GET " + server.config().url() + "/: 200");
        assertThat(plainChecks).hasValue(1);
        assertThat(httpsChecks).hasValue(1);
    }

    @Test
    void aFailingHttpsPortTakesTheServerOutOfTheSecureGroupsOnlyAndComesBackAfterRise() throws Exception {
        Server server = bothPorts();
        int https = port(httpsPort);
        start(server, trusting());
        httpsPort.stop();

        checker.check(server);

        await().atMost(Duration.ofSeconds(10)).until(() -> !server.healthy(true));
        await().atMost(Duration.ofSeconds(10)).until(() -> plainChecks.get() == 1
                && server.lastCheck(false).endsWith(": 200"));
        assertThat(server.takesNewRequests(true)).isFalse();
        assertThat(server.takesNewRequests(false)).isTrue();
        assertThat(server.state()).isEqualTo(Server.State.UP);
        assertThat(server.lastCheck(true)).startsWith("GET " + server.config().httpsUrl() + "/: ")
                .contains("ConnectException");

        httpsPort = listen(https, true, httpsChecks);
        checker.check(server);

        await().atMost(Duration.ofSeconds(10)).until(() -> server.healthy(true));
        assertThat(server.takesNewRequests(true)).isTrue();
        assertThat(httpsChecks).hasValue(1);
    }

    @Test
    void aFailingPlainPortWithAGoodHttpsPortLeavesTheServerInTheSecureGroups() throws Exception {
        Server server = bothPorts();
        start(server, trusting());
        plainPort.stop();

        checker.check(server);

        await().atMost(Duration.ofSeconds(10)).until(() -> !server.healthy(false));
        await().atMost(Duration.ofSeconds(10)).until(() -> server.lastCheck(true).endsWith(": 200"));
        assertThat(server.takesNewRequests(false)).isFalse();
        assertThat(server.state()).isEqualTo(Server.State.DOWN);
        assertThat(server.takesNewRequests(true)).isTrue();
        assertThat(server.state(true)).isEqualTo(Server.State.UP);
    }

    @Test
    void anHttpsPortWhoseCertificateTheForwardingWouldRefuseIsDown() throws Exception {
        Server server = bothPorts();
        // the JDK's CAs only, as without wdisp/ssl_truststore: the test key's self-signed certificate is not trusted
        start(server, new SslContextFactory.Client());

        checker.check(server);

        await().atMost(Duration.ofSeconds(10)).until(() -> !server.healthy(true));
        assertThat(server.lastCheck(true)).containsIgnoringCase("SSL");
        assertThat(httpsChecks).as("no request got through").hasValue(0);
        await().atMost(Duration.ofSeconds(10)).until(() -> server.lastCheck(false).endsWith(": 200"));
        assertThat(server.healthy(false)).isTrue();
    }

    @Test
    void aServerWithOnlyAnHttpsPortIsCheckedThereAlone() throws Exception {
        httpsPort = listen(0, true, httpsChecks);
        Server server = server(null, "https://127.0.0.1:" + port(httpsPort));
        start(server, trusting());

        checker.check(server);

        await().atMost(Duration.ofSeconds(10)).until(() -> server.lastCheck().endsWith(": 200"));
        assertThat(httpsChecks).hasValue(1);
        assertThat(server.lastCheck(false)).isEqualTo("not checked yet");

        httpsPort.stop();
        checker.check(server);

        await().atMost(Duration.ofSeconds(10)).until(() -> !server.healthy());
        assertThat(server.takesNewRequests()).isFalse();
        assertThat(server.takesNewRequests(true)).isFalse();
    }

    @Test
    void withoutForwardingOverTlsNoHttpsPortIsChecked() throws Exception {
        Server server = bothPorts();
        start(server, null);

        checker.check(server);
        await().atMost(Duration.ofSeconds(10)).until(() -> plainChecks.get() == 1);
        checker.check(server);
        await().atMost(Duration.ofSeconds(10)).until(() -> plainChecks.get() == 2);

        assertThat(httpsChecks).hasValue(0);
        assertThat(server.lastCheck(true)).isEqualTo("not checked yet");
        assertThat(server.takesNewRequests(true)).isTrue();
    }

    @Test
    void aRequestThatFailsCountsForThePortItWentTo() throws Exception {
        Server server = bothPorts();
        start(server, trusting());

        checker.requestFailed(server, true, new ConnectException("Connection refused"));

        assertThat(server.healthy(true)).as("refused: down at once").isFalse();
        assertThat(server.healthy(false)).isTrue();
        assertThat(server.lastCheck(true)).startsWith("request failed: java.net.ConnectException");
    }

    @Test
    void a404OfAMisdeployedServerIsDownWhereAServersOwnStatusSaysSoOthersDecideByTheirs() throws Exception {
        plainPort = listen(0, false, plainChecks, 404);
        String url = "http://127.0.0.1:" + port(plainPort);
        Server byDefault = server(url, null);
        Server expecting404 = new Server(new ServerConfig("t", URI.create(url), null, ServerType.J2EE, 1, Set.of(),
                "t", "t", null, "/", "t", new ServerHealthCheck(ExpectedStatus.parse("200-404"), null, null, null, 1),
                ServerState.ACTIVE));
        checker = new HealthChecker(List.of(byDefault, expecting404),
                new HealthConfig(Duration.ofHours(1), Duration.ofSeconds(5), 1, 1), null, Duration.ofHours(1));
        checker.start(scheduler);

        checker.check(byDefault);
        checker.check(expecting404);

        await().atMost(Duration.ofSeconds(10)).until(() -> byDefault.checked() && expecting404.checked());
        assertThat(byDefault.healthy()).isFalse();
        assertThat(byDefault.lastCheck()).isEqualTo("GET " + url + "/: status 404, expected 200-399");
        assertThat(byDefault.failures().failedChecks()).isEqualTo(1);
        assertThat(byDefault.failures().last()).isEqualTo(byDefault.lastCheck());
        assertThat(expecting404.healthy()).isTrue();
        assertThat(expecting404.failures().failedChecks()).isZero();
        assertThat(checker.settings(expecting404).fall()).isEqualTo(1);
        assertThat(checker.settings(expecting404).rise()).as("the default").isEqualTo(1);
    }

    @Test
    void aServerTrackedAtTheStartIsCheckedAtOnce() throws Exception {
        plainPort = listen(0, false, plainChecks);
        Server server = server("http://127.0.0.1:" + port(plainPort), null);
        checker = new HealthChecker(List.of(server), CONFIG, null);

        checker.start(scheduler);

        await().atMost(Duration.ofSeconds(10)).until(server::checked);
        assertThat(plainChecks).hasValue(1);
        assertThat(server.lastCheck()).endsWith(": 200");
    }
}
