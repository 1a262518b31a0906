package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class ConnectionMemoryTest {
    @Test
    void givesMediansPerCountAndTheCostOfAThousandMoreConnections() {
        List<ConnectionMemory> lines = List.of(
                new ConnectionMemory(1, "jwd", 64, 200 * 1024), new ConnectionMemory(2, "jwd", 64, 210 * 1024),
                new ConnectionMemory(3, "jwd", 64, 190 * 1024),
                new ConnectionMemory(1, "jwd", 4064, 260 * 1024), new ConnectionMemory(2, "jwd", 4064, 240 * 1024),
                new ConnectionMemory(3, "jwd", 4064, 250 * 1024),
                new ConnectionMemory(1, "nginx-hash", 64, 10 * 1024));

        String table = ConnectionMemory.report(lines, List.of("jwd", "nginx-hash"));

        assertThat(table).isEqualTo("""

                | target | RSS MB at 64 | RSS MB at 4064 | MB per 1,000 connections |
                |---|---:|---:|---:|
                | jwd | 200.0 | 250.0 | 12.5 |
                | nginx-hash | 10.0 | - | - |
                """);
    }

    @Test
    void readsBackWhatItWrites() {
        ConnectionMemory line = new ConnectionMemory(2, "haproxy-stick", 1000, 81_234);

        assertThat(ConnectionMemory.parse(line.toTsv())).isEqualTo(line);
        assertThatThrownBy(() -> ConnectionMemory.parse("1\tjwd\tmany\t5"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'1\tjwd\tmany\t5'");
    }
}
