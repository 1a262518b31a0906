package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.jwd.config.AdminConfig;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.filter.PermissionTable;
import org.jwd.limits.LimitsConfig;
import org.jwd.tls.SslEncrypt;
import org.jwd.tls.TlsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.sessiontable.SessionTable;

class ConfigReaderTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";

    @TempDir
    Path dir;

    private Path write(String text) throws Exception {
        Path file = dir.resolve("jwd.properties");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void everySectionsProblemsComeTogetherEachWithFileAndLine() throws Exception {
        Path file = write(A + """
                server.a.capacity=0
                jwd.max_header_size=10
                wdisp/ssl_encrypt=5
                admin.user=a:b
                admin.password_hash=x
                icm/HTTP/logging_0=LOGFILE=
                wdisp/permission_table=nope.txt
                jwd.config_watch=often
                SessionTable.cluster_uri=terracotta://h/x
                jwd.colour=blue
                """);

        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigReader.load(file));

        assertThat(e.problems()).hasSize(10).allSatisfy(p -> assertThat(p).startsWith(file + ":"));
        assertThat(e.problems().get(0)).as("unknown keys first")
                .startsWith(file + ":12: jwd.colour = 'blue': expected a known key");
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith(file + ":3: server.a.capacity = '0'"))
                .anySatisfy(p -> assertThat(p).startsWith(file + ":4: jwd.max_header_size = '10'"))
                .anySatisfy(p -> assertThat(p).startsWith(file + ":5: wdisp/ssl_encrypt = '5'"))
                .anySatisfy(p -> assertThat(p).startsWith(file + ":6: admin.user = 'a:b'"))
                .anySatisfy(p -> assertThat(p).startsWith(file + ":7: admin.password_hash = 'x'"))
                .anySatisfy(p -> assertThat(p).startsWith(file + ":8: icm/HTTP/logging_0: LOGFILE is missing"))
                .anySatisfy(p -> assertThat(p).startsWith(file + ":9: wdisp/permission_table = 'nope.txt': "
                        + "permission table " + dir.resolve("nope.txt")))
                .anySatisfy(p -> assertThat(p).startsWith(file + ":10: jwd.config_watch = 'often'"))
                .anySatisfy(p -> assertThat(p).startsWith(file + ":11: SessionTable.cluster_uri = "));
    }

    @Test
    void everyKeyAFeatureReadsIsKnownAndEachSectionIsFoundByItsType() throws Exception {
        Files.writeString(dir.resolve("table.txt"), "D /secret/*\n");
        DispatcherConfig config = ConfigReader.load(write(A + """
                jwd.max_header_size=16KB
                server.a.max_connections=4
                wdisp/permission_table=table.txt
                jwd.config_watch=0
                rdisp/registry_expiry=30
                """));

        assertThat(config.section(LimitsConfig.class).maxHeaderSize()).isEqualTo(16 * 1024);
        assertThat(config.section(LimitsConfig.class).servers()).containsOnlyKeys("a");
        assertThat(config.section(PermissionTable.class).file()).isEqualTo(dir.resolve("table.txt").toString());
        assertThat(config.section(AdminConfig.class).registryExpiry()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.section(TlsConfig.class).encrypt()).isEqualTo(SslEncrypt.NEVER);
        assertThat(config.section(ConfigReader.WatchSection.class).interval()).isZero();
    }

    @Test
    void relativePathsAreResolvedAgainstTheFilesDirectoryWhateverJwdConfigSays() throws Exception {
        Files.writeString(dir.resolve("table.txt"), "D /secret/*\n");
        String before = System.getProperty("jwd.config");
        System.setProperty("jwd.config", "/elsewhere/jwd.properties");
        try {
            DispatcherConfig config = ConfigReader.load(write(A + "wdisp/permission_table=table.txt\n"));

            assertThat(config.section(PermissionTable.class).file()).isEqualTo(dir.resolve("table.txt").toString());
        } finally {
            if (before == null) {
                System.clearProperty("jwd.config");
            } else {
                System.setProperty("jwd.config", before);
            }
        }
    }

    /** The keys the reloader keeps at their running values: declared by the sections that read them. */
    @Test
    void theRestartOnlyKeysAreThoseTheSectionsDeclare() throws Exception {
        DispatcherConfig config = ConfigReader.parse(A, "jwd.properties");

        assertThat(config.restartKeys()).containsExactlyInAnyOrder(
                "SessionTableTimeout", "wdisp/HTTP/context_timeout", "wdisp/HTTP/esid_support",
                "wdisp/HTTP/jsessionid_tab_support", "wdisp/HTTP/max_session_tab_entries", "SessionTable.heap_entries",
                "SessionTable.offheap_MB", "SessionTable.cluster_uri", "SessionTable.disk_path",
                "SessionTable.disk_flush_interval",
                "jwd.connect_timeout", "jwd.idle_timeout", "jwd.stop_delay", "jwd.stop_timeout", "jwd.client_threads", "jwd.connections_per_server",
                "jwd.max_header_size",
                "admin.user", "admin.password_hash", "rdisp/registry_expiry", "jwd.health_urls",
                "admin.metrics_anonymous", "jwd.state_file",
                "jwd.ssl_keystore", "jwd.ssl_keystore_password", "wdisp/ssl_encrypt", "wdisp/ssl_truststore",
                "wdisp/ssl_truststore_password", "wdisp/ssl_verify_hostname",
                "wdisp/HTTPS/port", "wdisp/HTTPS/sticky_mask", "wdisp/HTTPS/context_timeout",
                "wdisp/HTTPS/max_client_ip_entries", "wdisp/HTTPS/dest_logon_group",
                "icm/HTTPS/verify_client", "icm/HTTPS/forward_ccert_as_header",
                "icm/HTTPS/client_certificate_header_name", "icm/HTTPS/client_certificate_chain_header_prefix",
                "icm/HTTPS/client_cipher_suite_header_name", "icm/HTTPS/client_key_size_header_name",
                "icm/HTTPS/trust_client_with_issuer", "icm/HTTPS/trust_client_with_subject", "ssl/ciphersuites",
                "ssl/client_ciphersuites", "wdisp/ssl_auth", "wdisp/ssl_cred", "wdisp/ssl_cred_password");
    }
}
