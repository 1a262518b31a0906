package org.jwd.limits;

import org.jwd.runtime.ConfigReader;
import static org.assertj.core.api.Assertions.assertThat;

import org.jwd.config.ConfigException;
import org.junit.jupiter.api.Test;

class ConnectionSlotsTest {
    private static LimitsConfig limits(String keys) throws ConfigException {
        return ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                server.b.url=http://127.0.0.1:9002
                server.b.type=j2ee
                """ + keys, "test.properties").section(LimitsConfig.class);
    }

    @Test
    void aServerWithoutALimitHasUnlimitedSlots() throws ConfigException {
        ConnectionSlots slots = ConnectionSlots.NONE.next(limits("server.a.max_connections=2\n"));

        assertThat(slots.of("a").maxConnections()).isEqualTo(2);
        assertThat(slots.of("b")).isSameAs(ServerSlots.UNLIMITED);
        assertThat(slots.of("unknown")).isSameAs(ServerSlots.UNLIMITED);
    }

    @Test
    void aReloadKeepsTheSlotsOfAnUnchangedLimitAndReplacesAChangedOne() throws ConfigException {
        ConnectionSlots slots = ConnectionSlots.NONE.next(limits("server.a.max_connections=2\nserver.b.max_connections=1\n"));
        ServerSlots a = slots.of("a");
        ServerSlots b = slots.of("b");
        b.acquire(() -> { });

        slots = slots.next(limits("server.a.max_connections=2\nserver.b.max_connections=3\n"));

        assertThat(slots.of("a")).isSameAs(a);
        assertThat(slots.of("b")).isNotSameAs(b);
        assertThat(slots.of("b").maxConnections()).isEqualTo(3);
        assertThat(b.active()).as("the old slots finish under the old limit").isEqualTo(1);
    }

    @Test
    void aRemovedLimitLeavesTheServerUnlimited() throws ConfigException {
        ConnectionSlots slots = ConnectionSlots.NONE.next(limits("server.a.max_connections=2\n"));

        slots = slots.next(limits(""));

        assertThat(slots.of("a").isLimited()).isFalse();
    }
}
