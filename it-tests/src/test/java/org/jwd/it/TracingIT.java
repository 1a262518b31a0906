package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

import io.opentelemetry.proto.trace.v1.Span.SpanKind;

import org.jwd.demo.DemoBackend;
import org.jwd.it.OtlpReceiver.ReceivedSpan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Traces through the distribution: jwd started with OpenTelemetry's standard settings
 * ({@code OTEL_EXPORTER_OTLP_ENDPOINT}, which turns the jwd-otel module on) sends its spans to a real OTLP/HTTP
 * receiver; requests carry the W3C {@code traceparent} a browser or an upstream proxy sends, and the servers echo
 * what reached them. SAP's passport goes along, and the access log names its transaction.
 */
@Timeout(180)
class TracingIT {
    /** A version-3 SAP passport (SAP's browser plug-in), transaction id {@code 5E2B0C6A93F14D7C8B11A2D4E6F80123}. */
    private static final String PASSPORT =
            "2A54482A0300E600005341505F4532455F54415F506C7567496E20202020202020202020202020202000005341505F453245"
            + "5F54415F5573657220202020202020202020202020202020205341505F4532455F54415F5265717565737420202020202020"
            + "20202020202020202020202020202000055341505F4532455F54415F506C7567496E20202020202020202020202020202035"
            + "4532423043364139334631344437433842313141324434453646383031323320202000074635000000311EE0A5D24EDBB2E4"
            + "4B680000000000000000000000000000000000000000000000E22A54482A";

    private static OtlpReceiver receiver;
    private static DemoBackend j1;
    private static DemoBackend j2;
    private static JwdProcess jwd;
    private static Path accessLog;

    @BeforeAll
    static void start() throws Exception {
        receiver = OtlpReceiver.start();
        j1 = DemoBackend.start(DemoBackend.Options.j2ee("j1"));
        j2 = DemoBackend.start(DemoBackend.Options.j2ee("j2"));
        accessLog = Files.createTempDirectory("jwd-tracing-it").resolve("access.log");
        jwd = JwdProcess.start("""
                server.j1.url=%s
                server.j1.type=j2ee
                server.j1.name=java1_JWD_00
                server.j2.url=%s
                server.j2.type=j2ee
                SessionTableTimeout=60s
                health.fall=100
                icm/HTTP/logging_0=PREFIX=/, LOGFILE=%s, LOGFORMAT=%%s %%{server}j %%{passport}j
                """.formatted(j1.url(), j2.url(), accessLog), Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(),
                "OTEL_BSP_SCHEDULE_DELAY", "100"));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {jwd, j1, j2, receiver}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Test
    void aRequestWithATraceparentIsOneTraceOfJwdsServerAndClientSpansThatTheServerContinues() {
        String trace = randomHex(16);
        String parent = randomHex(8);
        HttpResponse<String> answer = new AdminClient(jwd).through("/irj/echo", "traceparent",
                "00-" + trace + "-" + parent + "-01", "tracestate", "vendor=abc", "Cookie", "JSESSIONID=it-trace-1",
                "User-Agent", "it-tracing");

        assertThat(answer.statusCode()).isEqualTo(200);
        List<ReceivedSpan> spans = receiver.awaitTrace(trace, 2);
        assertThat(spans).extracting(ReceivedSpan::kind)
                .containsExactlyInAnyOrder(SpanKind.SPAN_KIND_SERVER, SpanKind.SPAN_KIND_CLIENT);
        ReceivedSpan server = only(spans, SpanKind.SPAN_KIND_SERVER);
        ReceivedSpan client = only(spans, SpanKind.SPAN_KIND_CLIENT);
        assertThat(server.parentSpanId()).as("the client's span is the parent").isEqualTo(parent);
        assertThat(client.parentSpanId()).isEqualTo(server.spanId());
        String servedBy = servedBy(answer);
        assertThat(server.attributes()).containsEntry("jwd.group", "!J2EE").containsEntry("jwd.server", servedBy)
                .containsEntry("jwd.reason", "session table bind").containsEntry("jwd.identifier.source", "JSESSIONID")
                .containsEntry("jwd.session_table", "bind").containsEntry("http.request.method", "GET")
                .containsEntry("url.path", "/irj/echo").containsEntry("http.response.status_code", 200L)
                .containsEntry("user_agent.original", "it-tracing");
        assertThat(client.attributes()).containsEntry("jwd.server", servedBy)
                .containsEntry("server.address", "127.0.0.1").containsEntry("http.response.status_code", 200L)
                .containsEntry("server.port", (long) (servedBy.equals("j1") ? j1 : j2).port());
        assertThat(server.scope()).isEqualTo("org.jwd");
        assertThat(server.resource()).containsEntry("service.name", "jwd");
        // the server continued the trace: its parent is jwd's client span, the client's tracestate kept
        Map<String, List<String>> received = received(answer);
        assertThat(received.get("traceparent")).containsExactly("00-" + trace + "-" + client.spanId() + "-01");
        assertThat(received.get("tracestate")).containsExactly("vendor=abc");
    }

    @Test
    void sapsPassportReachesTheServerUnchangedAndItsTransactionIsInTheTraceAndTheAccessLog() throws Exception {
        String trace = randomHex(16);
        HttpResponse<String> answer = new AdminClient(jwd).through("/irj/echo", "SAP-PASSPORT", PASSPORT,
                "traceparent", "00-" + trace + "-" + randomHex(8) + "-01");

        assertThat(received(answer).get("sap-passport")).containsExactly(PASSPORT);
        assertThat(only(receiver.awaitTrace(trace, 2), SpanKind.SPAN_KIND_SERVER).attributes())
                .containsEntry("jwd.sap_passport.transaction_id", "5E2B0C6A93F14D7C8B11A2D4E6F80123");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(accessLog) && Files.readAllLines(accessLog)
                .stream().anyMatch(line -> line.endsWith(" 5E2B0C6A93F14D7C8B11A2D4E6F80123")));
        assertThat(Files.readAllLines(accessLog)).contains("200 " + servedBy(answer)
                + " 5E2B0C6A93F14D7C8B11A2D4E6F80123");
    }

    /** j1 drops /vanish?on=j1 without a byte of an answer: a GET that met it goes again to j2, in a span of its own. */
    @Test
    void aRetryElsewhereIsAClientSpanOfItsOwnThatNamesItsCause() {
        List<List<ReceivedSpan>> retried = new ArrayList<>();
        for (int i = 0; i < 4 && retried.isEmpty(); i++) {
            String trace = randomHex(16);
            HttpResponse<String> answer = new AdminClient(jwd).through("/irj/vanish?on=j1", "traceparent",
                    "00-" + trace + "-" + randomHex(8) + "-01");
            assertThat(answer.statusCode()).isEqualTo(200);
            List<ReceivedSpan> spans = receiver.awaitTrace(trace, 2);
            if (spans.size() == 3) {
                retried.add(spans);
            }
        }

        assertThat(retried).as("round robin sends one of the first requests to j1").isNotEmpty();
        List<ReceivedSpan> spans = retried.get(0);
        ReceivedSpan server = only(spans, SpanKind.SPAN_KIND_SERVER);
        List<ReceivedSpan> forwards = spans.stream().filter(s -> s.kind() == SpanKind.SPAN_KIND_CLIENT).toList();
        assertThat(forwards).extracting(s -> s.attribute("jwd.server")).containsExactly("j1", "j2");
        assertThat(forwards).extracting(ReceivedSpan::parentSpanId).containsOnly(server.spanId());
        assertThat(forwards.get(0).status()).isEqualTo("STATUS_CODE_ERROR");
        assertThat(forwards.get(0).attributes()).containsKey("error.type").doesNotContainKey("jwd.retry.cause");
        assertThat(forwards.get(1).attributes()).containsEntry("http.request.resend_count", 1L)
                .containsEntry("http.response.status_code", 200L)
                .containsEntry("jwd.retry.cause", forwards.get(0).statusMessage());
        assertThat(forwards.get(0).statusMessage()).contains("closed the connection");
        assertThat(server.attributes()).containsEntry("jwd.server", "j2")
                .containsEntry("http.response.status_code", 200L).containsKey("jwd.retry.cause");
    }

    @Test
    void onlyTracesAreSentNoMetricsOrLogs() {
        assertThat(receiver.otherExports()).isEmpty();
        assertThat(jwd.log()).anyMatch(line -> line.contains("jwd: traces on: service jwd, otlp to "
                + receiver.endpoint() + "/v1/traces"));
    }

    private static ReceivedSpan only(List<ReceivedSpan> spans, SpanKind kind) {
        List<ReceivedSpan> of = spans.stream().filter(s -> s.kind() == kind).toList();
        assertThat(of).as("%s spans of %s", kind, spans).hasSize(1);
        return of.get(0);
    }

    /** The server that echoed the request. */
    @SuppressWarnings("unchecked")
    private static String servedBy(HttpResponse<String> echo) {
        return (String) ((Map<String, Object>) ClientJson.parse(echo.body())).get("server");
    }

    /** The headers the server says it received, names in lower case. */
    @SuppressWarnings("unchecked")
    private static Map<String, List<String>> received(HttpResponse<String> echo) {
        Map<String, List<String>> headers = new TreeMap<>();
        ((Map<String, Object>) ((Map<String, Object>) ClientJson.parse(echo.body())).get("headers"))
                .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), (List<String>) values));
        return headers;
    }

    static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        b[0] |= 1;
        return HexFormat.of().formatHex(b);
    }
}
