package org.jwd.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.server.RequestLogWriter;
import org.jwd.accesslog.AccessLog;
import org.jwd.accesslog.Entry;
import org.jwd.accesslog.LogFormat;
import org.jwd.runtime.ConfigReader;
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
 * What the access log costs one request, in its two halves: {@code format}, on the request's thread (the line of
 * a request of src/bench/run's sticky scenario: bound by its JSESSIONID, so the session hash is computed), and
 * {@code write}, on Jetty's writer thread ({@link RequestLogWriter#write}: encoding, one {@code write} system call
 * and a flush per line, to a file under /tmp). Enqueueing between them is one {@code ArrayBlockingQueue.offer}.
 * The sum is the CPU a request costs with the log on.
 *
 * <p>{@code logLine} is what the request's thread pays in jwd itself: {@link AccessLog#log} with the log opened
 * from a configuration, its handlers' prefixes matched, the line formatted and handed to jwd's writer thread, which
 * writes to files under /tmp meanwhile (lines it could not take in time are dropped and counted: printed at the
 * end). {@code handlers}: {@code one} ({@code icm/HTTP/logging_0}, {@code PREFIX=/}), {@code two-split} (a second
 * handler for {@code /sap/}, which the request's {@code /irj/portal} does not match), {@code two-both} (a second
 * handler for {@code /}, which writes the line too).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AccessLogBenchmark {
    @Param({"JWD", "CLF", "JSON"})
    public String format;

    @Param({"one", "two-split", "two-both"})
    public String handlers;

    private LogFormat logFormat;
    private Entry entry;
    private String line;
    private Path dir;
    private RequestLogWriter writer;
    private AccessLog accessLog;

    @Setup
    public void setUp() throws Exception {
        logFormat = LogFormat.of(format);
        Map<String, String> headers = Map.of("User-Agent", "wrk");
        entry = new Entry(System.currentTimeMillis(), "127.0.0.1", "GET", "/irj/portal", null, "HTTP/1.1",
                "/irj/portal", "127.0.0.1", 8080, null, headers::get, 200, 2048, 1_250_000, "!J2EE", "b1",
                "session table", "node0abcdefghijklmnopqrstuv.node0", 0, 900_000);
        line = logFormat.format(entry);
        dir = Files.createTempDirectory("jwd-accesslog-bench");
        writer = new RequestLogWriter(dir.resolve("access.log").toString());
        writer.start();
        String second = switch (handlers) {
            case "one" -> "";
            case "two-split" -> "icm/HTTP/logging_1=PREFIX=/sap/, LOGFILE=" + dir.resolve("sap.log") + "\n";
            default -> "icm/HTTP/logging_1=PREFIX=/, LOGFILE=" + dir.resolve("all.log") + ", LOGFORMAT=" + format + "\n";
        };
        accessLog = AccessLog.open(ConfigReader.parse("server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n"
                + "icm/HTTP/logging_0=PREFIX=/, LOGFILE=" + dir.resolve("jwd-access.log") + ", LOGFORMAT=" + format
                + "\n" + second, "bench"));
    }

    @TearDown
    public void tearDown() throws Exception {
        writer.stop();
        accessLog.close();
        System.err.println("access log: " + accessLog.status().droppedLines() + " lines dropped");
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    @Benchmark
    public String formatLine() {
        return logFormat.format(entry);
    }

    @Benchmark
    public void writeLine() throws IOException {
        writer.write(line);
    }

    @Benchmark
    public void logLine() {
        accessLog.log(entry);
    }
}
