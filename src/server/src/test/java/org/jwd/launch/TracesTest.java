package org.jwd.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When OpenTelemetry's settings turn jwd's traces on, and what an attached Java agent needs. */
class TracesTest {
    private static final String AGENT = "env JWD_CDS=0 OTEL_INSTRUMENTATION_JETTY_ENABLED=false"
            + " OTEL_INSTRUMENTATION_SERVLET_ENABLED=false OTEL_INSTRUMENTATION_JETTY_HTTPCLIENT_ENABLED=false";

    /**
     * @param settings environment variables, {@code NAME=value} separated by {@code ;}
     * @param expect   the lines for bin/jwd, {@code ;} between them, {@code -} for none, {@code AGENT} for
     *                 {@value #AGENT}
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            nothing set                         | OTEL_SERVICE_NAME=jwd                                   | -
            an OTLP endpoint                    | OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318       | module jwd-otel
            an endpoint for traces              | OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://c:4318/v1/traces | module jwd-otel
            an exporter                         | OTEL_TRACES_EXPORTER=console                            | module jwd-otel
            the exporter none wins              | OTEL_TRACES_EXPORTER=none;OTEL_EXPORTER_OTLP_ENDPOINT=http://c:4318 | -
            the SDK disabled                    | OTEL_SDK_DISABLED=true;OTEL_TRACES_EXPORTER=otlp        | -
            a system property                   | JWD_JAVA_OPTS=-Dotel.traces.exporter=otlp               | module jwd-otel
            a system property wins              | JWD_JAVA_OPTS=-Dotel.traces.exporter=none;OTEL_TRACES_EXPORTER=otlp | -
            the agent                           | JWD_JAVA_OPTS=-javaagent:/opt/opentelemetry-javaagent.jar | AGENT
            the agent in JAVA_TOOL_OPTIONS      | JAVA_TOOL_OPTIONS=-javaagent:/opt/OpenTelemetry-Agent.jar;OTEL_TRACES_EXPORTER=otlp | AGENT
            an operator's choice for the agent  | JWD_JAVA_OPTS=-javaagent:/o/opentelemetry-javaagent.jar -Dotel.instrumentation.servlet.enabled=true;OTEL_INSTRUMENTATION_JETTY_ENABLED=true | env JWD_CDS=0 OTEL_INSTRUMENTATION_JETTY_HTTPCLIENT_ENABLED=false
            another agent                       | JWD_JAVA_OPTS=-javaagent:/opt/profiler.jar;OTEL_TRACES_EXPORTER=otlp | module jwd-otel
            """)
    void decidesFromOpenTelemetrysOwnSettings(String name, String settings, String expect) {
        Map<String, String> environment = new HashMap<>();
        for (String setting : settings.split(";")) {
            int eq = setting.indexOf('=');
            environment.put(setting.substring(0, eq).trim(), setting.substring(eq + 1).trim());
        }

        assertThat(Traces.of(environment).lines()).isEqualTo(expect.trim().equals("-") ? List.of()
                : List.of(expect.trim().replace("AGENT", AGENT).split(";")));
    }
}
