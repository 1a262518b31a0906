package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.jwd.config.ServerConfig;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 17's attack paths through the real Jetty distribution, over HTTP and HTTPS, with the landscape:
 * one J2EE and one ABAP server, {@code icf.url_prefixes=icase:/sap/} and the lines below. Each was forwarded
 * with 200 before; now each is refused (403 by its line, or 400 naming what makes the path ambiguous) and
 * reaches no server, and the Web GUI still reaches the ABAP server over HTTPS. With issue 32's URL forms: mangled
 * segments (read as the ICF reads them), path parameters on any segment, and encoded slashes and semicolons (read as
 * a server that decodes before it splits reads them too).
 */
class PermissionTableWalkaroundIT {
    private static final String TABLE = """
            S /sap/bc/gui/*
            D /sap/bc/admin/*
            D /nwa/*
            """;

    @TempDir
    static Path dir;
    private static TestPki pki;
    private static DemoBackend java;
    private static DemoBackend abap;
    private static JwdProcess jwd;
    private static HttpClient https;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() throws IOException {
        pki = TestPki.get();
        java = DemoBackend.start(DemoBackend.Options.j2ee("java"));
        abap = DemoBackend.start(DemoBackend.Options.abap("abap"));
        Files.writeString(dir.resolve("permissions.txt"), TABLE);
        Path config = dir.resolve("jwd.properties");
        Files.writeString(config, """
                server.java.url=%s
                server.java.type=j2ee
                server.abap.url=%s
                server.abap.type=abap
                icf.url_prefixes=icase:/sap/
                wdisp/permission_table=permissions.txt
                jwd.ssl_keystore=%s
                jwd.ssl_keystore_password=%s
                """.formatted(java.url(), abap.url(), pki.keyStore("jwd"), TestPki.PASSWORD));
        jwd = JwdProcess.startWith(config, Map.of(), "--https-port", "0");
        https = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(pki.clientContext())
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        for (DemoBackend backend : new DemoBackend[] {java, abap}) {
            if (backend != null) {
                backend.close();
            }
        }
    }

    @BeforeEach
    void resetCounts() {
        java.resetCounts();
        abap.resetCounts();
    }

    /** Requests the servers got, less jwd's health checks. */
    private static long forwarded() {
        return java.requestCounts().entrySet().stream().filter(e -> !e.getKey().equals("/"))
                .mapToLong(Map.Entry::getValue).sum()
                + abap.requestCounts().entrySet().stream()
                .filter(e -> !e.getKey().equals(ServerConfig.ABAP_PING_PATH))
                .mapToLong(Map.Entry::getValue).sum();
    }

    private static HttpResponse<String> get(boolean secure, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(secure ? jwd.httpsUri(path) : jwd.uri(path))
                .timeout(Duration.ofSeconds(30)).build();
        return (secure ? https : http).send(request, HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest(name = "{0} over HTTP and HTTPS: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            /sap/bc/ADMIN/x           | jwd: this URL is not permitted (permission table, line 2)
            /SAP/BC/admin/x           | jwd: this URL is not permitted (permission table, line 2)
            /Sap/Bc/Admin/x;p=1       | jwd: this URL is not permitted (permission table, line 2)
            /nwa%3bx/y                | jwd: this URL is not permitted (permission table, line 3)
            /nwa%3B/x                 | jwd: this URL is not permitted (permission table, line 3)
            /sap/bc/admin%3b/x        | jwd: this URL is not permitted (permission table, line 2)
            /irj/x/..%3b/..%3b/nwa    | jwd: bad path: read as a server that decodes %2F and %3B before it splits the path reads it, the path has a dot segment with parameters
            /irj/..%3B/nwa/x          | jwd: bad path: read as a server that decodes %2F and %3B before it splits the path reads it, the path has a dot segment with parameters
            /sap(bD1lbiZjPTAwMQ==)/bc/admin/x | jwd: this URL is not permitted (permission table, line 2)
            /SAP(bD1lbiZjPTAwMQ==)/BC/Admin/x | jwd: this URL is not permitted (permission table, line 2)
            /sap%28bD1l%29/bc/admin/x | jwd: this URL is not permitted (permission table, line 2)
            /sap(not%20base64)/bc/admin/x | jwd: this URL is not permitted (permission table, line 2)
            /nwa(x)/y                 | jwd: this URL is not permitted (permission table, line 3)
            /sap/bc%2Fadmin/x         | jwd: this URL is not permitted (permission table, line 2)
            /sap%2fbc%2Fadmin/x       | jwd: this URL is not permitted (permission table, line 2)
            /sap/BC%2fADMIN/x         | jwd: this URL is not permitted (permission table, line 2)
            /nwa%2Fx                  | jwd: this URL is not permitted (permission table, line 3)
            /irj/..%2Fnwa/x           | jwd: this URL is not permitted (permission table, line 3)
            /irj%2F..%2Fnwa/x         | jwd: this URL is not permitted (permission table, line 3)
            /sap/;jsessionid=1/bc/admin/x | jwd: this URL is not permitted (permission table, line 2)
            /sap;sap-ext-sid=E1/bc/admin;saplb_*=(J2EE1)2/x | jwd: this URL is not permitted (permission table, line 2)
            /nwa;jsessionid=(j1)ID1End/y | jwd: this URL is not permitted (permission table, line 3)
            /irj/%2e%2e/nwa/x         | jwd: bad path: the path has an encoded dot segment
            /irj/..;x/nwa/x           | jwd: bad path: the path has a dot segment with parameters
            /irj//../nwa/x            | jwd: bad path: the path has '..' after an empty segment
            /nwa./x                   | jwd: bad path: the path segment 'nwa.' ends with a dot
            /nwa%2e/x                 | jwd: bad path: the path segment 'nwa.' ends with a dot
            /nwa%20/x                 | jwd: bad path: the path segment 'nwa ' ends with a space
            /sap/bc/admin./x          | jwd: bad path: the path segment 'admin.' ends with a dot
            /sap/bc/ADMIN%20/x        | jwd: bad path: the path segment 'ADMIN ' ends with a space
            """)
    void anAttackPathIsRefusedAndReachesNoServer(String path, String refusal) throws Exception {
        int status = refusal.startsWith("jwd: bad path") ? 400 : 403;
        for (boolean secure : new boolean[] {false, true}) {
            HttpResponse<String> response = get(secure, path);

            assertThat(response.statusCode()).as((secure ? "https " : "http ") + path + ": " + response.body())
                    .isEqualTo(status);
            assertThat(response.body()).startsWith(refusal);
        }
        assertThat(forwarded()).isZero();
    }

    @Test
    void theWebGuiInAnyCaseIsRefusedOverHttpAndReachesTheAbapServerOverHttps() throws Exception {
        HttpResponse<String> overHttp = get(false, "/sap/bc/GUI/echo");
        HttpResponse<String> overHttps = get(true, "/sap/bc/GUI/echo");

        assertThat(overHttp.statusCode()).isEqualTo(403);
        assertThat(overHttp.body())
                .isEqualTo("jwd: this URL is permitted over HTTPS only (permission table, line 1)\n");
        assertThat(overHttps.statusCode()).isEqualTo(200);
        assertThat(overHttps.body()).contains("\"path\":\"/sap/bc/GUI/echo\"");
        assertThat(abap.requestCount("/sap/bc/GUI/echo")).isEqualTo(1);
        assertThat(forwarded()).isEqualTo(1);
    }

    @Test
    void aJ2eePathInAnotherCaseIsAnotherPathAndGoesToTheJavaServerOnly() throws Exception {
        HttpResponse<String> denied = get(false, "/nwa/x");
        HttpResponse<String> otherCase = get(false, "/NWA/echo");

        assertThat(denied.statusCode()).isEqualTo(403);
        // a Java server reads paths case-sensitively: /NWA/echo is not its /nwa application
        assertThat(otherCase.statusCode()).isEqualTo(200);
        assertThat(otherCase.body()).contains("\"path\":\"/NWA/echo\"");
        assertThat(java.requestCount("/NWA/echo")).isEqualTo(1);
        assertThat(forwarded()).isEqualTo(1);
    }
}
