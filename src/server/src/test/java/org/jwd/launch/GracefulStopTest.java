package org.jwd.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The stop on a real embedded Jetty server on an ephemeral port of 127.0.0.1, spoken to over raw sockets, so that
 * which connection a request travels on, and when it closes, is the test's: {@code /} answers at once,
 * {@code /hold} when the test releases it.
 */
class GracefulStopTest {
    private final Server server = new Server();
    private final Semaphore released = new Semaphore(0);
    private int port;

    @AfterEach
    void stop() throws Exception {
        released.release(100);
        server.stop();
    }

    private GracefulStop start(long delayMillis, long shutdownIdleTimeout) throws Exception {
        ServerConnector listener = new ServerConnector(server);
        listener.setHost("127.0.0.1");
        server.addConnector(listener);
        server.setStopTimeout(30_000);
        GracefulStop stop = new GracefulStop(delayMillis);
        stop.setShutdownIdleTimeout(shutdownIdleTimeout);
        stop.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                if (Request.getPathInContext(request).equals("/hold")) {
                    released.acquire();
                }
                response.write(true, java.nio.ByteBuffer.wrap("ok".getBytes(StandardCharsets.US_ASCII)),
                        callback);
                return true;
            }
        });
        server.setHandler(stop);
        server.addEventListener(stop);
        server.start();
        port = listener.getLocalPort();
        return stop;
    }

    /** One HTTP/1.1 connection the test keeps: requests one after the other, answers read whole. */
    private final class Connection implements AutoCloseable {
        private final Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);

        Connection() throws IOException {
            socket.setSoTimeout(10_000);
        }

        /** @return the answer's head, lower case, with its status line first */
        String get(String path) throws IOException {
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: jwd\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("closed after " + head);
                }
                head.write(b);
            }
            in.readNBytes(2); // "ok"
            return head.toString(StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT);
        }

        boolean closedByServer() throws IOException {
            return socket.getInputStream().read() < 0;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private boolean refuses() {
        try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    void forTheDelayTheListenerStaysOpenAndEveryAnswerClosesItsConnection() throws Exception {
        GracefulStop stop = start(1500, 50);
        try (Connection kept = new Connection()) {
            assertThat(kept.get("/")).startsWith("http/1.1 200").doesNotContain("connection: close");

            CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> {
                try {
                    server.stop();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(5)).until(stop::isStopping);

            assertThat(kept.get("/")).startsWith("http/1.1 200").contains("connection: close");
            assertThat(kept.closedByServer()).isTrue();
            try (Connection fresh = new Connection()) {
                assertThat(fresh.get("/")).startsWith("http/1.1 200").contains("connection: close");
            }
            assertThat(stopped).isNotDone();
            stopped.get();
            assertThat(refuses()).isTrue();
        }
    }

    /** Jetty's own GracefulHandler answers such a request 503, which a balancer cannot send elsewhere. */
    @Test
    void aRequestOnAnOpenConnectionAfterTheListenerClosedIsServedAndTheStopWaitsForTheRequestsInFlight()
            throws Exception {
        GracefulStop stop = start(0, 10_000);
        try (Connection idle = new Connection(); Connection holding = new Connection()) {
            assertThat(idle.get("/")).startsWith("http/1.1 200");
            CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> {
                try {
                    return holding.get("/hold");
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> stop.inFlight() == 1);
            CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> {
                try {
                    server.stop();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(Duration.ofSeconds(5)).until(this::refuses);

            assertThat(idle.get("/")).startsWith("http/1.1 200").contains("connection: close");
            assertThat(idle.closedByServer()).isTrue();
            idle.close();
            assertThat(stopped).isNotDone();
            released.release();
            assertThat(held.get()).startsWith("http/1.1 200").contains("connection: close");
            holding.close();
            stopped.get(5, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}
