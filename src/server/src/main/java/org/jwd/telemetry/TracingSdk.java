package org.jwd.telemetry;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OpenTelemetry's SDK for the WAR's spans when no Java agent supplies one. Jetty's {@code jwd-otel} module (bin/jwd
 * turns it on when OpenTelemetry's settings ask for traces) puts the SDK on the server's class path and calls
 * {@link #install} before the WAR is deployed: configured by the SDK's own autoconfiguration ({@code OTEL_*}
 * environment variables, {@code otel.*} system properties), it becomes {@code GlobalOpenTelemetry}, whose classes the
 * WAR shares ({@code webapps/jwd.xml}). Traces only, unless a setting says otherwise: the service is {@code jwd},
 * metrics and logs go nowhere (jwd's metrics are Prometheus's, its log is Jetty's), and OTLP goes over HTTP
 * ({@link #DEFAULTS}). When Jetty stops, the spans still buffered are sent before the SDK shuts down.
 */
public final class TracingSdk extends AbstractLifeCycle {
    private static final Logger LOG = LoggerFactory.getLogger(TracingSdk.class);
    /**
     * OpenTelemetry's settings that jwd gives other defaults; any setting of the operator's wins. OTLP over HTTP (as
     * OpenTelemetry's Java agent defaults to): the distribution ships the JDK's HTTP client as its sender, and no
     * gRPC one.
     */
    static final Map<String, String> DEFAULTS = Map.of("otel.service.name", "jwd", "otel.metrics.exporter", "none",
            "otel.logs.exporter", "none", "otel.exporter.otlp.protocol", "http/protobuf");
    private static final long SHUTDOWN_SECONDS = 10;

    private final OpenTelemetrySdk sdk;
    private final String description;

    private TracingSdk(OpenTelemetrySdk sdk, String description) {
        this.sdk = sdk;
        this.description = description;
    }

    /**
     * Starts the SDK as {@code GlobalOpenTelemetry}, to shut down with {@code server}: Jetty's XML of the
     * {@code jwd-otel} module calls it.
     *
     * @throws IllegalStateException naming what is wrong with OpenTelemetry's settings: jwd does not start
     */
    public static TracingSdk install(Server server) {
        TracingSdk tracing = configure(Map.of(), true);
        server.addBean(tracing, true);
        LOG.info("jwd: traces on: {}", tracing.description);
        return tracing;
    }

    /** The SDK as the settings say, {@code settings} over them (the tests'); the global one if {@code global}. */
    static TracingSdk configure(Map<String, String> settings, boolean global) {
        AtomicReference<String> description = new AtomicReference<>();
        AutoConfiguredOpenTelemetrySdkBuilder builder = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesSupplier(() -> DEFAULTS)
                .addPropertiesCustomizer(config -> settings)
                .addPropertiesCustomizer(config -> {
                    description.set(describe(config));
                    return Map.of();
                })
                .disableShutdownHook();
        if (global) {
            builder.setResultAsGlobal();
        }
        try {
            return new TracingSdk(builder.build().getOpenTelemetrySdk(), description.get());
        } catch (ConfigurationException e) {
            Throwable cause = e;
            while (cause.getCause() != null && cause.getCause() != cause) {
                cause = cause.getCause();
            }
            throw new IllegalStateException("jwd: OpenTelemetry's settings (OTEL_* or -Dotel.*): "
                    + cause.getMessage() + (cause.getMessage().contains("GrpcSender")
                    ? " (the distribution sends OTLP over HTTP only: OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf)" : ""),
                    e);
        }
    }

    /** Where the spans go and which are kept: {@code service jwd, otlp to http://...:4318/v1/traces, sampler ...}. */
    static String describe(ConfigProperties config) {
        String exporter = config.getString("otel.traces.exporter", "otlp");
        String to = "";
        if (exporter.contains("otlp")) {
            String base = config.getString("otel.exporter.otlp.endpoint", "http://localhost:4318");
            to = " to " + config.getString("otel.exporter.otlp.traces.endpoint",
                    base.endsWith("/") ? base + "v1/traces" : base + "/v1/traces");
        }
        String arg = config.getString("otel.traces.sampler.arg");
        return "service " + config.getString("otel.service.name") + ", " + exporter + to + ", sampler "
                + config.getString("otel.traces.sampler", "parentbased_always_on") + (arg == null ? "" : " " + arg);
    }

    /** The SDK: the tests' spans. */
    OpenTelemetrySdk sdk() {
        return sdk;
    }

    @Override
    protected void doStop() {
        sdk.shutdown().join(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public String toString() {
        return "OpenTelemetry's SDK: " + description;
    }
}
