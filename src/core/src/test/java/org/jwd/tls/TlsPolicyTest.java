package org.jwd.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.jwd.config.SectionFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TlsPolicyTest {
    @TempDir
    Path dir;

    private static TlsConfig tls(String properties, Path dir) throws Exception {
        return SectionFixture.read("""
                server.a.url=http://127.0.0.1:8001
                server.a.https_url=https://127.0.0.1:8441
                server.a.type=j2ee
                """ + properties, dir, TlsConfig::read);
    }

    @Test
    void towardsServersNothingOlderThanTls12AndHostNamesChecked() throws Exception {
        SslContextFactory.Client client = TlsPolicy.towardsServers(tls("", dir).servers());
        client.start();
        try {
            assertThat(client.getExcludeProtocols()).contains("TLSv1", "TLSv1.1", "SSLv3");
            assertThat(client.getSelectedProtocols()).isNotEmpty().allMatch(p -> p.equals("TLSv1.2") || p.equals("TLSv1.3"));
            assertThat(client.getEndpointIdentificationAlgorithm()).isEqualTo("HTTPS");
            assertThat(client.isTrustAll()).isFalse();
        } finally {
            client.stop();
        }
    }

    @Test
    void hostNameVerificationCanBeTurnedOffButTrustStaysChecked() throws Exception {
        SslContextFactory.Client client = TlsPolicy.towardsServers(tls("wdisp/ssl_verify_hostname=false", dir).servers());

        assertThat(client.getEndpointIdentificationAlgorithm()).isNull();
        assertThat(client.isTrustAll()).isFalse();
    }

    /** The TLS server --https-port would listen with. */
    private SslContextFactory.Server server(String properties) throws Exception {
        HttpsSettings https = tls(properties, dir).termination().commandLine();
        SslContextFactory.Server server = new SslContextFactory.Server();
        TlsPolicy.towardsClients(server, https, KeyMaterial.load(https.config().credentials()));
        return server;
    }

    private void keystore() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "jwd", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=jwd",
                "-validity", "2", "-keystore", dir.resolve("jwd.p12").toString(), "-storepass", "pw-123456",
                "-storetype", "PKCS12").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isZero();
    }

    /** icm/HTTPS/verify_client (help.sap.com 48/3e87afca6b72d0e10000000a42189c): 0 none, 1 asked for, 2 required. */
    @ParameterizedTest(name = "verify_client={0}")
    @CsvSource({"0, false, false", "1, true, false", "2, false, true"})
    void verifyClientAsksForOrRequiresAClientCertificate(int level, boolean want, boolean need) throws Exception {
        keystore();
        SslContextFactory.Server server = server("jwd.ssl_keystore=jwd.p12\njwd.ssl_keystore_password=pw-123456\n"
                + "icm/HTTPS/verify_client=" + level);

        assertThat(server.getWantClientAuth()).isEqualTo(want);
        assertThat(server.getNeedClientAuth()).isEqualTo(need);
    }

    @Test
    void towardsClientsNothingOlderThanTls12AndNoWeakSuites() throws Exception {
        keystore();
        SslContextFactory.Server server = server("jwd.ssl_keystore=jwd.p12\njwd.ssl_keystore_password=pw-123456");
        server.start();
        try {
            assertThat(server.getSelectedProtocols()).containsOnly("TLSv1.2", "TLSv1.3");
            List<String> suites = List.of(server.getSelectedCipherSuites());
            assertThat(suites).isNotEmpty()
                    .noneMatch(s -> s.contains("_CBC_") || s.startsWith("TLS_RSA_") || s.endsWith("_SHA")
                            || s.contains("_NULL_") || s.contains("_anon_"))
                    .anyMatch(s -> s.startsWith("TLS_ECDHE_RSA_WITH_AES_") && s.contains("_GCM_"));
        } finally {
            server.stop();
        }
    }

    @Test
    void sslCiphersuitesChoosesTheVersionsAndSuitesOfferedToClients() throws Exception {
        keystore();
        SslContextFactory.Server server = server("jwd.ssl_keystore=jwd.p12\njwd.ssl_keystore_password=pw-123456\n"
                + "ssl/ciphersuites=545:PFS:HIGH::EC_X25519:EC_P256:EC_HIGH");
        server.start();
        try {
            assertThat(server.getSelectedProtocols()).containsExactly("TLSv1.2");
            assertThat(server.getSelectedCipherSuites()).isNotEmpty()
                    .noneMatch(s -> s.contains("_CBC_") || s.startsWith("TLS_RSA_"))
                    .contains("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
        } finally {
            server.stop();
        }
    }

    @Test
    void sslClientCiphersuitesChoosesWhatJwdOffersTheServers() throws Exception {
        SslContextFactory.Client client = TlsPolicy.towardsServers(tls(
                "ssl/client_ciphersuites=545:PFS:HIGH::EC_P256:EC_HIGH", dir).servers());
        client.start();
        try {
            assertThat(client.getSelectedProtocols()).containsExactly("TLSv1.2");
            // towards servers CBC stays (servers of older releases may know nothing else); Jetty drops RSA key exchange
            assertThat(client.getSelectedCipherSuites()).contains("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256")
                    .doesNotContain("TLS_RSA_WITH_AES_128_GCM_SHA256");
        } finally {
            client.stop();
        }
    }
}
