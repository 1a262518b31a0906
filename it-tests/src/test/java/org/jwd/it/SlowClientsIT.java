package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clients that send their request bodies a few bytes at a time, against the distribution: they hold neither the
 * servers' connections (the body is read before its request takes one) nor, with the minimum data rate, their own
 * for long; a normal client is served meanwhile, and a large upload still streams.
 */
class SlowClientsIT {
    /** Trickling connections: as many as a test JVM and two jwd JVMs hold comfortably on a 2-CPU machine. */
    private static final int TRICKLERS = 300;
    /** Few server connections, so that on a dispatcher without the body buffer the tricklers would take them all. */
    private static final String FEW_CONNECTIONS = "jwd.connections_per_server=8\njwd.request_timeout=20s\n";

    private static DemoBackend a;
    private static DemoBackend b;
    /** without a minimum data rate: only the body buffer defends */
    private static JwdProcess bufferOnly;
    /** with the defaults: the buffer and a minimum rate of 1KB/s */
    private static JwdProcess defaults;

    private final List<Socket> sockets = new ArrayList<>();
    private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();

    @BeforeAll
    static void start() {
        a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
        String servers = "server.a.url=" + a.url() + "\nserver.a.type=j2ee\nserver.b.url=" + b.url()
                + "\nserver.b.type=j2ee\n" + FEW_CONNECTIONS;
        bufferOnly = JwdProcess.start(servers + "jwd.min_request_data_rate=0\n");
        defaults = JwdProcess.start(servers);
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {bufferOnly, defaults, a, b}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // the others are stopped all the same
            }
        }
    }

    @AfterEach
    void closeSockets() throws IOException {
        ticks.shutdownNow();
        for (Socket s : sockets) {
            s.close();
        }
    }

    @Test
    void aNormalClientIsServedWhileHundredsOfBodiesTrickleAndNoneOfThemReachesAServer() throws Exception {
        long fdsBefore = openFiles(bufferOnly);
        List<OutputStream> bodies = new ArrayList<>();
        for (int i = 0; i < TRICKLERS; i++) {
            bodies.add(beginPost(bufferOnly, "/irj/trickle", 8192, 16));
        }
        // a byte a second for each: they stay alive past the listener's idle timeout, never complete
        ticks.scheduleAtFixedRate(() -> bodies.forEach(out -> write(out, new byte[] {'x'})), 1, 1, TimeUnit.SECONDS);
        // every trickler's connection is accepted by jwd
        await().atMost(Duration.ofSeconds(30)).until(() -> openFiles(bufferOnly) >= fdsBefore + TRICKLERS);

        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (int i = 0; i < 100; i++) {
            HttpResponse<String> get = client.send(HttpRequest.newBuilder(bufferOnly.uri("/irj/echo?i=" + i))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(get.statusCode()).as("GET %d: %s", i, get.body()).isEqualTo(200);
            HttpResponse<String> post = client.send(HttpRequest.newBuilder(bufferOnly.uri("/irj/echo?post=" + i))
                    .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString("x".repeat(2000)))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).as("POST %d: %s", i, post.body()).isEqualTo(200);
            assertThat(post.body()).contains("\"bodyBytes\":2000");
        }

        assertThat(a.requestCount("/irj/trickle") + b.requestCount("/irj/trickle")).isZero();
        assertThat(sockets).noneMatch(Socket::isClosed);
    }

    @Test
    void aBodySlowerThanTheMinimumDataRateGets408AndNeverReachesAServer() throws Exception {
        OutputStream body = beginPost(defaults, "/irj/slow", 8192, 10);
        // 10 bytes every half second: 20 bytes/s against the 1KB/s default
        ticks.scheduleAtFixedRate(() -> write(body, "0123456789".getBytes(StandardCharsets.US_ASCII)), 500, 500,
                TimeUnit.MILLISECONDS);

        String status = statusLine(sockets.get(0));

        assertThat(status).startsWith("HTTP/1.1 408");
        assertThat(a.requestCount("/irj/slow") + b.requestCount("/irj/slow")).isZero();
    }

    @Test
    void aLargeUploadStreamsToItsServerBeforeItsBodyHasArrived() throws Exception {
        int size = 1024 * 1024;
        long before = a.requestCount("/irj/upload") + b.requestCount("/irj/upload");
        OutputStream body = beginPost(defaults, "/irj/upload", size, 256 * 1024);

        // the server has the request while three quarters of its body are still with the client
        await().atMost(Duration.ofSeconds(10))
                .until(() -> a.requestCount("/irj/upload") + b.requestCount("/irj/upload") > before);
        body.write(new byte[size - 256 * 1024]);
        body.flush();

        String status = statusLine(sockets.get(0));
        assertThat(status).startsWith("HTTP/1.1 200");
    }

    /** Opens a connection, sends a POST's head with Content-Length {@code length}, then {@code first} bytes. */
    private OutputStream beginPost(JwdProcess jwd, String path, int length, int first) throws IOException {
        Socket socket = new Socket("127.0.0.1", jwd.port());
        socket.setSoTimeout(30_000);
        sockets.add(socket);
        OutputStream out = socket.getOutputStream();
        out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(new byte[first]);
        out.flush();
        return out;
    }

    private static void write(OutputStream out, byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException closed) {
            // jwd closed it (answered 408): nothing more to send
        }
    }

    private static String statusLine(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != -1 && c != '\n'; ) {
            line.write(c);
        }
        return line.toString(StandardCharsets.ISO_8859_1).strip();
    }

    /** jwd's open file descriptors, its accepted connections among them (Linux). */
    private static long openFiles(JwdProcess jwd) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(jwd.jettyPid()), "fd"))) {
            return fds.count();
        }
    }
}
