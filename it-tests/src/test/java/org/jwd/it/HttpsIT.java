package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS through the real Jetty distribution: termination (an HTTPS client, servers over plain HTTP),
 * re-encryption ({@code wdisp/ssl_encrypt} 1 and 2, servers over HTTPS, checked against a test CA), a server
 * whose certificate names another host, HTTP/2 over TLS, and servers whose HTTPS port fails or who have no other.
 * Three dispatchers, one per {@code wdisp/ssl_encrypt} value (and one of its own for the HTTPS ports' health);
 * every one terminates TLS with the test CA's certificate for 127.0.0.1.
 */
class HttpsIT {
    private static TestPki pki;
    private static DemoBackend plainA;
    private static DemoBackend plainB;
    private static DemoBackend secureA;
    private static DemoBackend secureB;
    private static DemoBackend wrong;
    /** wdisp/ssl_encrypt=0: plainA and plainB */
    private static JwdProcess terminating;
    /** wdisp/ssl_encrypt=2: secureA and secureB */
    private static JwdProcess likeClient;
    /** wdisp/ssl_encrypt=1: secureA for J2EE, wrong (a certificate for wrong.example) for ABAP */
    private static JwdProcess always;
    private static HttpClient https;
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() {
        pki = TestPki.get();
        DemoBackend.Tls serverCert = new DemoBackend.Tls(pki.keyStore("server"), TestPki.PASSWORD);
        plainA = DemoBackend.start(DemoBackend.Options.j2ee("plainA"));
        plainB = DemoBackend.start(DemoBackend.Options.j2ee("plainB"));
        secureA = DemoBackend.start(DemoBackend.Options.j2ee("secureA"), serverCert);
        secureB = DemoBackend.start(DemoBackend.Options.j2ee("secureB"), serverCert);
        wrong = DemoBackend.start(DemoBackend.Options.abap("wrong"),
                new DemoBackend.Tls(pki.keyStore("wrong"), TestPki.PASSWORD));
        String termination = """
                jwd.ssl_keystore=%s
                jwd.ssl_keystore_password=%s
                wdisp/ssl_truststore=%s
                wdisp/ssl_truststore_password=%s
                """.formatted(pki.keyStore("jwd"), TestPki.PASSWORD, pki.trustStore(), TestPki.PASSWORD);
        terminating = JwdProcess.start(termination + """
                server.plainA.url=%s
                server.plainA.type=j2ee
                server.plainB.url=%s
                server.plainB.type=j2ee
                """.formatted(plainA.url(), plainB.url()), Map.of(), "--https-port", "0");
        likeClient = JwdProcess.start(termination + """
                wdisp/ssl_encrypt=2
                server.secureA.url=%s
                server.secureA.https_url=%s
                server.secureA.type=j2ee
                server.secureB.url=%s
                server.secureB.https_url=%s
                server.secureB.type=j2ee
                """.formatted(secureA.url(), secureA.httpsUrl(), secureB.url(), secureB.httpsUrl()), Map.of(),
                "--https-port", "0");
        always = JwdProcess.start(termination + """
                wdisp/ssl_encrypt=1
                server.secureA.url=%s
                server.secureA.https_url=%s
                server.secureA.type=j2ee
                server.wrong.url=%s
                server.wrong.https_url=%s
                server.wrong.type=abap
                icf.url_prefixes=/sap/
                # the HTTPS checks would take wrong out of !DIAGS: the test is about what a request meets before
                health.interval=1h
                """.formatted(secureA.url(), secureA.httpsUrl(), wrong.url(), wrong.httpsUrl()), Map.of(),
                "--https-port", "0");
        https = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(pki.clientContext()).build();
    }

    @AfterAll
    static void stop() {
        for (JwdProcess jwd : new JwdProcess[] {terminating, likeClient, always}) {
            if (jwd != null) {
                jwd.close();
            }
        }
        for (DemoBackend b : new DemoBackend[] {plainA, plainB, secureA, secureB, wrong}) {
            if (b != null) {
                b.close();
            }
        }
    }

    @Test
    void terminatesTlsAndTellsThePlainHttpServerThatTheClientUsedHttps() throws Exception {
        HttpResponse<String> response = https.send(HttpRequest.newBuilder(terminating.httpsUri("/irj/echo")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(subject(response)).isEqualTo("CN=jwd");
        String body = response.body().toLowerCase();
        assertThat(body).contains("\"x-forwarded-proto\":[\"https\"]", "\"scheme\":\"http\"");
        // SAP's clientprotocol and x-sap-webdisp-ap: how an ABAP or Java server builds https:// URLs behind jwd
        assertThat(body).contains("\"clientprotocol\":[\"https\"]", "\"x-sap-webdisp-ap\":[\"http="
                + terminating.port() + ";https=" + terminating.httpsUri().getPort() + "\"]");
        assertThat(response.headers().firstValue("X-Served-By")).get().isIn("plainA", "plainB");
    }

    @Test
    void plainHttpStillWorksBesideHttps() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(terminating.uri("/irj/echo")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body().toLowerCase()).contains("\"x-forwarded-proto\":[\"http\"]", "\"scheme\":\"http\"");
    }

    @Test
    void sslEncrypt2ReEncryptsWhatCameOverTlsAndForwardsPlainHttpAsPlainHttp() throws Exception {
        Set<String> servedOverTls = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> secure = https.send(HttpRequest.newBuilder(likeClient.httpsUri("/irj/echo")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(secure.statusCode()).isEqualTo(200);
            assertThat(secure.body().toLowerCase()).contains("\"scheme\":\"https\"", "\"x-forwarded-proto\":[\"https\"]");
            servedOverTls.add(secure.headers().firstValue("X-Served-By").orElseThrow());
        }
        HttpResponse<String> plain = http.send(HttpRequest.newBuilder(likeClient.uri("/irj/echo")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(servedOverTls).containsExactlyInAnyOrder("secureA", "secureB");
        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(plain.body().toLowerCase()).contains("\"scheme\":\"http\"", "\"x-forwarded-proto\":[\"http\"]");
    }

    @Test
    void sslEncrypt1ReEncryptsEvenWhatCameOverPlainHttp() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(always.uri("/irj/echo")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Served-By")).contains("secureA");
        assertThat(response.body().toLowerCase()).contains("\"scheme\":\"https\"", "\"x-forwarded-proto\":[\"http\"]");
    }

    @Test
    void aServerWhoseCertificateNamesAnotherHostGets502AndIsNamedInTheLogNeverPlainHttp() throws Exception {
        HttpResponse<String> response = https.send(HttpRequest.newBuilder(always.httpsUri("/sap/bc/echo")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.body()).contains("server wrong (" + wrong.httpsUrl() + ")", "TLS handshake failed",
                "127.0.0.1");
        // (its plain url answers the health checks' pings: count the echo alone)
        assertThat(wrong.requestCount("/sap/bc/echo")).as("no silent downgrade to the server's plain url").isZero();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(always.log()).anySatisfy(line -> assertThat(line)
                        .contains("jwd: TLS to server wrong (" + wrong.httpsUrl() + ") failed")));
    }

    @Test
    void aServerWhoseHttpsPortFailsLeavesTheSecureGroupOnlyAndOneWithOnlyAnHttpsPortServesOnlyHttps()
            throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        // brokenTls: plainB's plain port is fine, nothing listens on its https_url; tlsOnly: secureB's HTTPS port alone
        try (JwdProcess jwd = JwdProcess.start("""
                jwd.ssl_keystore=%s
                jwd.ssl_keystore_password=%s
                wdisp/ssl_truststore=%s
                wdisp/ssl_truststore_password=%s
                wdisp/ssl_encrypt=2
                server.a.url=%s
                server.a.https_url=%s
                server.a.type=j2ee
                server.brokenTls.url=%s
                server.brokenTls.https_url=https://127.0.0.1:%d
                server.brokenTls.type=j2ee
                server.tlsOnly.https_url=%s
                server.tlsOnly.type=j2ee
                health.interval=300ms
                health.fall=1
                """.formatted(pki.keyStore("jwd"), TestPki.PASSWORD, pki.trustStore(), TestPki.PASSWORD,
                secureA.url(), secureA.httpsUrl(), plainB.url(), closedPort, secureB.httpsUrl())
                + AdminClient.CONFIG, Map.of(), "--https-port", "0")) {
            AdminClient admin = new AdminClient(jwd);
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> admin.server("brokenTls")
                    .get("https") instanceof Map<?, ?> port && "down".equals(port.get("state")));
            Map<String, Object> brokenTls = admin.server("brokenTls");
            assertThat(brokenTls).containsEntry("state", "up").containsEntry("healthy", true);
            assertThat((String) ((Map<?, ?>) brokenTls.get("https")).get("last_check"))
                    .startsWith("GET https://127.0.0.1:" + closedPort + "/: ");
            // SPACE holds every server, as SAP's default logon group does
            assertThat(admin.server("tlsOnly")).containsEntry("url", null).containsEntry("state", "up")
                    .containsEntry("groups", List.of("!J2EES", "SPACE"));

            Set<String> overTls = new HashSet<>();
            Set<String> overHttp = new HashSet<>();
            for (int i = 0; i < 9; i++) {
                HttpResponse<String> secure = https.send(HttpRequest.newBuilder(jwd.httpsUri("/irj/echo")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(secure.statusCode()).isEqualTo(200);
                overTls.add(secure.headers().firstValue("X-Served-By").orElseThrow());
                HttpResponse<String> plain = http.send(HttpRequest.newBuilder(jwd.uri("/irj/echo")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(plain.statusCode()).isEqualTo(200);
                overHttp.add(plain.headers().firstValue("X-Served-By").orElseThrow());
            }
            assertThat(overTls).as("!J2EES: a and tlsOnly; brokenTls left it").containsExactlyInAnyOrder("secureA",
                    "secureB");
            assertThat(overHttp).as("!J2EE: a and brokenTls, still serving plain HTTP; tlsOnly has no url")
                    .containsExactlyInAnyOrder("secureA", "plainB");
        }
    }

    @Test
    void http2OverTlsReachesTheServersAsHttp11AndKeepsItsSession() throws Exception {
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(pki.clientContext())
                .build();
        HttpResponse<String> first = h2.send(HttpRequest.newBuilder(terminating.httpsUri("/irj/echo")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(first.body()).contains("\"protocol\":\"HTTP/1.1\"", "\"newSession\":true");
        assertThat(first.body().toLowerCase()).contains("\"x-forwarded-proto\":[\"https\"]",
                "\"x-forwarded-host\":[\"127.0.0.1:" + terminating.httpsUri().getPort() + "\"]");
        String server = first.headers().firstValue("X-Served-By").orElseThrow();
        List<String> cookies = new ArrayList<>();
        for (String setCookie : first.headers().allValues("Set-Cookie")) {
            cookies.add(setCookie.split(";", 2)[0]);
        }
        assertThat(cookies).anySatisfy(c -> assertThat(c).startsWith("JSESSIONID="))
                .anySatisfy(c -> assertThat(c).startsWith("saplb_*="));

        for (int i = 0; i < 6; i++) {
            HttpResponse<String> next = h2.send(HttpRequest.newBuilder(terminating.httpsUri("/irj/echo"))
                    .header("Cookie", String.join("; ", cookies)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(next.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(next.headers().firstValue("X-Served-By")).contains(server);
            assertThat(next.body()).contains("\"protocol\":\"HTTP/1.1\"", "\"newSession\":false");
        }
    }

    @Test
    void httpsPortWithoutAKeystoreIsRefusedBeforeAnythingStarts(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("plain.properties");
        Files.writeString(config, "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n");

        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(30), "run", "--config", config.toString(),
                "--https-port", "0");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("--https-port needs a keystore: jwd.ssl_keystore");
    }

    @Test
    void aKeystoreThatDoesNotOpenStopsTheStartNamingTheKey(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("bad.properties");
        Files.writeString(config, """
                server.a.url=http://127.0.0.1:1
                server.a.https_url=https://127.0.0.1:2
                server.a.type=j2ee
                jwd.ssl_keystore=%s
                jwd.ssl_keystore_password=not-the-password
                wdisp/ssl_encrypt=3
                """.formatted(pki.keyStore("jwd")));

        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(120), "run", "--config", config.toString(),
                "--port", "0", "--https-port", "0");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("jwd: the configuration " + config.toRealPath() + " is invalid:",
                "jwd.ssl_keystore = '" + pki.keyStore("jwd") + "': expected a PKCS12 or JKS keystore that"
                        + " jwd.ssl_keystore_password opens",
                "wdisp/ssl_encrypt = '3': expected 0 (plain HTTP to the servers), 1 (HTTPS) or 2")
                .doesNotContain("not-the-password", "jwd: ready");
    }

    private static String subject(HttpResponse<?> response) throws Exception {
        X509Certificate peer = (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
        return peer.getSubjectX500Principal().getName();
    }
}
