package org.jwd.proxy;

import jakarta.servlet.http.HttpServletRequest;

import io.opentelemetry.api.GlobalOpenTelemetry;

import org.jwd.metrics.DispatcherMetrics;
import org.jwd.routing.RoutingDecision;
import org.jwd.accesslog.AccessLog;
import org.jwd.accesslog.Entry;
import org.jwd.tracing.RequestTrace;
import org.jwd.tracing.Tracing;

/**
 * What the dispatcher's servlet reports of a request on its way (sent to the server, its first byte, its bytes) and
 * at its end: the server's response times go to the metrics, the request's line to the access log, its spans to
 * the traces.
 */
public final class RequestEnds {
    private final AccessLog log;
    private final DispatcherMetrics metrics;
    private final Tracing tracing;

    /** Traces go to OpenTelemetry as the runtime supplies it: its SDK, its Java agent, or nothing. */
    public RequestEnds(AccessLog log, DispatcherMetrics metrics) {
        this(log, metrics, Tracing.of(GlobalOpenTelemetry.get()));
    }

    public RequestEnds(AccessLog log, DispatcherMetrics metrics, Tracing tracing) {
        this.log = log;
        this.metrics = metrics;
        this.tracing = tracing;
    }

    /** The trace of a request that has just arrived ({@link RequestTrace#OFF} while tracing is off). */
    RequestTrace trace(HttpServletRequest clientRequest) {
        return tracing.begin(clientRequest);
    }

    /**
     * The times of one request, in {@link System#nanoTime()}; 0 for what did not happen (yet). The servlet's
     * exchange holds it and reports each step.
     */
    public static final class Timing {
        final long arrivedMillis = System.currentTimeMillis();
        final long arrivedNanos;
        volatile long sentNanos;
        volatile long firstByteNanos;
        /** written by one thread at a time: Jetty hands the answer's content over in order */
        volatile long bytes;
        /** the request body's bytes read so far; one thread at a time, as Jetty hands the chunks over */
        volatile long received;

        /** The request arrived at {@code arrivedNanos} ({@link System#nanoTime()}). */
        public Timing(long arrivedNanos) {
            this.arrivedNanos = arrivedNanos;
        }

        /** The request is sent to its server now (again, when it is retried elsewhere). */
        public void sent() {
            sentNanos = System.nanoTime();
            firstByteNanos = 0;
        }

        /** The server's answer has begun (its status line and headers are here). */
        public void firstByte() {
            firstByteNanos = System.nanoTime();
        }

        /**
         * Whether the server's answer began: its status line and headers were read whole, since it was last sent.
         * Not Jetty's {@code Response.getStatus()}, which is Jetty's own 400 for an answer it could not parse.
         */
        public boolean answerBegun() {
            return firstByteNanos != 0;
        }

        /** {@code length} bytes of the request's body were read from the client. */
        public void received(int length) {
            received += length;
        }

        /** The answer body's bytes sent so far. */
        public long bytes() {
            return bytes;
        }

        /** The request body's bytes read so far. */
        public long received() {
            return received;
        }

        /** {@code length} bytes of the answer's body go to the client. */
        public void content(int length) {
            bytes += length;
        }
    }

    /**
     * The request is answered with {@code status}: a complete answer of its server counts in the server's response
     * times, and every request jwd routed (or refused itself) gets its line.
     *
     * @param modified what the modification handler did, for the reason ({@code rewritten by actions.txt:9}), or
     *                 {@code null}
     * @param answered whether the server's answer came complete
     * @param retries  times it was sent again elsewhere
     */
    public void completed(HttpServletRequest clientRequest, Timing t, RoutingDecision decision, String modified,
                          int status, boolean answered, int retries) {
        long now = System.nanoTime();
        long sent = t.sentNanos;
        long firstByte = t.firstByteNanos;
        if (answered && decision.server() != null && sent != 0 && firstByte != 0) {
            metrics.serverAnswered(decision.server(), firstByte - sent, now - sent, now);
        }
        if (!log.isOn()) {
            return;
        }
        log.log(new Entry(t.arrivedMillis, clientRequest.getRemoteAddr(), clientRequest.getMethod(),
                clientRequest.getRequestURI(), clientRequest.getQueryString(), clientRequest.getProtocol(),
                decision.path(), clientRequest.getServerName(), clientRequest.getLocalPort(),
                clientRequest.getRemoteUser(), clientRequest::getHeader, status, t.bytes, now - t.arrivedNanos,
                decision.group() == null ? null : decision.group().name(),
                decision.server() == null ? null : decision.server().id(),
                reason(decision, modified), decision.identifier(),
                retries, sent != 0 && firstByte != 0 ? firstByte - sent : -1));
    }

    /**
     * The decision's reason, with the server's SAP name where its id is not that name (a discovered server of a
     * host name with dots, the Java server of a dual-stack instance, a {@code server.<id>.name}), and what the
     * modification handler did.
     */
    static String reason(RoutingDecision decision, String modified) {
        String reason = decision.reason();
        if (decision.server() != null && !decision.server().id().equals(decision.server().config().name())) {
            reason = reason + " (SAP name " + decision.server().config().name() + ")";
        }
        return modified == null ? reason : reason + "; " + modified;
    }
}
