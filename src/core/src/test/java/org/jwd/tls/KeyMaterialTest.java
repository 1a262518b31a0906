package org.jwd.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import org.eclipse.jetty.util.ssl.SniX509ExtendedKeyManager;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.ssl.X509;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials opened into one key store, and the key a listener presents by the name a client asks for (SNI): SAP's
 * {@code CRED} first, then the {@code SNI_CREDS} files ("icm/ssl_config_&lt;xx&gt;", help.sap.com).
 */
class KeyMaterialTest {
    @TempDir
    static Path dir;
    private static KeyMaterial keys;

    @BeforeAll
    static void keyStores() throws Exception {
        TestKeyStores.make(dir.resolve("portal.p12"), "portal", "portal.example", "dns:portal.example", 400);
        TestKeyStores.make(dir.resolve("erp.p12"), "erp", "erp.example", "dns:erp.example,dns:*.erp.example", 20);
        // the same alias in a second file keeps both keys, each under a name of its own
        TestKeyStores.make(dir.resolve("bw.p12"), "portal", "bw.example", "dns:bw.example", 400);
        keys = KeyMaterial.load(credentials("portal.p12", "erp.p12", "bw.p12"));
    }

    private static Credentials credentials(String... files) {
        return new Credentials("icm/ssl_config_1", List.of(files).stream().map(dir::resolve).toList(),
                Secret.of(TestKeyStores.PASSWORD, dir));
    }

    @Test
    void everyFilesKeyIsKeptAndTheFirstFilesAreTheDefault() {
        assertThat(keys.certificates()).extracting(CertificateInfo::alias, CertificateInfo::subject)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("portal", "CN=portal.example"),
                        org.assertj.core.groups.Tuple.tuple("erp", "CN=erp.example"),
                        org.assertj.core.groups.Tuple.tuple("portal-2", "CN=bw.example"));
        assertThat(keys.defaults()).containsExactly("portal");
        assertThat(keys.certificates().get(1).names()).containsExactly("erp.example", "*.erp.example");
        assertThat(keys.certificates().get(1).notAfter()).isBetween(Instant.now().plus(19, ChronoUnit.DAYS),
                Instant.now().plus(21, ChronoUnit.DAYS));
        assertThat(keys.certificates().get(1).expiresSoon(Instant.now())).isTrue();
        assertThat(keys.certificates().get(0).expiresSoon(Instant.now())).isFalse();
    }

    @Test
    void theNameAClientAsksForChoosesItsKeyAndAnyOtherGetsTheDefault() throws Exception {
        SslContextFactory.Server factory = new SslContextFactory.Server();
        keys.applyTo(factory);
        SniX509ExtendedKeyManager.SniSelector sni = factory.getSNISelector();
        List<X509> certificates = certificates(factory);

        assertThat(sni.sniSelect("EC", null, null, "erp.example", certificates)).isEqualTo("erp");
        assertThat(sni.sniSelect("EC", null, null, "a.erp.example", certificates)).isEqualTo("erp");
        assertThat(sni.sniSelect("EC", null, null, "bw.example", certificates)).isEqualTo("portal-2");
        assertThat(sni.sniSelect("EC", null, null, "other.example", certificates)).isEqualTo("portal");
        assertThat(sni.sniSelect("EC", null, null, null, certificates)).isEqualTo("portal");
    }

    @Test
    void aKeyOfAnotherTypeNamingTheHostLetsTheJdkAskForThatType() throws Exception {
        SslContextFactory.Server factory = new SslContextFactory.Server();
        keys.applyTo(factory);
        List<X509> onlyPortal = certificates(factory).stream().filter(c -> c.getAlias().equals("portal")).toList();

        assertThat(factory.getSNISelector().sniSelect("RSA", null, null, "erp.example", onlyPortal)).isNull();
    }

    @Test
    void aFileWithoutAKeyOrThatDoesNotOpenIsNamed() throws Exception {
        KeyStore empty = KeyStore.getInstance("PKCS12");
        empty.load(null, null);
        try (OutputStream out = Files.newOutputStream(dir.resolve("empty.p12"))) {
            empty.store(out, TestKeyStores.PASSWORD.toCharArray());
        }
        Files.writeString(dir.resolve("broken.p12"), "not a key store");

        assertThatThrownBy(() -> KeyMaterial.load(credentials("portal.p12", "empty.p12")))
                .hasMessage(dir.resolve("empty.p12") + " holds no private key: expected the key and certificate jwd"
                        + " presents (sapgenpse export_p12 exports them from the PSE)");
        assertThatThrownBy(() -> KeyMaterial.load(credentials("broken.p12")))
                .hasMessageStartingWith(dir.resolve("broken.p12") + " does not open: expected a PKCS12 or JKS file"
                        + " that its password opens (");
    }

    private static List<X509> certificates(SslContextFactory.Server factory) throws Exception {
        KeyStore store = factory.getKeyStore();
        return Map.of("portal", 0, "erp", 1, "portal-2", 2).keySet().stream().map(alias -> {
            try {
                return new X509(alias, (X509Certificate) store.getCertificate(alias));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
    }
}
