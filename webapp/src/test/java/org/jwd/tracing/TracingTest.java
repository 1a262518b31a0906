package org.jwd.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.jwd.affinity.IdentifierSource;
import org.jwd.affinity.SessionAffinity;
import org.jwd.affinity.TableOutcome;
import org.jwd.config.ConfigException;
import org.jwd.modification.Modification;
import org.jwd.routing.RoutingDecision;
import org.jwd.runtime.ConfigReader;
import org.jwd.systems.SystemEntry;
import org.jwd.topology.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request's spans as the servlet reports its steps, exported to the SDK's memory: what a trace receiver gets
 * (the integration tests check the same through the distribution, at a real OTLP receiver).
 */
class TracingTest {
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENTS_SPAN = "00f067aa0ba902b7";

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private OpenTelemetrySdk sdk = sdk(Sampler.parentBased(Sampler.alwaysOn()));
    private final HttpClient client = new HttpClient();
    private final Topology topology = topology();

    @AfterEach
    void close() {
        sdk.close();
    }

    private OpenTelemetrySdk sdk(Sampler sampler) {
        return OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().setSampler(sampler)
                        .addSpanProcessor(SimpleSpanProcessor.create(exported)).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
    }

    private static Topology topology() {
        try {
            return Topology.of(ConfigReader.parse("""
                    server.j1.url = http://java1:50000
                    server.j1.type = j2ee
                    server.j1.name = java1_JWD_00
                    server.j2.url = http://java2:50000
                    server.j2.type = j2ee
                    """, "test"));
        } catch (ConfigException e) {
            throw new IllegalStateException(e);
        }
    }

    private RoutingDecision toServer(String id, String reason, IdentifierSource source, TableOutcome table) {
        return RoutingDecision.forward("/irj/portal", topology.internalGroup("!J2EE"),
                new SessionAffinity.Choice(topology.server(id), reason, source != null, source == null ? null : "x",
                        source, table), "http://java1:50000/irj/portal");
    }

    @Test
    void continuesTheClientsTraceAndPassesItToTheServerThroughItsOwnClientSpan() {
        Tracing tracing = Tracing.of(sdk);
        RequestTrace trace = tracing.begin(request("GET", "/irj/portal", "a=1",
                "traceparent", "00-" + TRACE + "-" + CLIENTS_SPAN + "-01", "User-Agent", "curl/8"));
        Request proxyRequest = client.newRequest("http://java1:50000/irj/portal?a=1")
                .headers(h -> h.put("traceparent", "00-" + TRACE + "-" + CLIENTS_SPAN + "-01"));

        trace.forwarding(proxyRequest, topology.server("j1"));
        trace.answerBegins(200);
        trace.leftServer();
        trace.ended(200, SystemEntry.implicit(), toServer("j1", "session table", IdentifierSource.JSESSIONID,
                TableOutcome.HIT), Modification.NONE);

        assertThat(exported.getFinishedSpanItems()).hasSize(2);
        SpanData clientSpan = exported.getFinishedSpanItems().get(0);
        SpanData serverSpan = exported.getFinishedSpanItems().get(1);
        assertThat(serverSpan.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(serverSpan.getName()).isEqualTo("GET");
        assertThat(serverSpan.getTraceId()).isEqualTo(TRACE);
        assertThat(serverSpan.getParentSpanId()).isEqualTo(CLIENTS_SPAN);
        assertThat(clientSpan.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(clientSpan.getTraceId()).isEqualTo(TRACE);
        assertThat(clientSpan.getParentSpanId()).isEqualTo(serverSpan.getSpanId());
        assertThat(proxyRequest.getHeaders().getValuesList("traceparent"))
                .containsExactly("00-" + TRACE + "-" + clientSpan.getSpanId() + "-01");
        assertThat(attributes(serverSpan)).containsEntry("http.request.method", "GET")
                .containsEntry("url.path", "/irj/portal").containsEntry("url.query", "a=1")
                .containsEntry("url.scheme", "http").containsEntry("http.response.status_code", 200L)
                .containsEntry("user_agent.original", "curl/8").containsEntry("network.protocol.version", "1.1")
                .containsEntry("jwd.group", "!J2EE").containsEntry("jwd.server", "j1")
                .containsEntry("jwd.server.sap_name", "java1_JWD_00").containsEntry("jwd.reason", "session table")
                .containsEntry("jwd.identifier.source", "JSESSIONID").containsEntry("jwd.session_table", "hit")
                .doesNotContainKeys("jwd.system", "jwd.modification", "jwd.retry.cause", "error.type");
        assertThat(attributes(clientSpan)).containsEntry("http.request.method", "GET")
                .containsEntry("url.full", "http://java1:50000/irj/portal?a=1")
                .containsEntry("server.address", "java1").containsEntry("server.port", 50000L)
                .containsEntry("http.response.status_code", 200L).containsEntry("jwd.server", "j1")
                .doesNotContainKeys("http.request.resend_count");
        assertThat(serverSpan.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    }

    @Test
    void aRetryElsewhereIsAClientSpanOfItsOwnThatNamesItsCause() {
        RequestTrace trace = Tracing.of(sdk).begin(request("GET", "/irj/portal", null));
        Request first = client.newRequest("http://java2:50000/irj/portal");
        Request second = client.newRequest("http://java1:50000/irj/portal");

        trace.forwarding(first, topology.server("j2"));
        trace.failed(new IllegalStateException(new ConnectException("Connection refused")),
                "connection refused (Connection refused)");
        trace.leftServer();
        trace.forwarding(second, topology.server("j1"));
        trace.answerBegins(200);
        trace.ended(200, SystemEntry.implicit(), toServer("j1", "balanced", null, null), Modification.NONE);

        List<SpanData> spans = exported.getFinishedSpanItems();
        assertThat(spans).extracting(SpanData::getKind)
                .containsExactly(SpanKind.CLIENT, SpanKind.CLIENT, SpanKind.SERVER);
        assertThat(attributes(spans.get(0))).containsEntry("jwd.server", "j2")
                .containsEntry("error.type", "java.net.ConnectException").doesNotContainKeys("jwd.retry.cause");
        assertThat(spans.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(spans.get(0).getStatus().getDescription()).isEqualTo("connection refused (Connection refused)");
        assertThat(attributes(spans.get(1))).containsEntry("jwd.server", "j1")
                .containsEntry("http.request.resend_count", 1L)
                .containsEntry("jwd.retry.cause", "connection refused (Connection refused)");
        assertThat(attributes(spans.get(2))).containsEntry("jwd.retry.cause", "connection refused (Connection refused)")
                .containsEntry("jwd.server", "j1");
        assertThat(spans.get(1).getParentSpanId()).isEqualTo(spans.get(2).getSpanId());
        assertThat(second.getHeaders().get("traceparent")).contains(spans.get(1).getSpanId());
    }

    @Test
    void anErrorOfJwdsOwnMarksTheServerSpanAndAServersErrorItsClientSpan() {
        RequestTrace trace = Tracing.of(sdk).begin(request("POST", "/irj/portal", null));
        trace.forwarding(client.newRequest("http://java1:50000/irj/portal").method("POST"), topology.server("j1"));
        trace.answerBegins(500);
        trace.ended(502, SystemEntry.implicit(), toServer("j1", "balanced", null, null), Modification.NONE);

        SpanData clientSpan = exported.getFinishedSpanItems().get(0);
        SpanData serverSpan = exported.getFinishedSpanItems().get(1);
        assertThat(attributes(clientSpan)).containsEntry("http.response.status_code", 500L)
                .containsEntry("error.type", "500");
        assertThat(clientSpan.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(attributes(serverSpan)).containsEntry("http.response.status_code", 502L)
                .containsEntry("error.type", "502");
        assertThat(serverSpan.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    }

    @Test
    void aRequestJwdAnswersItselfHasAServerSpanAlone() {
        RequestTrace trace = Tracing.of(sdk).begin(request("GET", "/secret", null));
        trace.leftServer();
        trace.ended(403, SystemEntry.implicit(), RoutingDecision.reject(403, "forbidden", "/secret", null,
                "permission table line 3"), Modification.NONE);

        assertThat(exported.getFinishedSpanItems()).singleElement().satisfies(span -> {
            assertThat(span.getParentSpanId()).isEqualTo("0000000000000000");
            assertThat(attributes(span)).containsEntry("jwd.reason", "permission table line 3")
                    .containsEntry("http.response.status_code", 403L).doesNotContainKeys("jwd.server", "error.type");
            assertThat(span.getStatus().getStatusCode()).as("a 4xx is the client's").isEqualTo(StatusCode.UNSET);
        });
    }

    @Test
    void urlsInSpansShowNoSessionIdentifiersAndMethodsOutsideHttpsOwnAreOther() {
        RequestTrace trace = Tracing.of(sdk).begin(request("PROPFIND", "/irj/x;jsessionid=SECRET.n1",
                "sap-contextid=SID%3aANON&q=1"));
        trace.forwarding(client.newRequest("http://java1:50000/irj/x;jsessionid=SECRET.n1?sap-contextid=S&q=1")
                .method("PROPFIND"), topology.server("j1"));
        trace.ended(207, SystemEntry.implicit(), toServer("j1", "balanced", null, null), Modification.NONE);

        SpanData clientSpan = exported.getFinishedSpanItems().get(0);
        SpanData serverSpan = exported.getFinishedSpanItems().get(1);
        assertThat(attributes(serverSpan)).containsEntry("url.path", "/irj/x;jsessionid=*")
                .containsEntry("url.query", "sap-contextid=*&q=1").containsEntry("http.request.method", "_OTHER")
                .containsEntry("http.request.method_original", "PROPFIND");
        assertThat(serverSpan.getName()).isEqualTo("HTTP");
        assertThat(attributes(clientSpan).get("url.full"))
                .isEqualTo("http://java1:50000/irj/x;jsessionid=*?sap-contextid=*&q=1");
    }

    @Test
    void theServerSpanNamesTheTransactionOfSapsPassport() {
        RequestTrace trace = Tracing.of(sdk).begin(request("GET", "/sap/bc/ui5", null, "SAP-PASSPORT",
                "2A54482A0300E600005341505F4532455F54415F506C7567496E20202020202020202020202020202000005341505F453245"
                + "5F54415F5573657220202020202020202020202020202020205341505F4532455F54415F5265717565737420202020202020"
                + "20202020202020202020202020202000055341505F4532455F54415F506C7567496E20202020202020202020202020202035"
                + "4532423043364139334631344437433842313141324434453646383031323320202000074635000000311EE0A5D24EDBB2E4"
                + "4B680000000000000000000000000000000000000000000000E22A54482A"));
        trace.ended(200, SystemEntry.implicit(), toServer("j1", "balanced", null, null), Modification.NONE);

        assertThat(attributes(exported.getFinishedSpanItems().get(0)))
                .containsEntry("jwd.sap_passport.transaction_id", "5E2B0C6A93F14D7C8B11A2D4E6F80123");
    }

    /** Sampled out by the client's flags: nothing recorded, but the trace goes on to the server, unsampled. */
    @Test
    void anUnsampledRequestRecordsNothingButStillContinuesTheTrace() {
        RequestTrace trace = Tracing.of(sdk).begin(request("GET", "/irj/portal", null,
                "traceparent", "00-" + TRACE + "-" + CLIENTS_SPAN + "-00"));
        Request proxyRequest = client.newRequest("http://java1:50000/irj/portal");
        trace.forwarding(proxyRequest, topology.server("j1"));
        trace.ended(200, SystemEntry.implicit(), toServer("j1", "balanced", null, null), Modification.NONE);

        assertThat(exported.getFinishedSpanItems()).isEmpty();
        assertThat(proxyRequest.getHeaders().get("traceparent")).startsWith("00-" + TRACE + "-").endsWith("-00")
                .doesNotContain(CLIENTS_SPAN);
    }

    /** Off: one trace for every request that does nothing, and the client's traceparent passes unchanged. */
    @Test
    void withoutAnSdkTracingIsOffAndTouchesNothing() {
        Tracing tracing = Tracing.of(OpenTelemetry.noop());
        Request proxyRequest = client.newRequest("http://java1:50000/irj/portal")
                .headers(h -> h.put("traceparent", "00-" + TRACE + "-" + CLIENTS_SPAN + "-01"));

        RequestTrace trace = tracing.begin(request("GET", "/irj/portal", null));
        trace.forwarding(proxyRequest, topology.server("j1"));

        assertThat(tracing.isOn()).isFalse();
        assertThat(trace).isSameAs(RequestTrace.OFF).isSameAs(tracing.begin(request("GET", "/other", null)));
        assertThat(proxyRequest.getHeaders().get("traceparent")).isEqualTo("00-" + TRACE + "-" + CLIENTS_SPAN + "-01");
        assertThat(Tracing.of(sdk).isOn()).isTrue();
    }

    private static Map<String, Object> attributes(SpanData span) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        span.getAttributes().forEach((AttributeKey<?> key, Object value) -> attributes.put(key.getKey(), value));
        return attributes;
    }

    /** A client's request to jwd at http://jwd.example:8080, from 10.0.0.7: {@code headers} as name, value, ... */
    private static HttpServletRequest request(String method, String uri, String query, String... headers) {
        Map<String, String> byName = new LinkedHashMap<>();
        for (int i = 0; i < headers.length; i += 2) {
            byName.put(headers[i], headers[i + 1]);
        }
        return (HttpServletRequest) Proxy.newProxyInstance(TracingTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    case "getRequestURI" -> uri;
                    case "getQueryString" -> query;
                    case "getScheme" -> "http";
                    case "getProtocol" -> "HTTP/1.1";
                    case "getServerName" -> "jwd.example";
                    case "getServerPort" -> 8080;
                    case "getRemoteAddr" -> "10.0.0.7";
                    case "getRemotePort" -> 50123;
                    case "getHeader" -> byName.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(
                            (String) args[0])).map(Map.Entry::getValue).findFirst().orElse(null);
                    case "getHeaderNames" -> Collections.enumeration(byName.keySet());
                    case "toString" -> method + " " + uri;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }
}
