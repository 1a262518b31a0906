package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.junit.jupiter.api.Test;

/**
 * What Jetty's HTTP client makes of a server whose status line is not HTTP (a raw socket), and what jwd must judge
 * it: no answer began. Jetty gives the response it could not parse its own status 400 without ever delivering its
 * headers, so the servlet reads an answer as begun only once its headers were given
 * ({@code RequestEnds.Timing.answerBegun()}), never from Jetty's {@code Response.getStatus()} alone: read from there,
 * the failure was an answer broken off (counted as an abort, never a failed request to the server's health, never
 * sent to another server).
 */
class MalformedAnswerTest {
    private static final String SERVER = "server x (http://127.0.0.1)";

    @Test
    void aMalformedStatusLineBeginsNoAnswerAndIsAFailedRequestSentOnceMoreElsewhere() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> answerMalformed(server));
            answering.start();
            HttpClient client = new HttpClient();
            client.start();
            try {
                AtomicBoolean headers = new AtomicBoolean();
                CompletableFuture<Result> done = new CompletableFuture<>();
                client.newRequest("127.0.0.1", server.getLocalPort()).path("/irj/x")
                        .onResponseHeaders(response -> headers.set(true)).send(done::complete);
                Result result = done.get(20, TimeUnit.SECONDS);

                assertThat(result.isFailed()).isTrue();
                assertThat(result.getResponse().getStatus()).as("Jetty's own status, not the server's").isEqualTo(400);
                assertThat(headers).as("the servlet's onServerResponseHeaders never runs").isFalse();
                FailurePolicy.Verdict verdict = FailurePolicy.judge(new FailurePolicy.Failure(result.getFailure(),
                        FailurePolicy.Side.SERVER, false, 0, "GET", false, false, SERVER, Duration.ofSeconds(60), 0));
                assertThat(verdict).isEqualTo(new FailurePolicy.Verdict(502, FailurePolicy.Side.SERVER,
                        FailurePolicy.HealthReport.NO_ANSWER, true, "jwd: " + SERVER + " failed: 400: Bad status"));
            } finally {
                client.stop();
                answering.join(TimeUnit.SECONDS.toMillis(20));
            }
        }
    }

    /** Reads a request's head and answers it with a status line that is not HTTP. */
    private static void answerMalformed(ServerSocket server) {
        try (Socket connection = server.accept()) {
            InputStream in = connection.getInputStream();
            int matched = 0;
            for (int b; matched < 4 && (b = in.read()) != -1; ) {
                matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
            }
            OutputStream out = connection.getOutputStream();
            out.write("HTTP/1.1 two hundred OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } catch (IOException e) {
            // the client gave up: the test's assertions say what went wrong
        }
    }
}
