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
 *       each make a second span of what jwd's spans cover, are turned off
 *       ({@code OTEL_INSTRUMENTATION_<NAME>_ENABLED=false}), unless a setting names them; and no class-data archive
 *       is made ({@code JWD_CDS=0}): the JVM refuses to archive the classes an agent changes.</li>
 *   <li>Otherwise traces are on, with the distribution's SDK (module {@value #MODULE}), when a setting asks for them:
 *       {@code OTEL_TRACES_EXPORTER} other than {@code none}, or an OTLP endpoint ({@code OTEL_EXPORTER_OTLP_ENDPOINT},
 *       {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}); never with {@code OTEL_SDK_DISABLED=true}.</li>
 * </ul>
 *
 * @param sdk         whether Jetty starts the SDK (module {@value #MODULE})
 * @param environment variables for bin/jwd and the JVM, {@code NAME=value}: with the agent, what it needs
 */
record Traces(boolean sdk, List<String> environment) {
    /** The Jetty module that puts OpenTelemetry's SDK on the server's class path and starts it. */
    static final String MODULE = "jwd-otel";
    static final String INSTRUMENTATION = "otel.instrumentation.";
    /** The agent's instrumentations whose spans jwd's replace: Jetty's server, the servlet, Jetty's HTTP client. */
    static final List<String> DOUBLING = List.of("jetty", "servlet", "jetty-httpclient");
    static final Traces OFF = new Traces(false, List.of());

    Traces {
        environment = List.copyOf(environment);
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
        List<String> variables = new ArrayList<>(List.of("JWD_CDS=0"));
        for (String name : DOUBLING) {
            String key = INSTRUMENTATION + name + ".enabled";
            if (setting(environment, properties, key) == null) {
                variables.add(variable(key) + "=false");
            }
        }
        return new Traces(false, variables);
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
        String variable = environment.get(variable(key));
        return variable == null || variable.isBlank() ? null : variable;
    }

    /** The environment variable of a system property: {@code OTEL_INSTRUMENTATION_JETTY_HTTPCLIENT_ENABLED}. */
    private static String variable(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The lines bin/jwd reads: {@code module jwd-otel}, or {@code env NAME=value ...}. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        if (sdk) {
            lines.add("module " + MODULE);
        }
        if (!environment.isEmpty()) {
            lines.add("env " + String.join(" ", environment));
        }
        return lines;
    }
}
