package org.jwd.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jwd.config.ConfigException;
import org.jwd.config.SectionFixture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every TLS key of an SAP profile jwd maps, row by row with the SAP page that defines it: {@code icm/server_port_<xx>}'s
 * {@code SSLCONFIG} and {@code VCLIENT} ("icm/server_port_&lt;xx&gt;"), {@code icm/ssl_config_<xx>}'s
 * sub-parameters ("icm/ssl_config_&lt;xx&gt;"), {@code icm/HTTPS/verify_client} (48/3e87afca6b72d0e10000000a42189c),
 * {@code wdisp/ssl_auth} and {@code wdisp/ssl_cred} ("Setting the SSL Profile Parameters for the SAP Web Dispatcher",
 * 9a/53a2a4a45e244aa189c2b7065a0b78), all on help.sap.com; {@code ssl/ciphersuites} and
 * {@code ssl/client_ciphersuites} (SAP Note 510007) in {@link CipherSuiteStringTest}.
 */
class HttpsKeysTest {
    private static final String SERVERS = """
            server.a.url=http://127.0.0.1:8001
            server.a.https_url=https://127.0.0.1:8441
            server.a.type=j2ee
            """;
    private static final String PIN = "PIN=${file:pin}";

    @TempDir
    static Path dir;

    @BeforeAll
    static void keyStores() throws Exception {
        TestKeyStores.make(dir.resolve("portal.p12"), "portal", "portal.example", "dns:portal.example", 400);
        TestKeyStores.make(dir.resolve("erp.p12"), "erp", "erp.example", "dns:erp.example", 400);
        Files.writeString(dir.resolve("pin"), TestKeyStores.PASSWORD + "\n");
        Files.writeString(dir.resolve("wrong-pin"), "guessed\n");
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
        throw new AssertionError("expected a problem for " + properties);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # SAP's page                | the lines                                                                                    | port's config | VCLIENT | files
            icm/ssl_config_<xx>: CRED   | icm/ssl_config_1=CRED=portal.p12,PIN=${file:pin};icm/server_port_1=PROT=HTTPS,PORT=443,SSLCONFIG=ssl_config_1 | ssl_config_1 | 1 | portal.p12
            icm/ssl_config_<xx>: ID     | icm/ssl_config_1=ID=portal,CRED=portal.p12,PIN=${file:pin};icm/server_port_1=PROT=HTTPS,PORT=443,SSLCONFIG=portal | portal | 1 | portal.p12
            icm/ssl_config_<xx>: SNI_CREDS | icm/ssl_config_1=CRED=portal.p12,SNI_CREDS=erp.p12,PIN=${file:pin};icm/server_port_1=PROT=HTTPS,PORT=443,SSLCONFIG=ssl_config_1 | ssl_config_1 | 1 | portal.p12 erp.p12
            icm/ssl_config_<xx>: VCLIENT | icm/ssl_config_1=CRED=portal.p12,VCLIENT=2,PIN=${file:pin};icm/server_port_1=PROT=HTTPS,PORT=443,SSLCONFIG=ssl_config_1 | ssl_config_1 | 2 | portal.p12
            icm/server_port_<xx>: VCLIENT wins | icm/ssl_config_1=CRED=portal.p12,VCLIENT=2,PIN=${file:pin};icm/server_port_1=PROT=HTTPS,PORT=443,SSLCONFIG=ssl_config_1,VCLIENT=0 | ssl_config_1 | 0 | portal.p12
            icm/HTTPS/verify_client     | icm/HTTPS/verify_client=0;icm/ssl_config_1=CRED=portal.p12,PIN=${file:pin};icm/server_port_1=PROT=HTTPS,PORT=443,SSLCONFIG=ssl_config_1 | ssl_config_1 | 0 | portal.p12
            no SSLCONFIG: jwd.ssl_keystore | jwd.ssl_keystore=erp.p12;jwd.ssl_keystore_password=${file:pin};icm/server_port_1=PROT=HTTPS,PORT=443 | jwd.ssl_keystore | 1 | erp.p12
            """)
    void anHttpsLinePresentsItsSslConfiguration(String page, String lines, String config, int verifyClient,
                                                String files) throws Exception {
        HttpsSettings https = tls(lines.replace(';', '\n')).termination().ports().get("icm/server_port_1");

        assertThat(https.config().name()).as(page).isEqualTo(config);
        assertThat(https.verifyClient()).as(page).isEqualTo(verifyClient);
        assertThat(https.config().credentials().files()).as(page)
                .containsExactly(List.of(files.split(" ")).stream().map(dir::resolve).toArray(Path[]::new));
    }

    @Test
    void twoHttpsPortsPresentTheirOwnCredentialsAndTheCommandLineTheKeystore() throws Exception {
        Termination termination = tls("""
                jwd.ssl_keystore=portal.p12
                jwd.ssl_keystore_password=${file:pin}
                icm/ssl_config_1=CRED=erp.p12, CIPHERS=545:PFS:HIGH::EC_P256:EC_HIGH, CACHESIZE=1000, LIFETIME=300, %s
                icm/server_port_1=PROT=HTTPS,PORT=443
                icm/server_port_2=PROT=HTTPS,PORT=444,SSLCONFIG=ssl_config_1
                ssl/ciphersuites=135:PFS:HIGH::EC_P256:EC_HIGH
                """.formatted(PIN)).termination();

        assertThat(termination.ports().get("icm/server_port_1").config().name()).isEqualTo(SslConfig.KEYSTORE);
        assertThat(termination.ports().get("icm/server_port_1").suites().protocols())
                .containsExactly("TLSv1.3", "TLSv1.2");
        HttpsSettings erp = termination.ports().get("icm/server_port_2");
        assertThat(erp.suites().protocols()).as("CIPHERS before ssl/ciphersuites").containsExactly("TLSv1.2");
        assertThat(erp.config().cacheSize()).isEqualTo(1000);
        assertThat(erp.config().lifetime()).isEqualTo(Duration.ofMinutes(5));
        assertThat(termination.commandLine().config().name()).isEqualTo(SslConfig.KEYSTORE);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # what                      | the lines                                                              | the problem says
            no CRED                     | icm/ssl_config_1=VCLIENT=1,PIN=${file:pin}                              | CRED is missing: expected CRED=<file>, a PKCS#12 file
            a PSE                       | icm/ssl_config_1=CRED=SAPSSLS.pse,PIN=${file:pin}                       | SAPSSLS.pse is a PSE, which jwd does not read: expected the PKCS#12 file sapgenpse export_p12 -p SAPSSLS.pse makes of it
            a password in the profile   | icm/ssl_config_1=CRED=portal.p12,PIN=s3cret-pw                          | PIN holds a password: expected PIN=${file:PATH} or PIN=${env:NAME}
            no PIN                      | icm/ssl_config_1=CRED=portal.p12                                         | PIN is missing: expected PIN=${file:PATH}
            the wrong PIN               | icm/ssl_config_1=CRED=portal.p12,PIN=${file:wrong-pin}                   | does not open: expected a PKCS12 or JKS file that its password opens
            an unknown sub-parameter    | icm/ssl_config_1=CRED=portal.p12,PIN=${file:pin},COLOUR=red              | COLOUR is no sub-parameter jwd knows: expected CACHESIZE, CIPHERS, CRED, ID, LIFETIME, PIN, SNI_CREDS, VCLIENT
            a cipher string jwd cannot map | icm/ssl_config_1=CRED=portal.p12,PIN=${file:pin},CIPHERS=HIGH:MEDIUM   | CIPHERS=HIGH:MEDIUM: MEDIUM adds no cipher suite jwd offers to clients
            an unknown SSLCONFIG        | icm/server_port_1=PROT=HTTPS,PORT=443,SSLCONFIG=nope                     | SSLCONFIG=nope names no icm/ssl_config_<xx>: expected one of []
            an HTTPS port without keys  | icm/server_port_1=PROT=HTTPS,PORT=443                                    | terminates HTTPS: expected SSLCONFIG=<an icm/ssl_config_<xx>>, or jwd.ssl_keystore
            ssl_auth without a file     | wdisp/ssl_auth=1                                                         | wdisp/ssl_auth = '1': jwd presents its client certificate from the PKCS#12 file wdisp/ssl_cred names
            a file without ssl_auth     | wdisp/ssl_cred=portal.p12;wdisp/ssl_cred_password=${file:pin}            | wdisp/ssl_auth is 0, so jwd would present no certificate
            ssl_cred a PSE              | wdisp/ssl_auth=2;wdisp/ssl_cred=SAPSSLC.pse;wdisp/ssl_cred_password=x    | expected the PKCS#12 file sapgenpse export_p12 -p SAPSSLC.pse makes of the PSE
            ssl_auth out of range       | wdisp/ssl_auth=3                                                         | wdisp/ssl_auth = '3': expected 0 (no client certificate towards the servers), 1 or 2
            an unset variable           | jwd.ssl_keystore=portal.p12;jwd.ssl_keystore_password=${env:JWD_TEST_UNSET} | jwd.ssl_keystore_password: the environment variable JWD_TEST_UNSET (${env:JWD_TEST_UNSET}) is not set
            """)
    void whatJwdCannotHonourIsRefusedWithWhatToWrite(String what, String lines, String says) {
        List<String> problems = problems(lines.replace(';', '\n'));

        assertThat(problems).as(what).anySatisfy(p -> assertThat(p).contains(says)).noneMatch(p -> p.contains(
                "s3cret-pw"));
    }

    @Test
    void sslAuthPresentsTheClientCertificateOfSslCred() throws Exception {
        Reencryption servers = tls("""
                wdisp/ssl_auth=2
                wdisp/ssl_cred=portal.p12
                wdisp/ssl_cred_password=${file:pin}
                ssl/client_ciphersuites=150:PFS:HIGH::EC_P256:EC_HIGH
                """).servers();

        assertThat(servers.auth()).isEqualTo(2);
        assertThat(servers.credentials().files()).containsExactly(dir.resolve("portal.p12"));
        assertThat(servers.suites().protocols()).containsExactly("TLSv1.3", "TLSv1.2");
        assertThat(servers.toString()).contains("client certificate " + dir.resolve("portal.p12"))
                .doesNotContain(TestKeyStores.PASSWORD);
    }
}
