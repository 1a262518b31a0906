package org.jwd.bench;

import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.jwd.affinity.IdentifierSource;
import org.jwd.affinity.SessionAffinity;
import org.jwd.affinity.TableOutcome;
import org.jwd.modification.Modification;
import org.jwd.routing.RoutingDecision;
import org.jwd.runtime.ConfigReader;
import org.jwd.systems.SystemEntry;
import org.jwd.topology.Server;
import org.jwd.topology.Topology;
import org.jwd.tracing.RequestTrace;
import org.jwd.tracing.Tracing;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What tracing costs one request on its threads: the steps the servlet reports of a request forwarded once (its
 * server span begun, a client span and its context in the proxy request's
 * headers, the answer, the end with the routing decision). {@code none}: the proxy request alone, no step reported
 * (jwd before it traced); {@code off}: the steps reported, no SDK, as jwd runs by default;
 * {@code ratio10}: the SDK sampling 10 % of the traces ({@code OTEL_TRACES_SAMPLER=traceidratio}, arg 0.1);
 * {@code always}: every trace. The SDK's batch processor hands the spans to an exporter that drops them: what
 * sending costs happens on the exporter's thread, not the request's. The proxy request is made in every mode alike.
 *
 * <p>JMH measures wall-clock time, which other work on the machine inflates; {@link #main} measures the CPU time of
 * the request's thread instead ({@code java -cp <bench class path> org.jwd.bench.TracingBenchmark MODE [SECONDS]},
 * one mode per JVM, as jwd runs one), which such work hardly changes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TracingBenchmark {
    @Param({"none", "off", "ratio10", "always"})
    public String mode;
    /** The SDK's warnings of spans dropped: the exporter's thread falls behind when every request is traced. */
    private static final java.util.logging.Logger SDK_LOG = java.util.logging.Logger.getLogger("io.opentelemetry");

    private OpenTelemetrySdk sdk;
    private Tracing tracing;
    private HttpServletRequest clientRequest;
    private HttpClient client;
    private Server server;
    private RoutingDecision decision;

    @Setup
    public void setUp() throws Exception {
        Sampler sampler = mode.equals("ratio10") ? Sampler.traceIdRatioBased(0.1) : Sampler.alwaysOn();
        SDK_LOG.setLevel(java.util.logging.Level.SEVERE);
        if (mode.equals("off") || mode.equals("none")) {
            tracing = Tracing.of(OpenTelemetry.noop());
        } else {
            sdk = OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder().setSampler(sampler)
                            .addSpanProcessor(BatchSpanProcessor.builder(new DroppingExporter()).build()).build())
                    .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
            tracing = Tracing.of(sdk);
        }
        Topology topology = Topology.of(ConfigReader.parse("server.j1.url=http://java1:50000\nserver.j1.type=j2ee\n",
                "bench"));
        server = topology.server("j1");
        decision = RoutingDecision.forward("/irj/portal", topology.internalGroup("!J2EE"), new SessionAffinity.Choice(
                server, "session table", true, "node0abc", IdentifierSource.JSESSIONID, TableOutcome.HIT),
                "http://java1:50000/irj/portal");
        clientRequest = new ClientRequest();
        client = new HttpClient();
    }

    @TearDown
    public void tearDown() {
        if (sdk != null) {
            sdk.close();
        }
    }

    /** Prints the request thread's CPU nanoseconds per request in {@code MODE}, after as long a warm-up. */
    public static void main(String[] args) throws Exception {
        TracingBenchmark bench = new TracingBenchmark();
        bench.mode = args[0];
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 10;
        bench.setUp();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        Object sink = null;
        for (int phase = 0; phase < 2; phase++) {
            long requests = 0;
            long cpu = threads.getCurrentThreadCpuTime();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < end) {
                for (int i = 0; i < 1000; i++) {
                    sink = bench.request();
                }
                requests += 1000;
            }
            if (phase == 1) {
                System.out.printf("%s %.0f ns CPU per request (%d requests, %.0f ns apart)%n", bench.mode,
                        (double) (threads.getCurrentThreadCpuTime() - cpu) / requests, requests,
                        (double) TimeUnit.SECONDS.toNanos(seconds) / requests);
            }
        }
        bench.tearDown();
        System.out.println(sink == null ? "" : "");
    }

    @Benchmark
    public Request request() {
        if (mode.equals("none")) {
            return client.newRequest("http://java1:50000/irj/portal");
        }
        RequestTrace trace = tracing.begin(clientRequest);
        Request proxyRequest = client.newRequest("http://java1:50000/irj/portal");
        trace.forwarding(proxyRequest, server);
        trace.answerBegins(200);
        trace.leftServer();
        trace.ended(200, SystemEntry.implicit(), decision, Modification.NONE);
        return proxyRequest;
    }

    /**
     * A browser's GET of a portal page, without a trace context (as browsers send it): each request is a trace of its
     * own, so that the sampler keeps one in ten.
     */
    private static final class ClientRequest extends HttpServletRequestWrapper {
        private static final List<String> NAMES = List.of("Host", "User-Agent", "Cookie");

        ClientRequest() {
            super((HttpServletRequest) Proxy.newProxyInstance(TracingBenchmark.class.getClassLoader(),
                    new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> {
                        throw new UnsupportedOperationException(method.getName());
                    }));
        }

        @Override
        public String getHeader(String name) {
            return switch (name.toLowerCase(java.util.Locale.ROOT)) {
                case "host" -> "jwd.example:8080";
                case "user-agent" -> "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/140.0";
                case "cookie" -> "JSESSIONID=node0abc";
                default -> null;
            };
        }

        @Override
        public Enumeration<String> getHeaderNames() {
            return Collections.enumeration(NAMES);
        }

        @Override
        public String getMethod() {
            return "GET";
        }

        @Override
        public String getRequestURI() {
            return "/irj/portal";
        }

        @Override
        public String getQueryString() {
            return null;
        }

        @Override
        public String getScheme() {
            return "http";
        }

        @Override
        public String getProtocol() {
            return "HTTP/1.1";
        }

        @Override
        public String getServerName() {
            return "jwd.example";
        }

        @Override
        public int getServerPort() {
            return 8080;
        }

        @Override
        public String getRemoteAddr() {
            return "10.0.0.7";
        }

        @Override
        public int getRemotePort() {
            return 50123;
        }
    }

    /** Takes the spans and drops them. */
    private static final class DroppingExporter implements SpanExporter {
        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
