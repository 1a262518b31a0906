package org.jwd.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The report on real embedded Jetty servers, started on ephemeral ports on 127.0.0.1. */
class StartReportTest {
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errors = new ByteArrayOutputStream();
    private final List<Integer> exits = new ArrayList<>();
    private final Server server = new Server();

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    private void report() {
        server.addEventListener(new StartReport(new PrintStream(printed, true, StandardCharsets.UTF_8),
                new PrintStream(errors, true, StandardCharsets.UTF_8), exits::add));
    }

    /** What went to standard output. */
    private List<String> lines() {
        return printed.toString(StandardCharsets.UTF_8).lines().toList();
    }

    /** What went to standard error. */
    private List<String> errorLines() {
        return errors.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private ServerConnector listener(String host) {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost(host);
        connector.setPort(0);
        server.addConnector(connector);
        return connector;
    }

    @Test
    void printsOneReadyLinePerListenerWithThePortActuallyBound() throws Exception {
        ServerConnector first = listener("127.0.0.1");
        ServerConnector second = listener("0.0.0.0");
        server.setHandler(new ContextHandler("/"));
        report();

        server.start();

        assertThat(lines()).containsExactly("jwd: ready on http://127.0.0.1:" + first.getLocalPort() + "/",
                "jwd: ready on http://127.0.0.1:" + second.getLocalPort() + "/");
        assertThat(errorLines()).isEmpty();
        assertThat(exits).isEmpty();
    }

    @Test
    void publishesTheFirstHttpListenerAsAnAccessPointForTheWebapp() throws Exception {
        ServerConnector first = listener("127.0.0.1");
        listener("127.0.0.1");
        server.setHandler(new ContextHandler("/"));
        report();

        server.start();

        // SAP's form of x-sap-webdisp-ap: http=80;https=443
        assertThat(StartReport.accessPoints(server)).isEqualTo("http=" + first.getLocalPort());
        assertThat(System.getProperty("jwd.access_points")).isEqualTo("http=" + first.getLocalPort());
    }

    @Test
    void aContextThatFailsToStartPrintsItsConfigurationProblemsAndNoReadyLine() {
        listener("127.0.0.1");
        server.setHandler(new RefusingContext("jwd: invalid configuration in /etc/jwd.properties:\n"
                + "jwd.config_watch = 'banana': expected how often\nadmin.user = '': expected a name"));
        report();
        System.setProperty("jwd.config", "/etc/jwd.properties");
        try {
            assertThatThrownBy(server::start).hasMessageContaining("banana");
        } finally {
            System.clearProperty("jwd.config");
        }

        assertThat(errorLines()).containsExactly("jwd: the configuration /etc/jwd.properties is invalid:",
                "  jwd.config_watch = 'banana': expected how often", "  admin.user = '': expected a name");
        assertThat(lines()).as("no ready line").isEmpty();
    }

    @Test
    void aPortInUseIsNamedWithTheAddress() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            listener("127.0.0.1").setPort(taken.getLocalPort());
            server.setHandler(new ContextHandler("/"));
            report();

            assertThatThrownBy(server::start).isInstanceOf(IOException.class);

            assertThat(errorLines()).singleElement().asString().startsWith("jwd: Jetty did not start: Failed to bind to ")
                    .contains(":" + taken.getLocalPort());
        }
    }

    @Test
    void theMessagesAlongTheCauseChainAreJoinedOnce() {
        Exception chain = new RuntimeException("deploy failed: disk full",
                new IllegalStateException(null, new IOException("disk full")));

        assertThat(StartReport.describe(chain)).isEqualTo("deploy failed: disk full");
        assertThat(StartReport.describe(new IllegalStateException())).isEqualTo("java.lang.IllegalStateException");
    }

    @Test
    void anyOtherFailureIsNamedByItsMessage() {
        listener("127.0.0.1");
        server.setHandler(new RefusingContext("disk full"));
        report();

        assertThatThrownBy(server::start).hasMessageContaining("disk full");

        assertThat(errorLines()).containsExactly("jwd: Jetty did not start: disk full");
    }

    @Test
    void aServerStartedWithoutAnAvailableWebappExitsNonZero() throws Exception {
        listener("127.0.0.1");
        server.setHandler(new ContextHandler("/") {
            @Override
            protected void doStart() throws Exception {
                // as a webapp does that fails without throwUnavailableOnStartupException
                super.doStart();
                setAvailable(false);
            }
        });
        report();

        server.start();

        assertThat(errorLines()).containsExactly(
                "jwd: Jetty started, but the dispatcher is not available: the webapp at / is not available");
        assertThat(exits).containsExactly(StartReport.NOT_AVAILABLE);
    }

    @Test
    void aServerStartedWithNoWebappAtAllExitsNonZero() throws Exception {
        listener("127.0.0.1");
        server.setHandler(new ContextHandlerCollection());
        report();

        server.start();

        assertThat(errorLines()).singleElement().asString().contains("no webapp is deployed");
        assertThat(exits).containsExactly(StartReport.NOT_AVAILABLE);
    }

    @Test
    void wildcardAddressesAreReachedOnTheLoopbackAndIpv6LiteralsBracketed() {
        assertThat(StartReport.host(null)).isEqualTo("127.0.0.1");
        assertThat(StartReport.host("0.0.0.0")).isEqualTo("127.0.0.1");
        assertThat(StartReport.host("::")).isEqualTo("127.0.0.1");
        assertThat(StartReport.host("10.1.2.3")).isEqualTo("10.1.2.3");
        assertThat(StartReport.host("::1")).isEqualTo("[::1]");
        assertThat(StartReport.host("jwd.example.com")).isEqualTo("jwd.example.com");
    }

    @Test
    void theProblemsAreFoundAmongSuppressedAndWrappedExceptions() {
        RuntimeException gathered = new RuntimeException("several components failed");
        gathered.addSuppressed(new IllegalArgumentException("unrelated"));
        gathered.addSuppressed(new RuntimeException("deploy failed",
                new IllegalStateException("jwd: invalid configuration in f:\nkey = 'v': expected w")));

        assertThat(StartReport.configurationProblems(gathered)).containsExactly("key = 'v': expected w");
        assertThat(StartReport.configurationProblems(new IllegalStateException("other"))).isEmpty();
    }

    /** A webapp whose start throws, as jwd's does with throwUnavailableOnStartupException on a bad configuration. */
    private static final class RefusingContext extends ContextHandler {
        private final String message;

        RefusingContext(String message) {
            super("/");
            this.message = message;
        }

        @Override
        protected void doStart() throws Exception {
            throw new IllegalStateException(message);
        }
    }
}
