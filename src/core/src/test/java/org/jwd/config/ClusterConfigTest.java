package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jwd.runtime.ConfigReader;
import org.jwd.sessiontable.SessionTable;

class ClusterConfigTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";

    @TempDir
    Path dir;

    private DispatcherConfig load(String text) throws Exception {
        Path file = dir.resolve("jwd.properties");
        Files.writeString(file, text);
        return ConfigReader.load(file);
    }

    @Test
    void withoutTheKeyNothingIsClustered() throws Exception {
        assertThat(ClusterConfig.of(load(A + "SessionTableTimeout=30s\n"))).isNull();
    }

    @Test
    void readsTheServerAndTheEntity() throws Exception {
        DispatcherConfig config = load(A + "SessionTableTimeout=30s\n"
                + "SessionTable.cluster_uri=terracotta://127.0.0.1:9410/jwd-prod\n");

        ClusterConfig cluster = ClusterConfig.of(config);
        assertThat(cluster.servers()).containsExactly("127.0.0.1:9410");
        assertThat(cluster.entity()).isEqualTo("jwd-prod");
        assertThat(cluster).hasToString("terracotta://127.0.0.1:9410/jwd-prod");
    }

    @Test
    void readsAStripeWithAPassiveServer() throws Exception {
        ClusterConfig cluster = ClusterConfig.of(load(A + "SessionTableTimeout=30s\n"
                + "SessionTable.cluster_uri=terracotta://tc1.example.com:9410,tc2.example.com:9510/jwd\n"));

        assertThat(cluster.servers()).containsExactly("tc1.example.com:9410", "tc2.example.com:9510");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:9410/jwd", "terracotta://127.0.0.1/jwd", "terracotta://127.0.0.1:9410",
            "terracotta://127.0.0.1:9410/", "terracotta://127.0.0.1:99999/jwd", "terracotta://h:9410/a/b",
            "terracotta://h:9410/jwd?x=1", "terracotta://h:9410,/jwd", "terracotta://u@h:9410/jwd", ""})
    void refusesAnythingElseNamingTheKeyAndTheValue(String value) {
        assertThatThrownBy(() -> load(A + "SessionTableTimeout=30s\nSessionTable.cluster_uri=" + value + "\n"))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
                        dir.resolve("jwd.properties") + ":4: SessionTable.cluster_uri = '" + value
                                + "': expected " + ClusterConfig.EXPECTED));
    }

    @Test
    void needsTheSessionTable() {
        assertThatThrownBy(() -> load(A + "wdisp/HTTP/esid_support=false\nwdisp/HTTP/jsessionid_tab_support=false\n"
                + "SessionTable.cluster_uri=terracotta://127.0.0.1:9410/jwd\n"))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).singleElement().asString()
                        .contains("SessionTable.cluster_uri = 'terracotta://127.0.0.1:9410/jwd'")
                        .contains("expected a session table to share"));
        assertThat(ClusterConfig.EXPECTED).startsWith("terracotta://host:port/<entity>");
    }
    @Test
    void serversOnTheFirstAndTheLastPortAreTaken() throws Exception {
        ClusterConfig cluster = ClusterConfig.of(load(A + "SessionTableTimeout=30s\n"
                + "SessionTable.cluster_uri=terracotta://tc1.example.com:1,tc2.example.com:65535/jwd\n"));

        assertThat(cluster.servers()).containsExactly("tc1.example.com:1", "tc2.example.com:65535");
        assertThat(ClusterConfig.parse("terracotta://h:0/jwd")).isNull();
        assertThat(ClusterConfig.parse("terracotta://h:65536/jwd")).isNull();
    }
}
