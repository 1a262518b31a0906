package org.jwd.tracing;

import io.opentelemetry.api.trace.SpanContext;

import org.slf4j.MDC;

/**
 * A request's trace in jwd's log: its trace id and its server span's id in SLF4J's MDC as {@value #TRACE_ID} and
 * {@value #SPAN_ID} (the names OpenTelemetry gives them in logs), which the JSON log writes in each line's
 * {@code mdc}, so that a log pipeline leads from a line to its trace. They are set on the thread that serves the
 * request while it routes and forwards it, and around the lines written at its end, on whichever thread ends it.
 */
public final class TraceLogging {
    public static final String TRACE_ID = "trace_id";
    public static final String SPAN_ID = "span_id";

    private TraceLogging() {
    }

    /** Puts {@code trace}'s ids into this thread's MDC; nothing while tracing is off. */
    public static void enter(RequestTrace trace) {
        SpanContext context = trace.spanContext();
        if (context.isValid()) {
            MDC.put(TRACE_ID, context.getTraceId());
            MDC.put(SPAN_ID, context.getSpanId());
        }
    }

    /** Takes them out of this thread's MDC again. */
    public static void leave() {
        MDC.remove(TRACE_ID);
        MDC.remove(SPAN_ID);
    }
}
