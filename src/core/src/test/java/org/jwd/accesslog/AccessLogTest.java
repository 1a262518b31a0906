package org.jwd.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.config.ConfigException;

/** Several logging handlers: which requests each writes, and what they cost in threads. */
class AccessLogTest {
    /** 2026-12-01T04:10:00Z */
    private static final long AT = 1_796_098_200_000L;

    @TempDir
    Path dir;

    private AccessLog open(String... values) throws ConfigException {
        List<AccessLogConfig> configs = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            configs.add(AccessLogConfig.parse(AccessLogConfig.KEY_PREFIX + i, values[i]).orElseThrow());
        }
        return AccessLog.open(configs, AT, System::nanoTime, AccessLogWriter.BATCH_NANOS, ZoneId.of("UTC"));
    }

    private static Entry request(String uri, Map<String, String> headers) {
        return new Entry(AT, "10.0.0.7", "GET", uri, null, "HTTP/1.1", uri, "jwd.example", 8080, null, headers::get,
                200, 10, 1_000_000L, "!J2EE", "j1", "balanced", null, 0, 500_000L);
    }

    private List<String> lines(String file) throws Exception {
        return Files.readAllLines(dir.resolve(file));
    }

    /** SAP calls every logging handler whose prefix matches: a logging handler never ends the handlers' chain. */
    @Test
    void writesARequestToEveryHandlerWhosePrefixTakesIt() throws Exception {
        try (AccessLog log = open("PREFIX=/sap/, LOGFILE=" + dir + "/abap.log, LOGFORMAT=%U",
                "PREFIX=/irj/, LOGFILE=" + dir + "/portal.log, LOGFORMAT=%U",
                "PREFIX=/, LOGFILE=" + dir + "/all.log, LOGFORMAT=%U")) {
            log.log(request("/sap/bc/gui", Map.of()));
            log.log(request("/irj/portal", Map.of()));
            log.log(request("/favicon.ico", Map.of()));
        }
        assertThat(lines("abap.log")).containsExactly("/sap/bc/gui");
        assertThat(lines("portal.log")).containsExactly("/irj/portal");
        assertThat(lines("all.log")).containsExactly("/sap/bc/gui", "/irj/portal", "/favicon.ico");
    }

    /** SAP's FILTER=SAPSMD: only the requests Solution Manager Diagnostics marked with an X-CorrelationID. */
    @Test
    void writesOnlyTheRequestsWithAnXCorrelationIdWithFilterSapsmd() throws Exception {
        try (AccessLog log = open("PREFIX=/, LOGFILE=" + dir + "/smd.log, FILTER=SAPSMD, LOGFORMAT=SAPSMD")) {
            log.log(request("/sap/bc/gui", Map.of()));
            log.log(request("/sap/bc/ping", Map.of("X-CorrelationID", "A7594F39ED9F7C41BABA7397F8070718-1-5")));
            log.log(request("/sap/bc/ping", Map.of("X-CorrelationID", "")));
        }
        assertThat(lines("smd.log")).containsExactly("[01/Dec/2026:04:10:00 +0000] - \"GET /sap/bc/ping HTTP/1.1\""
                + " 200 10 [1] h[A7594F39ED9F7C41BABA7397F8070718-1-5]");
    }

    @Test
    void writesEveryHandlersFilesWithOneThread() throws Exception {
        long before = writerThreads();
        try (AccessLog log = open("PREFIX=/a/, LOGFILE=" + dir + "/a.log", "PREFIX=/b/, LOGFILE=" + dir + "/b.log",
                "PREFIX=/c/, LOGFILE=" + dir + "/c.log")) {
            assertThat(writerThreads() - before).isEqualTo(1);
            assertThat(log.statuses()).extracting(AccessLogStatus::key)
                    .containsExactly("icm/HTTP/logging_0", "icm/HTTP/logging_1", "icm/HTTP/logging_2");
            assertThat(log.status().file()).isEqualTo(dir + "/a.log");
        }
    }

    @Test
    void namesTheHandlerWhoseFileCannotBeOpened() throws Exception {
        Files.createDirectory(dir.resolve("b.log")); // not a file: it cannot be opened, even by root
        assertThatThrownBy(() -> open("LOGFILE=" + dir + "/a.log", "LOGFILE=" + dir + "/b.log"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("icm/HTTP/logging_1: LOGFILE = '" + dir + "/b.log': cannot open");
    }

    private static long writerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("jwd-accesslog") && t.isAlive()).count();
    }
}
