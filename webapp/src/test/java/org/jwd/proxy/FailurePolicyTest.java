package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jwd.proxy.FailurePolicy.HealthReport.ANSWER_BROKEN;
import static org.jwd.proxy.FailurePolicy.HealthReport.NONE;
import static org.jwd.proxy.FailurePolicy.HealthReport.NO_ANSWER;
import static org.jwd.proxy.FailurePolicy.Side.CLIENT;
import static org.jwd.proxy.FailurePolicy.Side.JWD;
import static org.jwd.proxy.FailurePolicy.Side.SERVER;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per failure the servlet handles: the facts in, the verdict out. */
class FailurePolicyTest {
    private static final String SERVER_A = "server a (http://127.0.0.1:8001)";
    private static final String TLS_TEXT = " (its certificate is checked against wdisp/ssl_truststore and, unless"
            + " wdisp/ssl_verify_hostname=false, must name the host of its https_url)";

    /** row: case, failure, side, answer begun, committed status, method, body, retried -> verdict */
    static Stream<Arguments> failures() {
        IOException refused = new IOException("connect", new ConnectException("Connection refused"));
        IOException dropped = new IOException("closed", new EOFException("HttpConnectionOverHTTP@1 ..."));
        IOException tls = new IOException("handshake", new SSLHandshakeException("PKIX path building failed"));
        return Stream.of(
                row("a client's broken chunk", new IOException("bad chunk"), CLIENT, false, 0, "POST", true, false,
                        400, CLIENT, NONE, false, "jwd: the request could not be read: bad chunk"),
                row("a client too slow with its body", new TimeoutException("idle"), CLIENT, false, 0, "PUT", true,
                        false, 408, CLIENT, NONE, false, "jwd: the request could not be read: timed out"),
                row("a body slower than the minimum data rate", new BodyTooSlowException(1024), CLIENT, false, 0,
                        "POST", true, false, 408, CLIENT, NONE, false,
                        "jwd: the request body arrived slower than 1024 bytes/s (jwd.min_request_data_rate)"),
                row("a chunked body past the limit", new BodyTooLargeException(10 * 1024), CLIENT, false, 0, "POST",
                        true, false, 413, CLIENT, NONE, false,
                        "jwd: the request body is larger than 10 KB (icm/HTTP/max_request_size_KB)"),
                row("refused GET", refused, SERVER, false, 0, "GET", false, false,
                        502, SERVER, NO_ANSWER, true, "jwd: " + SERVER_A + " failed: connection refused (Connection refused)"),
                row("refused POST without body: the server never saw it", refused, SERVER, false, 0, "POST", false,
                        false, 502, SERVER, NO_ANSWER, true, "jwd: " + SERVER_A
                                + " failed: connection refused (Connection refused)"),
                row("refused POST with a body: nothing to replay", refused, SERVER, false, 0, "POST", true, false,
                        502, SERVER, NO_ANSWER, false, "jwd: " + SERVER_A
                                + " failed: connection refused (Connection refused)"),
                row("refused again after a retry", refused, SERVER, false, 0, "GET", false, true,
                        502, SERVER, NO_ANSWER, false, "jwd: " + SERVER_A
                                + " failed: connection refused (Connection refused)"),
                row("GET dropped without an answer: elsewhere, avoiding that server", dropped, SERVER, false, 0,
                        "GET", false, false, 502, SERVER, NO_ANSWER, true, "jwd: " + SERVER_A
                                + " failed: it closed the connection before its answer was complete"),
                row("DELETE dropped without an answer", dropped, SERVER, false, 0, "DELETE", false, false,
                        502, SERVER, NO_ANSWER, true, "jwd: " + SERVER_A
                                + " failed: it closed the connection before its answer was complete"),
                row("POST dropped without an answer: it may have acted", dropped, SERVER, false, 0, "POST", false,
                        false, 502, SERVER, NO_ANSWER, false, "jwd: " + SERVER_A
                                + " failed: it closed the connection before its answer was complete"),
                row("GET timed out: the client waited long enough", new TimeoutException("Total timeout"), SERVER,
                        false, 0, "GET", false, false, 504, SERVER, NO_ANSWER, false,
                        "jwd: " + SERVER_A + " did not answer within 30s (jwd.request_timeout)"),
                row("GET over TLS with a refused certificate", tls, SERVER, false, 0, "GET", false, false,
                        502, SERVER, NO_ANSWER, false, "jwd: " + SERVER_A + " failed: TLS handshake failed: "
                                + "PKIX path building failed" + TLS_TEXT),
                row("an answer broken off before anything went out", dropped, SERVER, true, 0, "GET", false, false,
                        502, SERVER, ANSWER_BROKEN, false, "jwd: " + SERVER_A
                                + " failed: it closed the connection before its answer was complete"),
                row("an answer broken off after its head went out", dropped, SERVER, true, 200, "GET", false, false,
                        200, SERVER, ANSWER_BROKEN, false, null),
                row("no failure known: a status of Jetty's own", null, SERVER, false, 0, "POST", false, false,
                        502, SERVER, NO_ANSWER, false, "jwd: " + SERVER_A + " failed: no answer"),
                row("jwd failed while forwarding", new IllegalStateException("bug"), JWD, false, 0, "GET", false,
                        false, 500, JWD, NONE, false, "jwd: the request to " + SERVER_A + " failed with status 500"));
    }

    private static Arguments row(String name, Throwable failure, FailurePolicy.Side side, boolean answerBegun,
                                 int committed, String method, boolean body, boolean retried, int status,
                                 FailurePolicy.Side blame, FailurePolicy.HealthReport health, boolean retry,
                                 String message) {
        return Arguments.of(name, new FailurePolicy.Failure(failure, side, answerBegun, committed, method, body,
                retried, SERVER_A, Duration.ofSeconds(30), 10 * 1024),
                new FailurePolicy.Verdict(status, blame, health, retry, message));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void judgesEachFailureAsTheServletAlwaysHas(String name, FailurePolicy.Failure failure,
                                                FailurePolicy.Verdict expected) {
        assertThat(FailurePolicy.judge(failure)).isEqualTo(expected);
    }
}
