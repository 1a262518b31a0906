package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code JWD_LOG_FORMAT=json} through the distribution: every line jwd's log writes, Jetty's and jwd's alike, parses
 * on its own as one JSON object with its time, level, thread, logger and message; a traced request's lines carry its
 * trace id and server span (OpenTelemetry on, as by its standard settings), and an exception its stack trace.
 */
@Timeout(180)
class JsonLogIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyLineIsOneJsonObjectATracedRequestsLinesCarryItsTraceAndAnExceptionItsStackTrace() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start();
             DemoBackend j1 = DemoBackend.start(DemoBackend.Options.j2ee("j1"));
             JwdProcess jwd = JwdProcess.start("server.j1.url=%s\nserver.j1.type=j2ee\n".formatted(j1.url())
                     + AdminClient.CONFIG, Map.of("JWD_LOG_FORMAT", "json",
                     "OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(), "OTEL_BSP_SCHEDULE_DELAY", "100"))) {
            AdminClient admin = new AdminClient(jwd);
            // where each request goes, and Jetty's server, whose DEBUG lines of a bad request hold its exception
            setLevel(jwd, admin, "org.jwd.proxy.RequestEnds", "DEBUG");
            setLevel(jwd, admin, "org.eclipse.jetty.server.internal", "DEBUG");
            String trace = HexFormat.of().formatHex(randomBytes(16));
            String parent = HexFormat.of().formatHex(randomBytes(8));

            assertThat(admin.through("/irj/json", "traceparent", "00-" + trace + "-" + parent + "-01").statusCode())
                    .isEqualTo(200);
            assertThat(rawRequest(jwd, "NOT-HTTP\r\n\r\n")).startsWith("HTTP/1.1 400 ");
            await().atMost(Duration.ofSeconds(20)).until(() -> parsed(jwd).stream()
                    .anyMatch(l -> l.path("throwable").isObject()) && parsed(jwd).stream()
                    .anyMatch(l -> l.path("loggerName").asText().equals("org.jwd.proxy.RequestEnds")));
            setLevel(jwd, admin, "org.jwd.proxy.RequestEnds", "reset");
            setLevel(jwd, admin, "org.eclipse.jetty.server.internal", "reset");

            List<JsonNode> lines = parsed(jwd);
            assertThat(lines).hasSizeGreaterThan(10).allSatisfy(line -> {
                assertThat(line.path("timestamp").isNumber()).as(line.toString()).isTrue();
                assertThat(line.path("level").asText()).isIn("TRACE", "DEBUG", "INFO", "WARN", "ERROR");
                assertThat(line.path("threadName").asText()).isNotEmpty();
                assertThat(line.path("loggerName").asText()).isNotEmpty();
                assertThat(line.has("formattedMessage")).isTrue();
            });
            assertThat(lines).anyMatch(l -> l.path("loggerName").asText().startsWith("org.eclipse.jetty.server"))
                    .anyMatch(l -> l.path("loggerName").asText().equals("org.jwd.boot.DispatcherLifecycle"));
            JsonNode routed = lines.stream().filter(l -> l.path("loggerName").asText()
                    .equals("org.jwd.proxy.RequestEnds")).findFirst().orElseThrow();
            assertThat(routed.path("formattedMessage").asText()).startsWith("jwd: GET /irj/json -> 200 in ");
            assertThat(routed.path("mdc").path("trace_id").asText()).isEqualTo(trace);
            assertThat(routed.path("mdc").path("span_id").asText()).matches("[0-9a-f]{16}").isNotEqualTo(parent);
            JsonNode failure = lines.stream().filter(l -> l.path("throwable").isObject()).findFirst().orElseThrow()
                    .path("throwable");
            assertThat(failure.path("className").asText()).isNotEmpty();
            assertThat(failure.path("stepArray").size()).isPositive();
            assertThat(failure.path("stepArray").get(0).path("methodName").asText()).isNotEmpty();
        }
    }

    /**
     * Every line of the log as JSON; the launcher's own lines on standard output ({@code jwd: ready on ...}) are its
     * lines, not the log's. A line that is neither fails.
     */
    private static List<JsonNode> parsed(JwdProcess jwd) throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : jwd.log()) {
            if (!line.startsWith("jwd: ")) {
                JsonNode node = JSON.readTree(line);
                assertThat(node.isObject()).as(line).isTrue();
                lines.add(node);
            }
        }
        return lines;
    }

    private static void setLevel(JwdProcess jwd, AdminClient admin, String logger, String level) {
        assertThat(admin.send(admin.request("/jwd/admin/api/loglevels").header("X-Jwd-Admin", "1")
                .header("Origin", jwd.uri().toString()).POST(HttpRequest.BodyPublishers.ofString(
                        "{\"logger\":\"%s\",\"level\":\"%s\",\"for\":\"1m\"}".formatted(logger, level)))
                .build()).statusCode()).isEqualTo(200);
    }

    /** What jwd answers to {@code request}, sent as it is on a connection of its own. */
    private static String rawRequest(JwdProcess jwd, String request) throws Exception {
        try (Socket socket = new Socket(jwd.uri().getHost(), jwd.uri().getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
