package org.jwd.launch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether jwd traces, decided from OpenTelemetry's own settings before Jetty starts: the {@code OTEL_*} environment
 * variables, or the {@code -Dotel.*} system properties of {@code JWD_JAVA_OPTS} (or {@code JAVA_TOOL_OPTIONS}), which
 * win as they do in OpenTelemetry.
 *
 * <ul>
 *   <li>OpenTelemetry's Java agent attached ({@code -javaagent:.../opentelemetry-javaagent.jar}): the agent supplies
 *       OpenTelemetry, and its instrumentations of Jetty's server, of the servlet and of Jetty's client, which would
 *       each make a second span of what jwd's spans cover, are turned off ({@value #INSTRUMENTATION}{@code
 *       <name>.enabled=false}), unless a setting names them.</li>
 *   <li>Otherwise traces are on, with the distribution's SDK (module {@value #MODULE}), when a setting asks for them:
 *       {@code OTEL_TRACES_EXPORTER} other than {@code none}, or an OTLP endpoint ({@code OTEL_EXPORTER_OTLP_ENDPOINT},
 *       {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}); never with {@code OTEL_SDK_DISABLED=true}.</li>
 * </ul>
 *
 * @param sdk        whether Jetty starts the SDK (module {@value #MODULE})
 * @param jvmOptions system properties the JVM starts with: the agent's instrumentations turned off
 */
record Traces(boolean sdk, List<String> jvmOptions) {
    /** The Jetty module that puts OpenTelemetry's SDK on the server's class path and starts it. */
    static final String MODULE = "jwd-otel";
    static final String INSTRUMENTATION = "otel.instrumentation.";
    /** The agent's instrumentations whose spans jwd's replace: Jetty's server, the servlet, Jetty's HTTP client. */
    static final List<String> DOUBLING = List.of("jetty", "servlet", "jetty-httpclient");
    static final Traces OFF = new Traces(false, List.of());

    Traces {
        jvmOptions = List.copyOf(jvmOptions);
    }

    /** From the environment of {@code bin/jwd run}. */
    static Traces of(Map<String, String> environment) {
        String options = String.join(" ", environment.getOrDefault("JAVA_TOOL_OPTIONS", ""),
                environment.getOrDefault("JWD_JAVA_OPTS", ""));
        Map<String, String> properties = new HashMap<>();
        boolean agent = false;
        for (String option : options.trim().split("\\s+")) {
            agent |= option.startsWith("-javaagent:") && option.toLowerCase(Locale.ROOT).contains("opentelemetry");
            int eq = option.indexOf('=');
            if (option.startsWith("-Dotel.") && eq > 0) {
                properties.put(option.substring(2, eq), option.substring(eq + 1));
            }
        }
        return agent ? agent(environment, properties) : sdk(environment, properties);
    }

    private static Traces agent(Map<String, String> environment, Map<String, String> properties) {
        List<String> off = new ArrayList<>();
        for (String name : DOUBLING) {
            String key = INSTRUMENTATION + name + ".enabled";
            if (setting(environment, properties, key) == null) {
                off.add("-D" + key + "=false");
            }
        }
        return new Traces(false, off);
    }

    private static Traces sdk(Map<String, String> environment, Map<String, String> properties) {
        if ("true".equalsIgnoreCase(setting(environment, properties, "otel.sdk.disabled"))) {
            return OFF;
        }
        String exporter = setting(environment, properties, "otel.traces.exporter");
        boolean asked = exporter != null ? !exporter.isBlank() && !"none".equalsIgnoreCase(exporter.trim())
                : setting(environment, properties, "otel.exporter.otlp.endpoint") != null
                || setting(environment, properties, "otel.exporter.otlp.traces.endpoint") != null;
        return asked ? new Traces(true, List.of()) : OFF;
    }

    /** A setting as OpenTelemetry reads it: the system property, else its environment variable; {@code null}. */
    private static String setting(Map<String, String> environment, Map<String, String> properties, String key) {
        String property = properties.get(key);
        if (property != null) {
            return property;
        }
        String variable = environment.get(key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
        return variable == null || variable.isBlank() ? null : variable;
    }

    /** The lines bin/jwd reads: {@code module jwd-otel}, {@code jvm -D...}. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        if (sdk) {
            lines.add("module " + MODULE);
        }
        jvmOptions.forEach(option -> lines.add("jvm " + option));
        return lines;
    }
}
