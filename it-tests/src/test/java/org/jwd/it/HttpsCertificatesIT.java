package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import org.awaitility.Awaitility;
import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlPage;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS as SAP administrators run it, through the real distribution: two {@code PROT=HTTPS} lines with their own
 * {@code icm/ssl_config_<xx>} ({@code CRED}, {@code SNI_CREDS}, passwords from a file and from the environment), the
 * name a client asks for (SNI) choosing the certificate, and a renewed key store taken by the same process within
 * the watch's interval while a broken one keeps the certificate in force, as the admin API and the metrics show.
 * Certificates of {@link TestPki}: {@code portal} (portal.example, 127.0.0.1) and {@code erp} (erp.example).
 */
class HttpsCertificatesIT {
    @TempDir
    static Path dir;
    private static TestPki pki;
    private static DemoBackend server;
    private static JwdProcess jwd;
    /** icm/server_port_1: ssl_config_1, CRED portal, SNI_CREDS erp */
    private static URI sniPort;
    /** icm/server_port_2: ID=erp, CRED its own copy of erp */
    private static URI erpPort;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.get();
        server = DemoBackend.start(DemoBackend.Options.j2ee("j"));
        for (String name : new String[] {"portal", "erp"}) {
            Files.copy(pki.keyStore(name), dir.resolve(name + ".p12"));
        }
        Files.copy(pki.keyStore("erp"), dir.resolve("erp-only.p12"));
        Files.writeString(dir.resolve("pin"), TestPki.PASSWORD + "\n");
        Path config = dir.resolve("jwd.properties");
        Files.writeString(config, """
                server.j.url=%s
                server.j.type=j2ee
                icm/ssl_config_1 = CRED=portal.p12, SNI_CREDS=erp.p12, PIN=${file:pin}
                icm/ssl_config_2 = ID=erp, CRED=erp-only.p12, VCLIENT=0, PIN=${env:JWD_TEST_ERP_PIN}
                icm/server_port_1 = PROT=HTTPS, PORT=0, HOST=127.0.0.1, SSLCONFIG=ssl_config_1
                icm/server_port_2 = PROT=HTTPS, PORT=0, HOST=127.0.0.1, SSLCONFIG=erp
                ssl/ciphersuites = 135:PFS:HIGH::EC_P256:EC_HIGH
                jwd.config_watch=200ms
                """.formatted(server.url()) + AdminClient.CONFIG);
        jwd = JwdProcess.startWith(config, Map.of("JWD_TEST_ERP_PIN", TestPki.PASSWORD));
        List<URI> https = jwd.httpsUris(2);
        sniPort = https.get(0);
        erpPort = https.get(1);
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** The subject of the certificate the listener presents to a client asking for {@code name} (none: null). */
    private static String presented(URI listener, String name) throws IOException {
        try (SSLSocket socket = handshake(listener, name)) {
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
        }
    }

    private static SSLSocket handshake(URI listener, String name) throws IOException {
        SSLSocket socket = (SSLSocket) pki.clientContext().getSocketFactory().createSocket(listener.getHost(),
                listener.getPort());
        socket.setSoTimeout(10_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(name == null ? List.of() : List.of(new SNIHostName(name)));
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    /** One request on an open TLS connection; its status line. */
    private static String get(SSLSocket socket, String host, String path) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                StandardCharsets.ISO_8859_1));
        String status = in.readLine();
        long length = 0;
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Long.parseLong(line.substring(15).strip());
            }
        }
        in.skip(length);
        return status;
    }

    @Test
    void twoNamesOnOnePortEachGetTheirCertificateAndAnyOtherNameTheFirst() throws Exception {
        // (CN=portal-renewed.example once the renewal test ran)
        assertThat(presented(sniPort, "erp.example")).isEqualTo("CN=erp.example");
        assertThat(presented(sniPort, "other.example")).startsWith("CN=portal");
        assertThat(presented(sniPort, null)).startsWith("CN=portal");
    }

    @Test
    void twoHttpsPortsPresentTheirOwnCredentialsAndBothForward() throws Exception {
        assertThat(presented(erpPort, "portal.example")).isEqualTo("CN=erp.example");
        try (SSLSocket erp = handshake(erpPort, "erp.example")) {
            assertThat(get(erp, "erp.example", "/irj/echo")).isEqualTo("HTTP/1.1 200 OK");
        }
        try (SSLSocket portal = handshake(sniPort, "portal.example")) {
            assertThat(get(portal, "portal.example", "/irj/echo")).isEqualTo("HTTP/1.1 200 OK");
        }
    }

    @Test
    void aRenewedKeyStoreIsServedToNewHandshakesByTheSameProcessAndOpenConnectionsKeepTheirs() throws Exception {
        long pid = jwd.jettyPid();
        try (SSLSocket open = handshake(sniPort, "portal.example")) {
            assertThat(get(open, "portal.example", "/irj/echo")).isEqualTo("HTTP/1.1 200 OK");

            pki.issue(dir.resolve("portal.p12"), "portal", "portal-renewed.example", "dns:portal.example");

            Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                    assertThat(presented(sniPort, "portal.example")).isEqualTo("CN=portal-renewed.example"));
            assertThat(get(open, "portal.example", "/irj/echo")).as("the connection made before").isEqualTo(
                    "HTTP/1.1 200 OK");
            assertThat(((X509Certificate) open.getSession().getPeerCertificates()[0]).getSubjectX500Principal()
                    .getName()).isEqualTo("CN=portal.example");
        }
        assertThat(presented(sniPort, "erp.example")).as("SNI_CREDS stay").isEqualTo("CN=erp.example");
        assertThat(jwd.jettyPid()).isEqualTo(pid);
        assertThat(jwd.log()).anySatisfy(line -> assertThat(line).contains("jwd: icm/server_port_1 (ssl_config_1):"
                + " renewed from"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aBrokenKeyStoreKeepsTheCertificateInForceAndTheAdminApiSaysWhy() throws Exception {
        Files.writeString(dir.resolve("erp-only.p12"), "half a key store");
        AdminClient admin = new AdminClient(jwd);

        Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(listener(admin,
                "icm/server_port_2 (erp)").get("problem")).asString().contains("erp-only.p12 does not open"));
        assertThat(presented(erpPort, "erp.example")).isEqualTo("CN=erp.example");
        Map<String, Object> erp = listener(admin, "icm/server_port_2 (erp)");
        assertThat((List<Map<String, Object>>) erp.get("certificates")).singleElement().satisfies(c -> {
            assertThat(c).containsEntry("subject", "CN=erp.example").containsEntry("expires_soon", true);
            assertThat(c.get("names")).isEqualTo(List.of("erp.example"));
        });
        assertThat(jwd.log()).anySatisfy(line -> assertThat(line).contains("jwd: icm/server_port_2 (erp): a changed"
                + " file does not open, so the certificates read at"));
    }

    @Test
    void eachCertificatesExpiryIsAMetricAndWarnedOfThirtyDaysAhead() {
        String metrics = new AdminClient(jwd).get("/jwd/admin/metrics").body();

        assertThat(metrics).contains("jwd_tls_certificate_expiry_seconds{alias=\"erp\","
                + "listener=\"icm/server_port_1 (ssl_config_1)\",subject=\"CN=erp.example\"}");
        // the test CA's certificates are valid for 30 days: jwd warns at once
        assertThat(jwd.log()).anySatisfy(line -> assertThat(line).contains("WARN", "jwd: icm/server_port_2 (erp): the"
                + " certificate CN=erp.example (erp) expires in "));
    }

    @Test
    void theAdminPageShowsEachListenersCertificatesAndWhenTheyExpire() throws Exception {
        try (WebClient web = AdminClient.browser()) {
            HtmlPage page = web.getPage(jwd.uri("/jwd/admin/").toURL());

            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> page.querySelectorAll(
                    "#certificates tr[data-listener]").size() >= 3);
            assertThat(((org.htmlunit.html.DomElement) page.querySelector("#tls-section")).hasAttribute("hidden"))
                    .isFalse();
            String table = page.querySelector("#certificates tbody").getTextContent();
            assertThat(table).contains("icm/server_port_1 (ssl_config_1)", "icm/server_port_2 (erp)",
                    "CN=erp.example (erp), by CN=jwd test CA", "erp.example", "days");
            // the test CA's certificates expire within 30 days: marked
            assertThat(page.querySelectorAll("#certificates td.state-down")).isNotEmpty();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> listener(AdminClient admin, String name) {
        return ((List<Map<String, Object>>) admin.object("/jwd/admin/api/tls").get("listeners")).stream()
                .filter(l -> name.equals(l.get("listener"))).findFirst().orElseThrow();
    }
}
