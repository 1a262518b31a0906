package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The idle client against a real Jetty server on 127.0.0.1: what it holds, what it counts as failed, and why. */
class IdleConnectionsTest {
    private static final byte[] BODY = "x".repeat(1000).getBytes(StandardCharsets.US_ASCII);
    /** An interim answer, a chunked one with a chunk extension and a trailer, and the start of a next one. */
    private static final String ANSWER = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked"
            + "\r\n\r\n5;name=value\r\nhello\r\n0\r\nX-Trailer: 1\r\n\r\nHTTP/1.1 200 OK";

    private final Set<String> cookies = ConcurrentHashMap.newKeySet();
    private Server server;
    private ServerConnector connector;
    private IdleConnections client;
    private CompletableFuture<IdleCounts> run;

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.stop();
            run.get(10, TimeUnit.SECONDS);
        }
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void holdsEveryAnsweredConnectionOpenAndIdleUntilStopped() throws Exception {
        startServer(Duration.ofMinutes(5));
        IdleCounts ready = openAndSettle("/fixed", 50, false);

        assertThat(ready).isEqualTo(new IdleCounts(50, 50, 50, 0, 0, 0, 0, 0));
        assertThat(connector.getConnectedEndPoints()).hasSize(50);
        client.stop();
        assertThat(run.get(10, TimeUnit.SECONDS)).isEqualTo(new IdleCounts(50, 50, 50, 0, 0, 0, 0, 0));
        client = null;
        await().atMost(Duration.ofSeconds(10)).until(() -> connector.getConnectedEndPoints().isEmpty());
    }

    @Test
    void readsChunkedAnswersToTheirEnd() throws Exception {
        startServer(Duration.ofMinutes(5));
        IdleCounts ready = openAndSettle("/chunked", 20, false);

        assertThat(ready.open()).isEqualTo(20);
        assertThat(ready.failed()).isZero();
    }

    @Test
    void countsAnswersOtherThan2xxAsFailedAndClosesThem() throws Exception {
        startServer(Duration.ofMinutes(5));
        IdleCounts ready = openAndSettle("/missing", 10, false);

        assertThat(ready).isEqualTo(new IdleCounts(10, 10, 0, 10, 0, 0, 0, 0));
        assertThat(client.firstError()).contains("answered 404");
        await().atMost(Duration.ofSeconds(10)).until(() -> connector.getConnectedEndPoints().isEmpty());
    }

    @Test
    void countsAnAnswerWithConnectionCloseAsClosedByTheServer() throws Exception {
        startServer(Duration.ofMinutes(5));
        IdleCounts ready = openAndSettle("/close", 10, false);

        assertThat(ready).isEqualTo(new IdleCounts(10, 10, 0, 0, 10, 0, 0, 0));
    }

    @Test
    void countsConnectionsTheServerClosesWhileIdle() throws Exception {
        startServer(Duration.ofMillis(500));
        openAndSettle("/fixed", 10, false);

        await().atMost(Duration.ofSeconds(10)).until(() -> client.counts().closedIdle() == 10);
        client.stop();
        assertThat(run.get(10, TimeUnit.SECONDS)).isEqualTo(new IdleCounts(10, 10, 0, 0, 0, 0, 0, 10));
        client = null;
    }

    @Test
    void countsConnectionsNoServerAccepts() throws Exception {
        int port;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = gone.getLocalPort();
        }
        IdleCounts ready = openAndSettle(port, "/fixed", 5, false, Duration.ofSeconds(30));

        assertThat(ready).isEqualTo(new IdleCounts(5, 5, 0, 0, 0, 5, 0, 0));
        assertThat(client.firstError()).containsIgnoringCase("refused");
    }

    @Test
    void countsConnectionsWithoutAnAnswerWithinTheTimeoutAsUnanswered() throws Exception {
        // a listener that never reads: the kernel accepts the connections, nobody answers
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            IdleCounts ready = openAndSettle(silent.getLocalPort(), "/fixed", 5, false, Duration.ofMillis(300));

            assertThat(ready).isEqualTo(new IdleCounts(5, 5, 0, 0, 0, 0, 5, 0));
            assertThat(client.firstError()).contains("no complete answer within 300 ms");
        }
    }

    @Test
    void sendsASessionIdOfItsOwnOnEachConnectionWhenSticky() throws Exception {
        startServer(Duration.ofMinutes(5));
        openAndSettle("/fixed", 30, true);

        assertThat(cookies).hasSize(30).allMatch(c -> c.matches("JSESSIONID=IDLE\\d{12}"))
                .contains("JSESSIONID=IDLE000000000001", "JSESSIONID=IDLE000000000030");
    }

    @Test
    void readsAnAnswerThatArrivesOneByteAtATime() {
        ResponseParser parser = new ResponseParser();
        byte[] answer = ANSWER.getBytes(StandardCharsets.US_ASCII);
        int fed = 0;
        boolean done = false;
        while (!done) {
            done = parser.feed(ByteBuffer.wrap(answer, fed++, 1));
        }

        assertThat(parser.status()).isEqualTo(200);
        assertThat(parser.closes()).isFalse();
        assertThat(fed).isEqualTo(answer.length - "HTTP/1.1 200 OK".length());
    }

    @Test
    void leavesWhatFollowsAnAnswerUnread() {
        ResponseParser parser = new ResponseParser();
        ByteBuffer in = ByteBuffer.wrap(ANSWER.getBytes(StandardCharsets.US_ASCII));

        assertThat(parser.feed(in)).isTrue();
        assertThat(StandardCharsets.US_ASCII.decode(in).toString()).isEqualTo("HTTP/1.1 200 OK");
    }

    @Test
    void refusesAnAnswerThatIsNotHttp() {
        ResponseParser parser = new ResponseParser();

        assertThatThrownBy(() -> parser.feed(ByteBuffer.wrap("SSH-2.0-OpenSSH\r\n".getBytes(StandardCharsets.US_ASCII))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'SSH-2.0-OpenSSH'");
    }

    @Test
    void writesAndReadsItsCountsAsOneLine() {
        IdleCounts counts = new IdleCounts(10000, 10000, 9985, 1, 2, 3, 4, 5);

        assertThat(counts.toString()).isEqualTo("connections=10000 attempted=10000 open=9985 status=1 closed=2"
                + " refused=3 unanswered=4 closed_idle=5");
        assertThat(IdleCounts.parse(counts + "\n")).isEqualTo(counts);
        assertThat(counts.settled()).isTrue();
        assertThatThrownBy(() -> IdleCounts.parse("connections=1 open=1"))
                .hasMessageContaining("not the status of IdleConnections");
    }

    @Test
    void refusesACommandLineWithoutItsPortOrWithABareDuration() {
        assertThatThrownBy(() -> IdleConnectionsMain.Options.parse(new String[] {"--url", "http://127.0.0.1/x",
            "--connections", "5"})).hasMessageContaining("--url http://HOST:PORT/PATH");
        assertThatThrownBy(() -> IdleConnectionsMain.Options.parse(new String[] {"--url", "http://127.0.0.1:1/x",
            "--connections", "5", "--answer-timeout", "30"})).hasMessageContaining("--answer-timeout '30'");
        assertThat(IdleConnectionsMain.Options.parse(new String[] {"--url", "http://127.0.0.1:1/irj/portal",
            "--connections", "5", "--sticky"}).settings())
                .isEqualTo(new IdleConnections.Settings("127.0.0.1", 1, "/irj/portal", 5, 1000, true,
                        Duration.ofSeconds(30)));
    }

    private IdleCounts openAndSettle(String path, int connections, boolean sticky) {
        return openAndSettle(connector.getLocalPort(), path, connections, sticky, Duration.ofSeconds(30));
    }

    private IdleCounts openAndSettle(int port, String path, int connections, boolean sticky, Duration timeout) {
        client = new IdleConnections(new IdleConnections.Settings("127.0.0.1", port, path, connections, 1000, sticky,
                timeout));
        run = CompletableFuture.supplyAsync(() -> {
            try {
                return client.run();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> client.counts().settled());
        return client.counts();
    }

    private void startServer(Duration idleTimeout) throws Exception {
        server = new Server();
        connector = new ServerConnector(server, 1, 1);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        connector.setIdleTimeout(idleTimeout.toMillis());
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                String cookie = request.getHeaders().get(HttpHeader.COOKIE);
                if (cookie != null) {
                    cookies.add(cookie);
                }
                answer(Request.getPathInContext(request), response, callback);
                return true;
            }
        });
        server.start();
    }

    private static void answer(String path, Response response, Callback callback) {
        switch (path) {
            case "/chunked" -> // two writes without a length: Jetty sends chunks
                response.write(false, ByteBuffer.wrap(BODY), Callback.from(
                        () -> response.write(true, ByteBuffer.wrap(BODY), callback), callback::failed));
            case "/missing" -> {
                response.setStatus(404);
                response.write(true, ByteBuffer.wrap(BODY), callback);
            }
            case "/close" -> {
                response.getHeaders().put(HttpHeader.CONNECTION, "close");
                response.write(true, ByteBuffer.wrap(BODY), callback);
            }
            default -> {
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, BODY.length);
                response.write(true, ByteBuffer.wrap(BODY), callback);
            }
        }
    }
}
