package org.jwd.it;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A trace receiver as a collector is one: OTLP over HTTP ({@code POST /v1/traces}, protobuf, gzip or not) on
 * 127.0.0.1 and an ephemeral port, each export decoded with OpenTelemetry's own message types and kept. Other
 * signals ({@code /v1/metrics}, {@code /v1/logs}) are answered and counted, not kept.
 */
final class OtlpReceiver implements AutoCloseable {
    /**
     * A span as it arrived: ids in hex (the parent's empty for a root), its attributes' values as Java values (String,
     * Long, Double, Boolean, a List of them), the name of the scope that made it and its resource's attributes.
     */
    record ReceivedSpan(String traceId, String spanId, String parentSpanId, String name, Span.SpanKind kind,
                        Map<String, Object> attributes, String scope, Map<String, Object> resource,
                        String status, String statusMessage) {
        Object attribute(String key) {
            return attributes.get(key);
        }
    }

    private final Server server = new Server();
    private final List<ReceivedSpan> spans = new ArrayList<>();
    private final List<String> otherExports = new ArrayList<>();

    private OtlpReceiver() throws Exception {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(new Receiver(), "/*");
        server.setHandler(context);
        server.start();
    }

    static OtlpReceiver start() {
        try {
            return new OtlpReceiver();
        } catch (Exception e) {
            throw new IllegalStateException("the OTLP receiver did not start", e);
        }
    }

    /** {@code http://127.0.0.1:<port>}: OTEL_EXPORTER_OTLP_ENDPOINT. */
    String endpoint() {
        return "http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    List<ReceivedSpan> spans() {
        synchronized (spans) {
            return List.copyOf(spans);
        }
    }

    /** The spans of one trace received so far, in the order they arrived. */
    List<ReceivedSpan> trace(String traceId) {
        return spans().stream().filter(s -> s.traceId().equals(traceId)).toList();
    }

    /** Waits until {@code count} spans of the trace have arrived (and half a second more for any further one). */
    List<ReceivedSpan> awaitTrace(String traceId, int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> trace(traceId).size() >= count);
        await().pollDelay(Duration.ofMillis(500)).until(() -> true);
        return trace(traceId);
    }

    /** The paths of exports that were no traces. */
    List<String> otherExports() {
        synchronized (otherExports) {
            return List.copyOf(otherExports);
        }
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    private final class Receiver extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            if (!request.getRequestURI().equals("/v1/traces")) {
                synchronized (otherExports) {
                    otherExports.add(request.getRequestURI());
                }
                request.getInputStream().readAllBytes();
                response.setStatus(200);
                return;
            }
            InputStream body = request.getInputStream();
            if ("gzip".equalsIgnoreCase(request.getHeader("Content-Encoding"))) {
                body = new GZIPInputStream(body);
            }
            ExportTraceServiceRequest export = ExportTraceServiceRequest.parseFrom(body);
            List<ReceivedSpan> received = new ArrayList<>();
            for (ResourceSpans resourceSpans : export.getResourceSpansList()) {
                Map<String, Object> resource = values(resourceSpans.getResource().getAttributesList());
                for (ScopeSpans scopeSpans : resourceSpans.getScopeSpansList()) {
                    for (Span span : scopeSpans.getSpansList()) {
                        received.add(new ReceivedSpan(hex(span.getTraceId().toByteArray()),
                                hex(span.getSpanId().toByteArray()), hex(span.getParentSpanId().toByteArray()),
                                span.getName(), span.getKind(), values(span.getAttributesList()),
                                scopeSpans.getScope().getName(), resource, span.getStatus().getCode().name(),
                                span.getStatus().getMessage()));
                    }
                }
            }
            synchronized (spans) {
                spans.addAll(received);
            }
            response.setStatus(200);
            response.setContentType("application/x-protobuf");
            response.getOutputStream().write(ExportTraceServiceResponse.getDefaultInstance().toByteArray());
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static Map<String, Object> values(List<KeyValue> attributes) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (KeyValue kv : attributes) {
            values.put(kv.getKey(), value(kv.getValue()));
        }
        return values;
    }

    private static Object value(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case INT_VALUE -> value.getIntValue();
            case DOUBLE_VALUE -> value.getDoubleValue();
            case BOOL_VALUE -> value.getBoolValue();
            case ARRAY_VALUE -> value.getArrayValue().getValuesList().stream().map(OtlpReceiver::value).toList();
            default -> value.toString();
        };
    }
}
