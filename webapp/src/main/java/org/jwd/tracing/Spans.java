package org.jwd.tracing;

import java.util.Collections;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.http.HttpServletRequest;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.opentelemetry.semconv.ErrorAttributes;
import io.opentelemetry.semconv.HttpAttributes;

import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpFields;
import org.jwd.accesslog.SapPassport;
import org.jwd.modification.Modification;
import org.jwd.routing.RoutingDecision;
import org.jwd.systems.SystemEntry;
import org.jwd.topology.Server;

/**
 * The spans of one request while tracing is on: its server span, a child of the context the client sent, and the
 * client span of the forward in progress, a child of the server span. Jetty reports the steps of a request one after
 * another, from whichever thread: the client span in progress is handed over atomically, so that each ends once.
 * None is made current on a thread: the context travels with the request, not the thread.
 */
final class Spans implements RequestTrace {
    private static final TextMapGetter<HttpServletRequest> CLIENT_HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServletRequest clientRequest) {
            return Collections.list(clientRequest.getHeaderNames());
        }

        @Override
        public String get(HttpServletRequest clientRequest, String name) {
            return clientRequest == null ? null : clientRequest.getHeader(name);
        }
    };
    /** Replaces what the client sent under the same name (copied with its other headers). */
    private static final TextMapSetter<HttpFields.Mutable> SERVER_HEADERS =
            (headers, name, value) -> headers.put(name, value);

    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final Span span;
    /** the client's context with the server span in it: the parent of every client span */
    private final Context context;
    /** the client span of the forward in progress, or {@code null} */
    private final AtomicReference<Span> forward = new AtomicReference<>();
    /** the forwards begun so far */
    private volatile int forwards;
    /** the last forward's failure in words, the cause of the next */
    private volatile String failure;

    private Spans(Tracer tracer, TextMapPropagator propagator, Span span, Context context) {
        this.tracer = tracer;
        this.propagator = propagator;
        this.span = span;
        this.context = context;
    }

    static Spans begin(Tracer tracer, TextMapPropagator propagator, HttpServletRequest clientRequest) {
        Context parent = propagator.extract(Context.root(), clientRequest, CLIENT_HEADERS);
        SpanBuilder builder = tracer.spanBuilder(HttpConventions.spanName(clientRequest.getMethod()))
                .setParent(parent).setSpanKind(SpanKind.SERVER);
        HttpConventions.serverRequest(builder, clientRequest);
        Span span = builder.startSpan();
        if (span.isRecording()) {
            HttpConventions.serverRequestDetails(span, clientRequest);
            String transaction = SapPassport.transactionId(clientRequest.getHeader(SapPassport.HEADER));
            if (transaction != null) {
                span.setAttribute(JwdAttributes.PASSPORT_TRANSACTION, transaction);
            }
        }
        return new Spans(tracer, propagator, span, parent.with(span));
    }

    @Override
    public void forwarding(Request proxyRequest, Server server) {
        int resent = forwards++;
        SpanBuilder builder = tracer.spanBuilder(HttpConventions.spanName(proxyRequest.getMethod()))
                .setParent(context).setSpanKind(SpanKind.CLIENT);
        HttpConventions.clientRequest(builder, proxyRequest);
        if (resent > 0) {
            builder.setAttribute(HttpAttributes.HTTP_REQUEST_RESEND_COUNT, resent);
        }
        Span client = builder.startSpan();
        if (client.isRecording()) {
            HttpConventions.clientRequestDetails(client, proxyRequest);
            JwdAttributes.server(client, server);
            if (resent > 0 && failure != null) {
                client.setAttribute(JwdAttributes.RETRY_CAUSE, failure);
            }
        }
        end(forward.getAndSet(client));
        Context sent = context.with(client);
        proxyRequest.headers(headers -> propagator.inject(sent, headers, SERVER_HEADERS));
    }

    @Override
    public void answerBegins(int status) {
        Span client = forward.get();
        if (client != null && client.isRecording()) {
            client.setAttribute(HttpAttributes.HTTP_RESPONSE_STATUS_CODE, status);
            if (status >= 400) {
                client.setAttribute(ErrorAttributes.ERROR_TYPE, Integer.toString(status));
                client.setStatus(StatusCode.ERROR);
            }
        }
    }

    @Override
    public void failed(Throwable failure, String description) {
        this.failure = description;
        Span client = forward.get();
        if (client != null && client.isRecording()) {
            client.setAttribute(ErrorAttributes.ERROR_TYPE, rootCause(failure).getClass().getName());
            client.setStatus(StatusCode.ERROR, description);
        }
    }

    @Override
    public void leftServer() {
        end(forward.getAndSet(null));
    }

    @Override
    public void ended(int status, SystemEntry system, RoutingDecision decision, Modification modification) {
        leftServer();
        if (span.isRecording()) {
            span.setAttribute(HttpAttributes.HTTP_RESPONSE_STATUS_CODE, status);
            if (status >= 500) {
                span.setAttribute(ErrorAttributes.ERROR_TYPE, Integer.toString(status));
                span.setStatus(StatusCode.ERROR);
            }
            JwdAttributes.decision(span, system, decision, modification);
            if (forwards > 1 && failure != null) {
                span.setAttribute(JwdAttributes.RETRY_CAUSE, failure);
            }
        }
        span.end();
    }

    private static void end(Span client) {
        if (client != null) {
            client.end();
        }
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    @Override
    public String toString() {
        return "trace " + span.getSpanContext().getTraceId() + " span " + span.getSpanContext().getSpanId();
    }
}
