package org.jwd.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import javax.security.auth.x500.X500Principal;

import org.jwd.config.ConfigException;
import org.jwd.config.SectionFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code icm/HTTPS/*}: client certificates on jwd's HTTPS port, under SAP's names and with SAP's defaults. */
class ClientCertConfigTest {
    @TempDir
    Path dir;

    private ClientCertConfig read(String properties) throws ConfigException {
        return SectionFixture.read("server.a.url=http://127.0.0.1:8001\nserver.a.type=j2ee\n" + properties, dir,
                TlsConfig::read).clientCerts();
    }

    @Test
    void sapsDefaultsAskForACertificateAndForwardNoneUnderSapsNames() throws Exception {
        ClientCertConfig certs = read("");

        // icm/HTTPS/verify_client: "Standard value 1"; the header names of "SSL Parameters for ICM and Web Dispatcher"
        assertThat(certs).isEqualTo(ClientCertConfig.DEFAULTS);
        assertThat(certs.verifyClient()).isEqualTo(1);
        assertThat(certs.forwardAsHeader()).isFalse();
        assertThat(certs.headers()).isEqualTo(new ClientCertConfig.CertificateHeaders("SSL_CLIENT_CERT",
                "SSL_CLIENT_CERT_CHAIN_", "SSL_CIPHER_SUITE", "SSL_CIPHER_USEKEYSIZE"));
        assertThat(certs.trustsIntermediaries()).isFalse();
    }

    @Test
    void aProfileOfSapsX509GuideReadsAsWritten() throws Exception {
        // the Web Dispatcher profile of "Enable certificate based logon - 5 Configure SAP Web Dispatcher"
        ClientCertConfig certs = read("""
                icm/HTTPS/forward_ccert_as_header = true
                icm/HTTPS/verify_client = 2
                icm/HTTPS/client_certificate_header_name = SSL_CLIENT_CERT
                icm/HTTPS/client_key_size_header_name = SSL_CIPHER_USEKEYSIZE
                icm/HTTPS/client_cipher_suite_header_name = SSL_CIPHER_SUITE
                icm/HTTPS/trust_client_with_issuer = CN=jwd test CA
                icm/HTTPS/trust_client_with_subject = CN=front, O=Example, C=DE
                """);

        assertThat(certs.verifyClient()).isEqualTo(2);
        assertThat(certs.forwardAsHeader()).isTrue();
        assertThat(certs.isTrustedIntermediary(new X500Principal("CN=front,O=Example,C=DE"),
                new X500Principal("cn=JWD test CA"))).isTrue();
        assertThat(certs.isTrustedIntermediary(new X500Principal("CN=front,O=Example,C=DE"),
                new X500Principal("CN=another CA"))).isFalse();
        assertThat(certs.isTrustedIntermediary(new X500Principal("CN=user,O=Example,C=DE"),
                new X500Principal("CN=jwd test CA"))).isFalse();
    }

    @Test
    void badValuesAreNamedWithWhatIsExpected() {
        assertThatThrownBy(() -> read("""
                icm/HTTPS/verify_client = 3
                icm/HTTPS/client_certificate_header_name = SSL CLIENT CERT
                icm/HTTPS/trust_client_with_subject = not a name
                """)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("icm/HTTPS/verify_client = '3': expected 0 (no client certificate asked for),"
                        + " 1 (asked for) or 2 (required)")
                .hasMessageContaining("icm/HTTPS/client_certificate_header_name = 'SSL CLIENT CERT': expected a"
                        + " header field name")
                .hasMessageContaining("icm/HTTPS/trust_client_with_subject = 'not a name': expected a"
                        + " distinguished name");
    }

    @Test
    void anIntermediaryIsTrustedByItsSubjectAndIssuerTogetherNeverByOne() {
        assertThatThrownBy(() -> read("icm/HTTPS/trust_client_with_subject = CN=front\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("icm/HTTPS/trust_client_with_subject is set, but"
                        + " icm/HTTPS/trust_client_with_issuer is not");
    }
}
