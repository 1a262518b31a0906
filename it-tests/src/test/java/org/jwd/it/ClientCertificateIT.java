package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import javax.net.ssl.SSLContext;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * X.509 logon through jwd terminating TLS, as through SAP's Web Dispatcher ("X.509-Based Logon to NetWeaver AS from
 * SAP Web Dispatcher", help.sap.com): jwd asks for the client's certificate ({@code icm/HTTPS/verify_client}),
 * checks it against the CAs of its keystore, and passes it to the server in {@code SSL_CLIENT_CERT} and
 * {@code SSL_CLIENT_CERT_CHAIN_1} ({@code icm/HTTPS/forward_ccert_as_header}); a header of those names that a client
 * sent itself never reaches the server, unless the client is a dispatcher in front whose certificate has the trusted
 * subject and issuer ({@code icm/HTTPS/trust_client_with_*}). Certificates of {@link TestPki}; the JDK's HTTP client.
 */
class ClientCertificateIT {
    private static final String FORGED = "Zm9yZ2VkIGNlcnRpZmljYXRl";
    private static TestPki pki;
    private static DemoBackend server;
    /** verify_client=2: a valid certificate or no connection */
    private static JwdProcess requiring;
    /** verify_client=1 (SAP's default): asked for; the front dispatcher is a trusted intermediary */
    private static JwdProcess asking;

    @BeforeAll
    static void start() {
        pki = TestPki.get();
        server = DemoBackend.start(DemoBackend.Options.j2ee("j"));
        String common = """
                jwd.ssl_keystore=%s
                jwd.ssl_keystore_password=%s
                server.j.url=%s
                server.j.type=j2ee
                icm/HTTPS/forward_ccert_as_header=true
                """.formatted(pki.keyStore("jwd"), TestPki.PASSWORD, server.url());
        requiring = JwdProcess.start(common + "icm/HTTPS/verify_client=2\n", Map.of(), "--https-port", "0");
        asking = JwdProcess.start(common + """
                icm/HTTPS/trust_client_with_subject=CN=front dispatcher, O=Example
                icm/HTTPS/trust_client_with_issuer=CN=jwd test CA
                """, Map.of(), "--https-port", "0");
    }

    @AfterAll
    static void stop() {
        for (JwdProcess jwd : new JwdProcess[] {requiring, asking}) {
            if (jwd != null) {
                jwd.close();
            }
        }
        if (server != null) {
            server.close();
        }
    }

    private static HttpClient client(SSLContext tls) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** The headers the server received (names in lower case) for a GET with {@code headers} ("name", "value"...). */
    @SuppressWarnings("unchecked")
    private static Map<String, List<String>> received(HttpClient client, URI uri, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Map<String, Object> json = (Map<String, Object>) ClientJson.parse(response.body());
        Map<String, List<String>> received = new TreeMap<>();
        ((Map<String, Object>) json.get("headers")).forEach((k, v) ->
                received.put(k.toLowerCase(Locale.ROOT), (List<String>) v));
        return received;
    }

    private static String base64(X509Certificate certificate) throws Exception {
        return Base64.getEncoder().encodeToString(certificate.getEncoded());
    }

    @Test
    void aClientCertificateReachesTheServerAsSapsHeaderFieldsInsteadOfTheForgedOne() throws Exception {
        List<X509Certificate> chain = pki.chain("client");

        Map<String, List<String>> received = received(client(pki.clientContext("client")),
                requiring.httpsUri("/irj/echo"), "SSL_CLIENT_CERT", FORGED, "SSL_CLIENT_CERT_CHAIN_2", FORGED);

        // "SSL_CLIENT_CERT: Base64-coded data, one line"; "SSL_CLIENT_CERT_CHAIN_1: first non-root CA certificate";
        // the root "must not be transferred to the server"
        assertThat(received.get("ssl_client_cert")).containsExactly(base64(chain.get(0)));
        assertThat(received.get("ssl_client_cert_chain_1")).containsExactly(base64(chain.get(1)));
        assertThat(received).doesNotContainKey("ssl_client_cert_chain_2");
        assertThat(received.get("ssl_cipher_suite")).singleElement().asString().startsWith("TLS_");
        assertThat(received.get("ssl_cipher_usekeysize")).singleElement().asString().matches("\\d+");
        assertThat(chain.get(0).getSubjectX500Principal().getName()).isEqualTo("CN=client user,O=Example");
    }

    @Test
    void withVerifyClient2AnUntrustedCertificateOrNoneIsRefusedInTheHandshake() {
        URI uri = requiring.httpsUri("/irj/echo");
        long before = server.requestCount("/irj/echo");

        assertThatThrownBy(() -> received(client(pki.clientContext("mallory")), uri)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> received(client(pki.clientContext()), uri)).isInstanceOf(IOException.class);
        assertThat(server.requestCount("/irj/echo")).isEqualTo(before);
    }

    @Test
    void withVerifyClient1AClientWithoutCertificateIsServedAndItsForgedHeadersRemoved() throws Exception {
        Map<String, List<String>> received = received(client(pki.clientContext()), asking.httpsUri("/irj/echo"),
                "SSL_CLIENT_CERT", FORGED, "SSL-Client-Cert-Chain-1", FORGED, "SSL_CIPHER_USEKEYSIZE", "4096");

        assertThat(received).doesNotContainKeys("ssl_client_cert", "ssl-client-cert-chain-1");
        assertThat(received.get("ssl_cipher_usekeysize")).singleElement().asString().isNotEqualTo("4096");
    }

    @Test
    void overPlainHttpEveryCertificateHeaderIsRemoved() throws Exception {
        Map<String, List<String>> received = received(HttpClient.newHttpClient(), asking.uri("/irj/echo"),
                "SSL_CLIENT_CERT", FORGED, "ssl_cipher_suite", "TLS_FORGED");

        assertThat(received.keySet()).noneMatch(k -> k.startsWith("ssl"));
    }

    @Test
    void aTrustedDispatcherInFrontPassesItsUsersCertificateAndItsOwnIsNotTheUsers() throws Exception {
        String user = base64(pki.chain("client").get(0));

        Map<String, List<String>> front = received(client(pki.clientContext("front")), asking.httpsUri("/irj/echo"),
                "SSL_CLIENT_CERT", user, "SSL_CIPHER_SUITE", "front's suite");
        Map<String, List<String>> other = received(client(pki.clientContext("client")),
                asking.httpsUri("/irj/echo"), "SSL_CLIENT_CERT", FORGED);

        assertThat(front.get("ssl_client_cert")).containsExactly(user);
        assertThat(front.get("ssl_cipher_suite")).containsExactly("front's suite");
        // the same header from a client that is no trusted intermediary is its own certificate, never its claim
        assertThat(other.get("ssl_client_cert")).containsExactly(user);
        assertThat(other.get("ssl_client_cert")).doesNotContain(FORGED);
    }
}
