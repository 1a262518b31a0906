package org.jwd.config;

import org.jwd.runtime.ConfigReader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwd.sessiontable.SessionTable;

class SessionTableDiskConfigTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";

    @TempDir
    Path dir;

    private Path write(String text) throws Exception {
        Path file = dir.resolve("jwd.properties");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void withoutThePathTheTableIsNotPersistent() throws Exception {
        assertThat(SessionTableDiskConfig.of(ConfigReader.load(write(A)))).isNull();
    }

    @Test
    void aRelativePathIsResolvedAgainstTheConfigurationsDirectoryAndTheFlushIntervalDefaultsTo30s() throws Exception {
        DispatcherConfig config = ConfigReader.load(write(A + "SessionTable.disk_path = var/table\n"));
        SessionTableDiskConfig disk = SessionTableDiskConfig.of(config);
        assertThat(disk.directory()).isEqualTo(dir.resolve("var/table").toAbsolutePath());
        assertThat(disk.flushInterval()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void anAbsolutePathStaysAndTheFlushIntervalIsADuration() throws Exception {
        DispatcherConfig config = ConfigReader.load(write(A + "SessionTable.disk_path = /var/lib/jwd\n"
                + "SessionTable.disk_flush_interval = 5s\n"));
        SessionTableDiskConfig disk = SessionTableDiskConfig.of(config);
        assertThat(disk.directory()).isEqualTo(Path.of("/var/lib/jwd"));
        assertThat(disk.flushInterval()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aFlushIntervalBelowOneSecondFailsTheStartNamingTheKey() throws Exception {
        Path file = write(A + "SessionTable.disk_path = table\nSessionTable.disk_flush_interval = 500ms\n");
        assertThatThrownBy(() -> ConfigReader.load(file)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("SessionTable.disk_flush_interval = '500ms': expected a duration of at least 1s");
    }

    @Test
    void clusterModeAndADiskTierExcludeEachOther() throws Exception {
        Path file = write(A + "SessionTable.disk_path = table\n"
                + "SessionTable.cluster_uri = terracotta://127.0.0.1:9410/jwd\n");
        assertThatThrownBy(() -> ConfigReader.load(file)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("SessionTable.disk_path = 'table': expected no SessionTable.cluster_uri");
    }

    @Test
    void aDiskTierWithoutATableFailsTheStart() throws Exception {
        Path file = write(A + "SessionTable.disk_path = table\nwdisp/HTTP/esid_support = false\n"
                + "wdisp/HTTP/jsessionid_tab_support = false\n");
        assertThatThrownBy(() -> ConfigReader.load(file)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("SessionTable.disk_path = 'table': expected a session table to keep");
    }
    @Test
    void aFlushIntervalOfOneSecondIsTaken() throws Exception {
        DispatcherConfig config = ConfigReader.load(write(A + "SessionTable.disk_path = table\n"
                + "SessionTable.disk_flush_interval = 1s\n"));

        assertThat(SessionTableDiskConfig.of(config).flushInterval()).isEqualTo(Duration.ofSeconds(1));
    }
}
