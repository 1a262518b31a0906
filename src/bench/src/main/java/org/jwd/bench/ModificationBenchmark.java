package org.jwd.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.jwd.config.ConfigException;
import org.jwd.modification.Modification;
import org.jwd.modification.ModificationHandlers;
import org.jwd.modification.RequestView;
import org.jwd.routing.BadPathException;
import org.jwd.routing.NormalizedPath;
import org.jwd.routing.PathNormalizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What SAP's modification handler costs a request: a typical action file of ten lines ({@code typical-actions.txt}:
 * the method filter, a redirect of the root, a rewrite, a refused path, two headers, the system by the origin
 * parameter) applied to a request that goes on unchanged but for its headers (the portal), one the origin parameter
 * sends to a system, and one rewritten; beside it the request's path normalization, which every request pays anyway.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ModificationBenchmark {
    @Param({"/irj/portal", "/sap/opu/odata/sap/SRV;o=ERP/Entities", "/PING"})
    public String path;

    private ModificationHandlers handlers;
    private NormalizedPath normalized;
    private final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    @Setup
    public void setUp() throws IOException, ConfigException, BadPathException {
        Path dir = Files.createTempDirectory("jwd-bench");
        try (InputStream in = ModificationBenchmark.class.getResourceAsStream("typical-actions.txt")) {
            Files.write(dir.resolve("actions.txt"), in.readAllBytes());
        }
        handlers = ModificationHandlers.parse(Map.of("icm/HTTP/mod_0", "PREFIX=/, FILE=actions.txt"), dir);
        normalized = PathNormalizer.normalize(path);
        headers.put("Host", "portal.example.com");
        headers.put("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)");
        headers.put("Cookie", "JSESSIONID=(J2EE123)ID0123456789DB01234567890123456789End; saplb_*=(J2EE123)123");
    }

    private RequestView request() {
        return new RequestView("GET", path, "sap-language=EN", normalized, false, "10.0.0.7", 50123, "127.0.0.1",
                8080, headers::get, () -> "http:8080,https:8443");
    }

    /** The ten rules applied to the request. */
    @Benchmark
    public Modification apply() {
        return handlers.apply(request());
    }

    /** The request without an action file: what jwd pays per request when none is configured. */
    @Benchmark
    public Modification none() {
        return ModificationHandlers.NONE.apply(request());
    }

    /** For scale: the path normalization every request pays anyway. */
    @Benchmark
    public Object normalize() throws BadPathException {
        return PathNormalizer.normalize(path);
    }
}
