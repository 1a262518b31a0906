package org.jwd.proxy;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServletResponse;

import org.jwd.runtime.Dispatcher;
import org.jwd.limits.LimitsConfig;
import org.jwd.limits.SlowClients;
import org.jwd.proxy.FailurePolicy.Side;
import org.jwd.routing.RoutingDecision;
import org.jwd.topology.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acts on a failed request as {@link FailurePolicy} judges it: the server leaves the request (failed when it is to
 * blame), its health hears of a missing answer, the metrics of a broken one or of a body past its limit, and a
 * server whose TLS fails is named in the log.
 */
final class Failures {
    private static final Logger LOG = LoggerFactory.getLogger(Failures.class);
    /** A server whose TLS fails is named in the log at most this often (each request still gets its 502). */
    private static final long TLS_WARNING_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Dispatcher dispatcher;
    /** server id -> System.nanoTime() of the last warning about its TLS */
    private final Map<String, Long> tlsWarnings = new ConcurrentHashMap<>();

    Failures(Dispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    /**
     * Acts on a failure and routes the request elsewhere when the verdict allows; otherwise ends the exchange.
     *
     * @param failure         how the exchange with the server failed (a failure of the client's body, if one was
     *                        noted, takes its place)
     * @param serverStatus    the status of the server's answer, 0 when none began
     * @param committedStatus the status already sent to the client, 0 while nothing was
     * @param hasBody         whether the request has a body
     * @return the verdict; {@code retry} only when the exchange was routed to another server, to be sent there
     */
    FailurePolicy.Verdict handle(Exchange exchange, Throwable failure, int serverStatus, int committedStatus,
                                 boolean hasBody) {
        Throwable clientFailure = exchange.clientFailure();
        FailurePolicy.Verdict verdict = FailurePolicy.judge(facts(exchange, clientFailure == null ? Side.SERVER
                : Side.CLIENT, clientFailure == null ? failure : clientFailure, serverStatus != 0, committedStatus,
                hasBody));
        exchange.attemptFailed(failure, FailurePolicy.describe(clientFailure == null ? failure : clientFailure));
        exchange.leaveServer(verdict.blame() == Side.SERVER);
        report(exchange, verdict, failure);
        if (verdict.retry() && exchange.rerouted(dispatcher.state())) {
            return verdict;
        }
        exchange.end(verdict.status(), verdict.blame() == Side.SERVER, false);
        return new FailurePolicy.Verdict(verdict.status(), verdict.blame(), verdict.health(), false,
                verdict.message());
    }

    /** Tells the server's health, the metrics and the log what the verdict says they learn. */
    private void report(Exchange exchange, FailurePolicy.Verdict verdict, Throwable failure) {
        Server server = exchange.decision().server();
        switch (verdict.health()) {
            case NO_ANSWER -> dispatcher.health().requestFailed(server, exchange.overHttps(), failure);
            case ANSWER_BROKEN -> dispatcher.metrics().serverAborted(server);
            case NONE -> { }
        }
        countLimit(verdict.status(), exchange.clientFailure());
        if (verdict.blame() == Side.SERVER) {
            exchange.serverFailed(failure);
            warnAboutTls(exchange, failure);
        }
    }

    /**
     * Counts a body refused for a limit, whether it failed while buffered or while it streamed: too large (413,
     * {@code icm/HTTP/max_request_size_KB}) or too slow (408, {@code jwd.min_request_data_rate}).
     */
    void countLimit(int status, Throwable clientFailure) {
        if (status == 413) {
            dispatcher.metrics().limitRejected(LimitsConfig.MAX_REQUEST_SIZE);
        } else if (status == 408 && clientFailure instanceof BodyTooSlowException) {
            dispatcher.metrics().limitRejected(SlowClients.MIN_REQUEST_DATA_RATE);
        }
    }

    /**
     * Answers a failed request with {@code status} and the text of what the exchange noted of its failure; not one
     * that was answered 503 for want of a slot already.
     */
    void answer(Exchange exchange, HttpServletResponse proxyResponse, int status) {
        if (exchange.isRefused()) {
            return;
        }
        Throwable failure = status < 500 ? exchange.clientFailure() : exchange.serverFailure();
        String message = FailurePolicy.message(status, facts(exchange, status < 500 ? Side.CLIENT : Side.SERVER,
                failure, false, 0, false));
        // A body too large or too slow stays unread: the connection cannot carry another request.
        Answers.sendAndComplete(exchange.clientRequest(), proxyResponse, status, message,
                status == 413 || status == 408, Answers.detailed(exchange.snapshot()));
    }

    private FailurePolicy.Failure facts(Exchange exchange, Side side, Throwable failure, boolean answerBegun,
                                      int committedStatus, boolean hasBody) {
        return new FailurePolicy.Failure(failure, side, answerBegun, committedStatus,
                exchange.clientRequest().getMethod(), hasBody, exchange.retried(),
                serverName(exchange), exchange.snapshot().config().forwarding().requestTimeout(),
                exchange.snapshot().limits().maxRequestBytes());
    }

    /** The server in words for answers and logs: {@code server a (http://host:port)}. */
    private static String serverName(Exchange exchange) {
        RoutingDecision decision = exchange.decision();
        return decision == null || decision.server() == null ? "the server"
                : "server " + decision.server().id() + " (" + origin(exchange) + ")";
    }

    /** Where the request went: the server's https_url or url, as the decision's target says. */
    private static String origin(Exchange exchange) {
        try {
            URI target = URI.create(exchange.decision().target());
            return target.getScheme() + "://" + target.getRawAuthority();
        } catch (IllegalArgumentException | NullPointerException e) {
            return String.valueOf(exchange.decision().server().config().url());
        }
    }

    /** Names the server whose TLS failed, once a minute at most: a bad certificate fails every request. */
    private void warnAboutTls(Exchange exchange, Throwable failure) {
        if (!FailurePolicy.isTlsFailure(failure)) {
            return;
        }
        long now = System.nanoTime();
        String id = exchange.decision().server().id();
        Long last = tlsWarnings.get(id);
        if ((last == null || now - last >= TLS_WARNING_INTERVAL_NANOS)
                && (last == null ? tlsWarnings.putIfAbsent(id, now) == null : tlsWarnings.replace(id, last, now))) {
            LOG.warn("jwd: TLS to server {} ({}) failed, its requests get 502: {}", id, origin(exchange),
                    FailurePolicy.describe(failure));
        }
    }
}
