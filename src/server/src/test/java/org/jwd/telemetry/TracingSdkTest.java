package org.jwd.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The SDK as OpenTelemetry's settings configure it, with jwd's defaults where they say nothing. */
class TracingSdkTest {
    @Test
    void tracesAsTheSettingsSayWithJwdsDefaultsForTheRest() throws Exception {
        TracingSdk tracing = TracingSdk.configure(Map.of("otel.exporter.otlp.endpoint", "http://127.0.0.1:1",
                "otel.traces.sampler", "parentbased_traceidratio", "otel.traces.sampler.arg", "0.1"), false);
        try {
            assertThat(tracing.toString()).isEqualTo("OpenTelemetry's SDK: service jwd, otlp to"
                    + " http://127.0.0.1:1/v1/traces, sampler parentbased_traceidratio 0.1");
            assertThat(tracing.sdk().getSdkTracerProvider().getSampler().getDescription())
                    .contains("TraceIdRatioBased{0.100000");
            assertThat(tracing.sdk().getSdkMeterProvider().toString()).as("no metrics exported")
                    .doesNotContain("PeriodicMetricReader");
        } finally {
            tracing.stop();
        }
    }

    @Test
    void aWrongSettingIsNamed() {
        assertThatThrownBy(() -> TracingSdk.configure(Map.of("otel.traces.exporter", "jaeger-thrift"), false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("OTEL_*")
                .hasMessageContaining("jaeger-thrift");
        assertThatThrownBy(() -> TracingSdk.configure(Map.of("otel.exporter.otlp.protocol", "grpc"), false))
                .hasMessageContaining("OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf");
    }
}
