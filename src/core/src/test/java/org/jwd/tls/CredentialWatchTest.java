package org.jwd.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A renewed key store is taken without a restart; one that does not open keeps the keys in force, and says why. */
class CredentialWatchTest {
    @TempDir
    Path dir;
    private Path file;
    private final List<KeyMaterial> renewed = new ArrayList<>();
    private final List<TlsStatus> published = new ArrayList<>();
    private CredentialWatch watch;

    @BeforeEach
    void watchOneListener() throws Exception {
        file = TestKeyStores.make(dir.resolve("portal.p12"), "portal", "old.example", "dns:portal.example", 400);
        Credentials credentials = new Credentials("icm/ssl_config_1", List.of(file),
                Secret.of(TestKeyStores.PASSWORD, dir));
        watch = new CredentialWatch(Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC),
                published::add);
        watch.add("icm/server_port_1 (ssl_config_1)", credentials, KeyMaterial.load(credentials), renewed::add);
        watch.start(java.time.Duration.ZERO);
    }

    private void replace(String cn) throws Exception {
        Path next = TestKeyStores.make(dir.resolve("next.p12"), "portal", cn, "dns:portal.example", 400);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private TlsStatus.Presented presented() {
        return watch.status().presented().get(0);
    }

    @Test
    void anUnchangedFileIsNotOpenedAgain() {
        watch.check();

        assertThat(renewed).isEmpty();
        assertThat(published).hasSize(1);
        assertThat(presented().certificates()).singleElement().extracting(CertificateInfo::subject)
                .isEqualTo("CN=old.example");
    }

    @Test
    void aReplacedKeyStoreIsHandedOnAndPublished() throws Exception {
        replace("new.example");

        watch.check();

        assertThat(renewed).singleElement().satisfies(k -> assertThat(k.certificates().get(0).subject())
                .isEqualTo("CN=new.example"));
        assertThat(presented().certificates().get(0).subject()).isEqualTo("CN=new.example");
        assertThat(presented().problem()).isNull();
        assertThat(published).hasSize(2).last().isEqualTo(watch.status());
    }

    @Test
    void aBrokenFileKeepsTheKeysInForceUntilAWholeOneComes() throws Exception {
        Files.writeString(file, "half a key store");

        watch.check();

        assertThat(renewed).isEmpty();
        assertThat(presented().certificates().get(0).subject()).isEqualTo("CN=old.example");
        assertThat(presented().problem()).startsWith(file + " does not open: expected a PKCS12 or JKS file");

        watch.check();
        assertThat(renewed).as("tried once per change").isEmpty();

        replace("fixed.example");
        watch.check();
        assertThat(renewed).hasSize(1);
        assertThat(presented().problem()).isNull();
        assertThat(presented().certificates().get(0).subject()).isEqualTo("CN=fixed.example");
    }

    @Test
    void expiringCertificatesAreWarnedOfOnceADay() {
        Instant now = Instant.parse("2030-01-01T00:00:00Z");
        CertificateInfo soon = new CertificateInfo("portal", "CN=portal", "CN=CA", List.of(),
                now.plus(29, ChronoUnit.DAYS));
        CertificateInfo later = new CertificateInfo("erp", "CN=erp", "CN=CA", List.of(), now.plus(40, ChronoUnit.DAYS));
        ExpiryWarnings warnings = new ExpiryWarnings();

        assertThat(warnings.due(now, "l", List.of(soon, later), "[f.p12]")).containsExactly("l: the certificate"
                + " CN=portal (portal) expires in 29 days, on 2030-01-30T00:00:00Z: renew [f.p12]");
        assertThat(warnings.due(now.plus(1, ChronoUnit.HOURS), "l", List.of(soon, later), "[f.p12]")).isEmpty();
        assertThat(warnings.due(now.plus(1, ChronoUnit.DAYS), "l", List.of(soon, later), "[f.p12]")).hasSize(1);
        assertThat(warnings.due(now.plus(30, ChronoUnit.DAYS), "l", List.of(soon), "[f.p12]"))
                .containsExactly("l: the certificate CN=portal (portal) expired on 2030-01-30T00:00:00Z: renew [f.p12]");
    }
}
