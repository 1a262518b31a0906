package org.jwd.tracing;

import jakarta.servlet.http.HttpServletRequest;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.TextMapPropagator;

import org.jwd.config.Version;

/**
 * OpenTelemetry's traces of the requests jwd serves: per request a server span, continued from the client's
 * {@code traceparent}, that carries the routing decision ({@link JwdAttributes}); per forward to a server a client
 * span, whose context the server gets as its {@code traceparent} (a retry elsewhere is a span of its own). The rest
 * follows OpenTelemetry's semantic conventions for HTTP.
 *
 * <p>Off unless the runtime supplies OpenTelemetry, as OpenTelemetry advises for code in a container: the
 * distribution's SDK (its {@code jwd-otel} module, which the {@code OTEL_*} settings turn on) or OpenTelemetry's Java
 * agent, either of which makes {@code GlobalOpenTelemetry} a real one. Off, {@link #begin} hands every request the
 * same trace that does nothing: no span, nothing allocated.
 */
public final class Tracing {
    /** Tracing off: every request's trace is {@link RequestTrace#OFF}. */
    public static final Tracing OFF = new Tracing(null, null);
    /** The instrumentation scope of jwd's spans. */
    static final String SCOPE = "org.jwd";

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    private Tracing(Tracer tracer, TextMapPropagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    /** Tracing with {@code openTelemetry}'s tracer and propagators; {@link #OFF} when it has no tracer (no SDK). */
    public static Tracing of(OpenTelemetry openTelemetry) {
        TracerProvider provider = openTelemetry.getTracerProvider();
        if (provider == TracerProvider.noop()) {
            return OFF;
        }
        return new Tracing(provider.tracerBuilder(SCOPE).setInstrumentationVersion(Version.CURRENT.version()).build(),
                openTelemetry.getPropagators().getTextMapPropagator());
    }

    public boolean isOn() {
        return tracer != null;
    }

    /** The trace of a request that has just arrived: its server span begins. */
    public RequestTrace begin(HttpServletRequest clientRequest) {
        return tracer == null ? RequestTrace.OFF : Spans.begin(tracer, propagator, clientRequest);
    }

    @Override
    public String toString() {
        return tracer == null ? "tracing off" : "tracing with " + propagator;
    }
}
