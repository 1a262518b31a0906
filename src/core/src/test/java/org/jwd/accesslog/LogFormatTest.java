package org.jwd.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogFormatTest {
    private static final ZoneId UTC = ZoneId.of("UTC");
    /** 2026-12-01T04:10:00Z */
    private static final long AT = 1_796_098_200_000L;

    private static Entry entry(String uri, String query, String identifier) {
        Map<String, String> headers = Map.of("User-Agent", "curl/8 \"x\"", "Cookie", "JSESSIONID=secret");
        return new Entry(AT, "10.0.0.7", "GET", uri, query, "HTTP/1.1", "/app/page", "jwd.example", 8080, null,
                headers::get, 200, 1234, 15_600_000L, "!J2EE", "j1", "saplb cookie", identifier, 1, 12_300_000L);
    }

    @Test
    void writesTheCommonLogFormatAsSapDoes() {
        assertThat(LogFormat.of("CLF", UTC).format(entry("/app/page", "a=1", null)))
                .isEqualTo("10.0.0.7 - - [01/Dec/2026:04:10:00 +0000] \"GET /app/page?a=1 HTTP/1.1\" 200 1234");
    }

    /**
     * SAP's predefined formats, each with SAP's own example line from
     * <a href="https://help.sap.com/doc/bd78479f4da741a59f5e2a418bd37908/7.4.27/en-US/d1ab8a5b7d3140fe803d004e9a5518db.html">Using
     * Predefined Log File Formats</a> (the request {@code GET /dummy?para=100&user=sap HTTP/1.0}, 86 bytes, 10 ms;
     * SAPSMD's X-CorrelationID {@code A7594F39ED9F7C41BABA7397F8070718-1-5}). SAP's page writes the examples of
     * CLF and CLFMOD at 16:18:35 and those of SAP and SAPSMD at 15:41:35, and SAPSMD's (whose {@code %r0} writes the
     * query) of a request without one.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "CLF    | 2007-10-15T16:18:35+01:00 | para=100&user=sap | `10.18.104.36 - - [15/Oct/2007:16:18:35 +0100] \"GET /dummy?para=100&user=sap HTTP/1.0\" 200 86`",
            "CLFMOD | 2007-10-15T16:18:35+01:00 | para=100&user=sap | `10.18.104.36 - - [15/Oct/2007:16:18:35 +0100] \"GET /dummy HTTP/1.0\" 200 86`",
            "SAP    | 2007-10-15T15:41:35+01:00 | para=100&user=sap | `[15/Oct/2007:15:41:35 +0100] 10.18.104.36 - - \"GET /dummy HTTP/1.0\" 200 86 10`",
            "SAPSMD | 2007-10-15T15:41:35+01:00 |                   | `[15/Oct/2007:15:41:35 +0100] - \"GET /dummy HTTP/1.0\" 200 86 [10] h[A7594F39ED9F7C41BABA7397F8070718-1-5]`",
    })
    void writesSapsPredefinedFormatsAsSapsExamples(String format, String at, String query, String sapsLine) {
        Map<String, String> headers = Map.of("X-CorrelationID", "A7594F39ED9F7C41BABA7397F8070718-1-5");
        Entry e = new Entry(OffsetDateTime.parse(at).toInstant().toEpochMilli(), "10.18.104.36", "GET", "/dummy", query,
                "HTTP/1.0", "/dummy", "ls3022", 8080, null, headers::get, 200, 86, 10_400_000L,
                "!J2EE", "j1", "balanced", null, 0, 9_000_000L);
        assertThat(LogFormat.of(format, ZoneId.of("+01:00")).format(e)).isEqualTo(sapsLine);
    }

    /**
     * SAP's {@code %p0} to {@code %p3} (<a href="https://help.sap.com/doc/saphelp_nw74/7.4.16/en-us/f6/a7f611b4ca45659c7575ccf891893a/content.htm">Defining
     * Your Own Log File Formats</a>): the URI with and without the query, the decoded path without and with it; the
     * session's secrets hidden as in every placeholder.
     */
    @Test
    void writesSapsPathPlaceholders() {
        assertThat(LogFormat.of("%p0 %p1 %p2 %p3", UTC).format(entry("/app;jsessionid=S/x", "a=1&sap-password=p", null)))
                .isEqualTo("/app;jsessionid=*/x?a=1&sap-password=* /app;jsessionid=*/x /app/page /app/page?a=1"
                        + "&sap-password=*");
    }

    @Test
    void refusesSapsmd2WhichWouldWriteEveryHeaderField() {
        assertThatThrownBy(() -> LogFormat.of("SAPSMD2")).hasMessageContaining("SAPSMD2")
                .hasMessageContaining("write SAPSMD");
    }

    @Test
    void writesJwdsRoutingDecisionInItsOwnFormat() {
        assertThat(LogFormat.of("JWD", UTC).format(entry("/app/page", "a=1", "ABC123")))
                .isEqualTo("10.0.0.7 - - [01/Dec/2026:04:10:00 +0000] \"GET /app/page HTTP/1.1\" 200 1234 15 !J2EE j1"
                        + " \"saplb cookie\" " + LogFormat.sessionHash("ABC123") + " 1 12");
    }

    @Test
    void hashesTheSessionIdentifierAsSha256sumDoes() {
        // printf %s ABC123 | sha256sum | cut -c1-8
        assertThat(LogFormat.sessionHash("ABC123")).isEqualTo("e0bebd22");
    }

    @Test
    void writesEveryPlaceholderOfACustomFormat() {
        assertThat(LogFormat.of("%a %H %S %T %D %r2 %f %{User-Agent}i %{wait}j %{retries}j 100%%", UTC)
                .format(entry("/app/page", null, null)))
                .isEqualTo("10.0.0.7 jwd.example 8080 0 15600 GET /app/page HTTP/1.1 /app/page curl/8 \\\"x\\\" 12 1"
                        + " 100%");
    }

    @Test
    void writesTheTransactionIdOfSapsPassport() {
        Map<String, String> headers = Map.of("SAP-PASSPORT", SapPassportTest.PASSPORT);
        Entry withPassport = new Entry(AT, "10.0.0.7", "GET", "/sap/bc/ui5", null, "HTTP/1.1", "/sap/bc/ui5",
                "jwd.example", 8080, null, headers::get, 200, 1234, 15_600_000L, "!DIAG", "a1", "balanced", null, 0,
                12_300_000L);

        assertThat(LogFormat.of("%s %{passport}j", UTC).format(withPassport))
                .isEqualTo("200 5E2B0C6A93F14D7C8B11A2D4E6F80123");
        assertThat(LogFormat.of("%s %{passport}j", UTC).format(entry("/app/page", null, null))).isEqualTo("200 -");
    }

    @Test
    void hidesSessionIdentifiersAndPasswordsInPathsAndQueries() {
        assertThat(LogFormat.redacted("/app;jsessionid=ABC.node1/x?sap-contextid=SID:1&q=2&sap-password=pw"))
                .isEqualTo("/app;jsessionid=*/x?sap-contextid=*&q=2&sap-password=*");
        assertThat(LogFormat.of("%r", UTC).format(entry("/a;sap-ext-sid=XYZ", "jsessionid=J", null)))
                .isEqualTo("GET /a;sap-ext-sid=*?jsessionid=* HTTP/1.1");
    }

    /** BSP's session id in the mangled segment (s=SID%3aANON%3a...) is a session identifier too; l=en&c=001 is not. */
    @Test
    void hidesTheSessionIdOfAMangledSegment() {
        assertThat(LogFormat.redacted("/sap(cz1TSUQlM2FBTk9OJTNhaDJfSldEXzAxJTNhNDcxMS1ORVc=)/bc/bsp/x;jsessionid=J"))
                .isEqualTo("/sap(*)/bc/bsp/x;jsessionid=*");
        assertThat(LogFormat.redacted("/sap(bD1lbiZjPTAwMQ==)/bc/bsp/x?q=(s)")).isEqualTo("/sap(bD1lbiZjPTAwMQ==)/bc/bsp/x?q=(s)");
        assertThat(LogFormat.redacted("/odata/EMPLOYEES('A%2FB')")).isEqualTo("/odata/EMPLOYEES('A%2FB')");
    }

    @Test
    void refusesToWriteCookiesOrCredentials() {
        assertThatThrownBy(() -> LogFormat.of("%{Cookie}i")).hasMessageContaining("%{Cookie}i")
                .hasMessageContaining("refused");
        assertThatThrownBy(() -> LogFormat.of("%{authorization}i")).hasMessageContaining("refused");
    }

    @Test
    void namesAnUnknownPlaceholder() {
        assertThatThrownBy(() -> LogFormat.of("%h %q")).hasMessageContaining("'%q' is no placeholder");
        assertThatThrownBy(() -> LogFormat.of("%{node}j")).hasMessageContaining("'%{node}j'");
    }

    @Test
    void escapesWhatTheClientSent() {
        assertThat(LogFormat.of("%U", UTC).format(entry("/a\"b\n\u00e9", null, null))).isEqualTo("/a\\\"b\\x0a\\xe9");
    }

    @Test
    void writesOneJsonObjectPerLine() {
        assertThat(LogFormat.of("json", UTC).format(entry("/app;jsessionid=S", "q=1", "ABC123")))
                .isEqualTo("{\"time\":\"2026-12-01T04:10:00Z\",\"client\":\"10.0.0.7\",\"method\":\"GET\","
                        + "\"uri\":\"/app;jsessionid=*\",\"protocol\":\"HTTP/1.1\",\"status\":200,\"bytes\":1234,"
                        + "\"duration_ms\":15,\"group\":\"!J2EE\",\"server\":\"j1\",\"reason\":\"saplb cookie\","
                        + "\"session\":\"" + LogFormat.sessionHash("ABC123") + "\",\"retries\":1,\"wait_ms\":12}");
    }
}
