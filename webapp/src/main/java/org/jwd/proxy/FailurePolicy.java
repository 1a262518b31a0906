package org.jwd.proxy;

import java.io.EOFException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SSLException;

import org.jwd.config.Durations;
import org.jwd.health.HealthChecker;
import org.jwd.tls.TlsConfig;

/**
 * What a failed request comes to: the status its client gets, who is to blame, what the server's health learns,
 * whether it is sent once more elsewhere, and the answer's text. Plain Java: the servlet gathers the facts, this
 * judges them.
 *
 * <pre>
 * client's body broke             -> 400 (408 timed out or too slow, 413 too large), blame client, no health report
 * server refused the connection   -> 502, blame server, no answer; retried unless a body or a retry forbids it
 * idempotent request, no answer   -> 502, retried elsewhere (not after a timeout: 504, nor a TLS failure)
 * answer begun, then broken       -> 502 (or the status already sent), the answer's break reported
 * jwd itself failed               -> 500, blame jwd
 * </pre>
 */
final class FailurePolicy {
    private FailurePolicy() {
    }

    /** Where the failure arose. */
    enum Side { CLIENT, SERVER, JWD }

    /** What the server's health and the metrics learn. */
    enum HealthReport {
        /** nothing: the server did nothing wrong */
        NONE,
        /** it gave no answer: a failed request ({@link HealthChecker#requestFailed}) */
        NO_ANSWER,
        /** it broke off an answer it had begun (the {@code server_aborted} metric) */
        ANSWER_BROKEN
    }

    /**
     * The facts of one failure.
     *
     * @param failure         what failed: the client's body, the exchange with the server, or jwd
     * @param side            where it arose
     * @param answerBegun     whether the server had sent its status line
     * @param committedStatus the status already sent to the client, 0 while nothing was
     * @param method          the request's method
     * @param hasBody         whether the request has a body (it cannot be replayed)
     * @param retried         whether the request was sent once more already
     * @param server          the server in words for the answer: {@code server a (http://host:port)}
     * @param requestTimeout  {@code jwd.request_timeout} the request was sent with
     * @param maxRequestBytes {@code icm/HTTP/max_request_size_KB} in bytes
     */
    record Failure(Throwable failure, Side side, boolean answerBegun, int committedStatus, String method,
                   boolean hasBody, boolean retried, String server, Duration requestTimeout, long maxRequestBytes) {
    }

    /**
     * The judgement: {@code retry} means send it elsewhere and answer nothing yet; {@code message} is the answer's
     * text, {@code null} when part of an answer went out already.
     */
    record Verdict(int status, Side blame, HealthReport health, boolean retry, String message) {
    }

    static Verdict judge(Failure f) {
        if (f.side() == Side.CLIENT) {
            int status = clientStatus(f.failure());
            return new Verdict(status, Side.CLIENT, HealthReport.NONE, false, message(status, f));
        }
        if (f.side() == Side.JWD) {
            return new Verdict(500, Side.JWD, HealthReport.NONE, false, message(500, f));
        }
        Throwable failure = f.failure();
        int status = f.committedStatus() != 0 ? f.committedStatus() : failure instanceof TimeoutException ? 504 : 502;
        boolean harmless = HealthChecker.isRefused(failure) || (!f.answerBegun() && isIdempotent(f.method())
                && !(failure instanceof TimeoutException) && !isTlsFailure(failure));
        boolean retry = harmless && f.committedStatus() == 0 && !f.hasBody() && !f.retried();
        // Once part of the answer went out, no text can follow: the client's connection is aborted instead.
        return new Verdict(status, Side.SERVER, f.answerBegun() ? HealthReport.ANSWER_BROKEN : HealthReport.NO_ANSWER,
                retry, f.committedStatus() != 0 ? null : message(status, f));
    }

    /**
     * A client that sent a broken body made a bad request; one too slow timed out (no byte within the idle timeout,
     * or slower than jwd.min_request_data_rate); one too large is refused.
     */
    static int clientStatus(Throwable failure) {
        // The failure's classes come from the server's class loader, not the webapp's: match on nothing but the
        // timeout and jwd's own exceptions.
        return failure instanceof TimeoutException || failure instanceof BodyTooSlowException ? 408
                : failure instanceof BodyTooLargeException ? 413 : 400;
    }

    /** The text of an error answer with {@code status}, for the failure described by {@code f}. */
    static String message(int status, Failure f) {
        return switch (status) {
            case 504 -> "jwd: " + f.server() + " did not answer within " + Durations.format(f.requestTimeout())
                    + " (jwd.request_timeout)";
            case 502 -> "jwd: " + f.server() + " failed: " + describe(f.failure());
            case 413 -> BodyTooLargeException.message(f.maxRequestBytes());
            case 408 -> f.failure() instanceof BodyTooSlowException ? f.failure().getMessage()
                    : "jwd: the request could not be read: " + describe(f.failure());
            default -> status < 500 ? "jwd: the request could not be read: " + describe(f.failure())
                    : "jwd: the request to " + f.server() + " failed with status " + status;
        };
    }

    /** RFC 9110's idempotent methods: sending one twice has the effect of sending it once. */
    static boolean isIdempotent(String method) {
        return switch (method) {
            case "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE" -> true;
            default -> false;
        };
    }

    /** The failure in words for an answer or a log line: its root cause, without Jetty's connection state. */
    static String describe(Throwable failure) {
        if (failure == null) {
            return "no answer";
        }
        if (failure instanceof TimeoutException) {
            return "timed out";
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        if (isTlsFailure(failure)) {
            // Never retried over plain HTTP: a certificate jwd does not accept is an answer in itself.
            return "TLS handshake failed: " + text + " (its certificate is checked against "
                    + TlsConfig.TRUSTSTORE + " and, unless " + TlsConfig.VERIFY_HOSTNAME + "=false, must name the"
                    + " host of its https_url)";
        }
        if (root instanceof EOFException) {
            // Jetty's message would be its connection's whole state.
            return "it closed the connection before its answer was complete";
        }
        return root instanceof ConnectException ? "connection refused (" + text + ")" : text;
    }

    static boolean isTlsFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException) {
                return true;
            }
        }
        return false;
    }
}
