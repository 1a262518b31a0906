package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.opentelemetry.proto.trace.v1.Span.SpanKind;

import org.jwd.demo.DemoBackend;
import org.jwd.it.OtlpReceiver.ReceivedSpan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * jwd with OpenTelemetry's Java agent attached ({@code JWD_JAVA_OPTS=-javaagent:...}) instead of the distribution's
 * SDK: the agent supplies OpenTelemetry, and a request is still one server span and one client span, jwd's. The
 * agent's own instrumentations of Jetty's server, the servlet and Jetty's client would each add one more (bin/jwd
 * turns them off), and the agent's spans carry no routing decision.
 */
@Timeout(240)
class TracingAgentIT {
    private static final Path AGENT = JwdProcess.target().resolve("otel/opentelemetry-javaagent.jar");

    @Test
    void withTheJavaAgentARequestIsJwdsServerAndClientSpanAloneNotTheAgentsToo() throws Exception {
        assertThat(AGENT).as("the build copies the agent there").exists();
        try (OtlpReceiver receiver = OtlpReceiver.start();
             DemoBackend j1 = DemoBackend.start(DemoBackend.Options.j2ee("j1"));
             JwdProcess jwd = JwdProcess.start("""
                     server.j1.url=%s
                     server.j1.type=j2ee
                     """.formatted(j1.url()), Map.of(
                     "JWD_JAVA_OPTS", "-javaagent:" + AGENT.toAbsolutePath(),
                     "OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(),
                     "OTEL_BSP_SCHEDULE_DELAY", "100",
                     "OTEL_METRICS_EXPORTER", "none",
                     "OTEL_LOGS_EXPORTER", "none"))) {
            String trace = TracingIT.randomHex(16);
            String parent = TracingIT.randomHex(8);

            HttpResponse<String> answer = new AdminClient(jwd).through("/irj/echo", "traceparent",
                    "00-" + trace + "-" + parent + "-01");

            assertThat(answer.statusCode()).isEqualTo(200);
            List<ReceivedSpan> spans = receiver.awaitTrace(trace, 2);
            assertThat(spans).extracting(ReceivedSpan::scope).containsOnly("org.jwd");
            assertThat(spans).extracting(ReceivedSpan::kind)
                    .containsExactlyInAnyOrder(SpanKind.SPAN_KIND_SERVER, SpanKind.SPAN_KIND_CLIENT);
            ReceivedSpan server = spans.stream().filter(s -> s.kind() == SpanKind.SPAN_KIND_SERVER).findFirst()
                    .orElseThrow();
            ReceivedSpan client = spans.stream().filter(s -> s.kind() == SpanKind.SPAN_KIND_CLIENT).findFirst()
                    .orElseThrow();
            assertThat(server.parentSpanId()).isEqualTo(parent);
            assertThat(client.parentSpanId()).isEqualTo(server.spanId());
            assertThat(server.attributes()).containsEntry("jwd.server", "j1").containsEntry("jwd.reason", "balanced");
            assertThat(answer.body()).contains("00-" + trace + "-" + client.spanId() + "-01");
            assertThat(jwd.log()).anyMatch(line -> line.contains("OpenTelemetry's Java agent"))
                    .noneMatch(line -> line.contains("jwd: traces on"));
            assertThat(Files.exists(jwd.dist().resolve("jetty-base/lib/otel"))).isTrue();
        }
    }
}
