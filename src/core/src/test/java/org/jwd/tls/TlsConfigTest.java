package org.jwd.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.crypto.spec.SecretKeySpec;

import org.jwd.config.ConfigException;
import org.jwd.config.SectionFixture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsConfigTest {
    private static final String SERVERS = """
            server.a.url=http://127.0.0.1:8001
            server.a.https_url=https://127.0.0.1:8441
            server.a.type=j2ee
            server.a.logon_groups=ERP
            server.b.url=http://127.0.0.1:8002
            server.b.type=j2ee
            server.b.logon_groups=PLAIN
            logon_group.ERP.url_prefixes=/erp
            logon_group.PLAIN.url_prefixes=/plain
            """;

    @TempDir
    static Path dir;

    /** A real keystore with a private key and its self-signed certificate (keytool, once for the class). */
    @BeforeAll
    static void keystores() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "jwd", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=jwd",
                "-validity", "2", "-keystore", dir.resolve("jwd.p12").toString(), "-storepass", "s3cret-pw",
                "-storetype", "PKCS12").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isZero();
        // A keystore that opens but holds neither a private key nor a certificate.
        KeyStore empty = KeyStore.getInstance("PKCS12");
        empty.load(null, null);
        empty.setEntry("secret", new KeyStore.SecretKeyEntry(new SecretKeySpec(new byte[16], "AES")),
                new KeyStore.PasswordProtection("s3cret-pw".toCharArray()));
        try (OutputStream out = Files.newOutputStream(dir.resolve("nothing.p12"))) {
            empty.store(out, "s3cret-pw".toCharArray());
        }
    }

    private static TlsConfig tls(String properties) throws ConfigException {
        return SectionFixture.read(SERVERS + properties, dir, TlsConfig::read);
    }

    private static List<String> problems(String properties) {
        try {
            tls(properties);
        } catch (ConfigException e) {
            return e.problems();
        }
        throw new AssertionError("expected a ConfigException for " + properties);
    }

    @Test
    void withoutTlsKeysForwardsPlainVerifiesHostNamesAndListensForNothing() throws Exception {
        TlsConfig tls = tls("");

        assertThat(tls.encrypt()).isEqualTo(SslEncrypt.NEVER);
        assertThat(tls.verifyHostname()).isTrue();
        assertThat(tls.servers().trustStore()).isNull();
        assertThat(tls.servers().auth()).isZero();
        assertThat(tls.terminates()).isFalse();
        assertThat(tls.passthrough()).isNull();
    }

    @Test
    void sslEncryptTakesSapsThreeValues() throws Exception {
        assertThat(tls("wdisp/ssl_encrypt=0").encrypt()).isEqualTo(SslEncrypt.NEVER);
        assertThat(tls("wdisp/ssl_encrypt=1").encrypt()).isEqualTo(SslEncrypt.ALWAYS);
        assertThat(tls("wdisp/ssl_encrypt=2").encrypt()).isEqualTo(SslEncrypt.LIKE_CLIENT);
        assertThat(problems("wdisp/ssl_encrypt=yes")).containsExactly(
                "wdisp/ssl_encrypt = 'yes': expected 0 (plain HTTP to the servers), 1 (HTTPS) or 2 (the client's protocol)");
    }

    @Test
    void sslEncryptNeedsAServerWithAnHttpsUrl() throws Exception {
        String config = """
                server.a.url=http://127.0.0.1:8001
                server.a.type=j2ee
                wdisp/ssl_encrypt=1
                """;

        assertThatThrownBy(() -> SectionFixture.read(config, dir, TlsConfig::read)).isInstanceOf(ConfigException.class)
                .hasMessage("wdisp/ssl_encrypt = '1': expected 0 while no server has a server.<id>.https_url to"
                        + " forward HTTPS to");
    }

    @Test
    void sslEncryptDecidesPerRequestWhetherToForwardOverHttps() {
        assertThat(SslEncrypt.NEVER.secure(true)).isFalse();
        assertThat(SslEncrypt.ALWAYS.secure(false)).isTrue();
        assertThat(SslEncrypt.LIKE_CLIENT.secure(false)).isFalse();
        assertThat(SslEncrypt.LIKE_CLIENT.secure(true)).isTrue();
    }

    @Test
    void hostNameVerificationIsOnUnlessTurnedOff() throws Exception {
        assertThat(tls("wdisp/ssl_verify_hostname=false").verifyHostname()).isFalse();
        assertThat(tls("wdisp/ssl_verify_hostname=true").verifyHostname()).isTrue();
        assertThat(problems("wdisp/ssl_verify_hostname=maybe"))
                .containsExactly("wdisp/ssl_verify_hostname = 'maybe': expected true or false");
    }

    @Test
    void readsKeystoresRelativeToTheConfigurationsDirectory() throws Exception {
        TlsConfig tls = tls("""
                jwd.ssl_keystore=jwd.p12
                jwd.ssl_keystore_password=s3cret-pw
                wdisp/ssl_truststore=jwd.p12
                wdisp/ssl_truststore_password=s3cret-pw
                """);

        assertThat(tls.termination().commandLine().config().credentials().files()).containsExactly(
                dir.resolve("jwd.p12"));
        assertThat(tls.terminates()).isTrue();
        assertThat(tls.servers().loadTrustStore().getCertificate("jwd")).isNotNull();
    }

    @Test
    void aMissingKeystoreFileIsNamed() {
        assertThat(problems("jwd.ssl_keystore=nope.p12\njwd.ssl_keystore_password=x\nwdisp/ssl_truststore=nope.jks"))
                .containsExactly(
                        "wdisp/ssl_truststore = 'nope.jks': expected a readable keystore file (" + dir.resolve("nope.jks")
                                + " does not exist)",
                        "jwd.ssl_keystore = 'nope.p12': expected a readable keystore file (" + dir.resolve("nope.p12")
                                + " does not exist)");
    }

    @Test
    void aWrongPasswordIsReportedWithoutRepeatingIt() {
        List<String> problems = problems("jwd.ssl_keystore=jwd.p12\njwd.ssl_keystore_password=guessed-wrong");

        assertThat(problems).singleElement().asString()
                .startsWith("jwd.ssl_keystore = 'jwd.p12': expected a PKCS12 or JKS keystore that"
                        + " jwd.ssl_keystore_password opens (")
                .doesNotContain("guessed-wrong");
    }

    @Test
    void aKeystoreNeedsItsPasswordAndAPasswordItsKeystore() {
        assertThat(problems("jwd.ssl_keystore=jwd.p12")).containsExactly(
                "jwd.ssl_keystore_password is missing: expected the password of jwd.ssl_keystore = 'jwd.p12'");
        assertThat(problems("wdisp/ssl_truststore_password=s3cret-pw")).containsExactly(
                "wdisp/ssl_truststore_password is set, but wdisp/ssl_truststore is not: expected the keystore it opens");
    }

    @Test
    void aKeystoreMustHoldWhatItIsFor() {
        assertThat(problems("""
                jwd.ssl_keystore=nothing.p12
                jwd.ssl_keystore_password=s3cret-pw
                wdisp/ssl_truststore=nothing.p12
                wdisp/ssl_truststore_password=s3cret-pw
                """)).containsExactly(
                "wdisp/ssl_truststore = 'nothing.p12': expected a keystore holding the trusted certificates of the"
                        + " servers' CAs (it holds none)",
                "jwd.ssl_keystore = 'nothing.p12': expected a keystore holding jwd's private key and certificate"
                        + " (it holds no key)");
    }

    @Test
    void passwordsNeverShowInItsDescription() throws Exception {
        TlsConfig tls = tls("""
                jwd.ssl_keystore=jwd.p12
                jwd.ssl_keystore_password=s3cret-pw
                wdisp/ssl_truststore=jwd.p12
                wdisp/ssl_truststore_password=s3cret-pw
                """);

        assertThat(tls.toString()).contains("jwd.p12").doesNotContain("s3cret-pw");
    }

    @Test
    void endToEndTlsHasSapsDefaults() throws Exception {
        PassthroughConfig p = tls("wdisp/HTTPS/port=4443").passthrough();

        assertThat(p.port()).isEqualTo(4443);
        assertThat(PassthroughConfig.formatIpv4(p.stickyMask())).isEqualTo("255.255.240.0");
        assertThat(p.contextTimeout()).isEqualTo(Duration.ofHours(1));
        assertThat(p.maxClientIpEntries()).isEqualTo(50_000);
        assertThat(p.defaultLogonGroup()).isNull();
        assertThat(p.routesBySni()).isFalse();
    }

    @Test
    void endToEndTlsKeysAreRead() throws Exception {
        PassthroughConfig p = tls("""
                wdisp/HTTPS/port=0
                wdisp/HTTPS/sticky_mask=255.255.255.0
                wdisp/HTTPS/context_timeout=600
                wdisp/HTTPS/max_client_ip_entries=10
                wdisp/HTTPS/dest_logon_group=ERP.Example.COM.=ERP, ERP
                """).passthrough();

        assertThat(p.stickyMask()).isEqualTo(0xFFFFFF00);
        assertThat(p.contextTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(p.maxClientIpEntries()).isEqualTo(10);
        assertThat(p.logonGroupsBySni()).isEqualTo(Map.of("erp.example.com", "ERP"));
        assertThat(p.logonGroupFor("erp.example.com")).isEqualTo("ERP");
        assertThat(p.logonGroupFor("other.example.com")).isEqualTo("ERP");
        assertThat(tls("wdisp/HTTPS/port=0\nwdisp/HTTPS/context_timeout=90s").passthrough().contextTimeout())
                .isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void everyBadEndToEndTlsKeyIsReportedAtOnce() {
        assertThat(problems("""
                wdisp/HTTPS/port=70000
                wdisp/HTTPS/sticky_mask=255.255.256.0
                wdisp/HTTPS/context_timeout=0
                wdisp/HTTPS/max_client_ip_entries=-5
                wdisp/HTTPS/dest_logon_group=PLAIN
                """)).containsExactly(
                "wdisp/HTTPS/port = '70000': expected a port number (0 = any free port)",
                "wdisp/HTTPS/sticky_mask = '255.255.256.0': expected an IPv4 netmask such as 255.255.240.0",
                "wdisp/HTTPS/context_timeout = '0': expected a positive number of seconds, or a number with a unit"
                        + " (500ms, 30s, 10m, 1h)",
                "wdisp/HTTPS/max_client_ip_entries = '-5': expected a positive integer",
                "wdisp/HTTPS/dest_logon_group = 'PLAIN': expected a logon group with HTTPS-enabled members, or"
                        + " entries host=group (the SNI name of the ClientHello picks the group) and at most one plain"
                        + " group for every other connection");
    }

    @Test
    void destLogonGroupNamesDefinedGroupsAndOneDefaultAtMost() {
        assertThat(problems("wdisp/HTTPS/port=0\nwdisp/HTTPS/dest_logon_group=NOPE")).hasSize(1);
        assertThat(problems("wdisp/HTTPS/port=0\nwdisp/HTTPS/dest_logon_group=ERP, ERP")).hasSize(1);
        assertThat(problems("wdisp/HTTPS/port=0\nwdisp/HTTPS/dest_logon_group=bad_host!=ERP")).hasSize(1);
    }

    @Test
    void endToEndTlsNeedsHttpsEnabledServers() throws IOException, ConfigException {
        String config = """
                server.b.url=http://127.0.0.1:8002
                server.b.type=j2ee
                wdisp/HTTPS/port=4443
                """;

        assertThatThrownBy(() -> SectionFixture.read(config, dir, TlsConfig::read)).hasMessage("wdisp/HTTPS/port = '4443': expected"
                + " HTTPS-enabled servers to forward to, but no server has a server.<id>.https_url");
    }
}
