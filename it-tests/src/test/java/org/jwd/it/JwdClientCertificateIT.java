package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jwd's own client certificate towards the servers, as SAP's Web Dispatcher presents its SSL client PSE with
 * {@code wdisp/ssl_auth} ("Setting the SSL Profile Parameters for the SAP Web Dispatcher", help.sap.com): a server
 * that requires a client certificate (an ICM with {@code icm/HTTPS/verify_client=2}) accepts jwd's, the PKCS#12 file
 * {@code wdisp/ssl_cred} names ({@link TestPki}'s {@code front}, signed by the test CA), while a server whose own
 * certificate jwd does not trust still gets its 502. The health checks present it too, or the requiring server would
 * be taken for down.
 */
class JwdClientCertificateIT {
    @TempDir
    static Path dir;
    private static DemoBackend requiring;
    private static DemoBackend untrusted;
    private static JwdProcess jwd;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        TestPki pki = TestPki.get();
        requiring = DemoBackend.start(DemoBackend.Options.j2ee("requiring"), new DemoBackend.Tls(
                pki.keyStore("server"), TestPki.PASSWORD, pki.trustStore()));
        untrusted = DemoBackend.start(DemoBackend.Options.abap("untrusted"), new DemoBackend.Tls(
                pki.keyStore("mallory"), TestPki.PASSWORD));
        Files.writeString(dir.resolve("cred-pin"), TestPki.PASSWORD);
        jwd = JwdProcess.start("""
                wdisp/ssl_encrypt=1
                wdisp/ssl_truststore=%s
                wdisp/ssl_truststore_password=${env:JWD_TEST_TRUST_PIN}
                wdisp/ssl_auth=2
                wdisp/ssl_cred=%s
                wdisp/ssl_cred_password=${file:%s}
                ssl/client_ciphersuites=150:PFS:HIGH::EC_P256:EC_HIGH
                server.requiring.https_url=%s
                server.requiring.type=j2ee
                server.untrusted.https_url=%s
                server.untrusted.type=abap
                icf.url_prefixes=/sap/
                health.interval=1h
                """.formatted(pki.trustStore(), pki.keyStore("front"), dir.resolve("cred-pin"), requiring.httpsUrl(),
                untrusted.httpsUrl()) + AdminClient.CONFIG, Map.of("JWD_TEST_TRUST_PIN", TestPki.PASSWORD));
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        for (DemoBackend b : new DemoBackend[] {requiring, untrusted}) {
            if (b != null) {
                b.close();
            }
        }
    }

    @Test
    void aServerThatRequiresAClientCertificateIsReachedWithJwds() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Served-By")).contains("requiring");
        assertThat(response.body()).contains("\"scheme\":\"https\"",
                "\"clientCertificate\":\"CN=front dispatcher,O=Example\"");
    }

    @Test
    void aServerWhoseCertificateJwdDoesNotTrustStillGetsIts502() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(jwd.uri("/sap/bc/echo")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.body()).contains("server untrusted", "TLS handshake failed");
        assertThat(untrusted.requestCount("/sap/bc/echo")).isZero();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theClientCertificateIsShownBesideTheListenersAndItsHealthChecksPass() {
        AdminClient admin = new AdminClient(jwd);

        List<Map<String, Object>> listeners = (List<Map<String, Object>>) admin.object("/jwd/admin/api/tls")
                .get("listeners");
        assertThat(listeners).singleElement().satisfies(l -> {
            assertThat(l).containsEntry("listener", "towards the servers (wdisp/ssl_cred)");
            assertThat((List<Map<String, Object>>) l.get("certificates")).singleElement().satisfies(c ->
                    assertThat(c).containsEntry("subject", "CN=front dispatcher,O=Example"));
        });
        assertThat(admin.server("requiring")).containsEntry("healthy", true);
    }
}
