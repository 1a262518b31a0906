package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServerStateTest {

    @Test
    void readsEveryStateInAnyCaseAndNamesItInLowerCase() {
        assertThat(ServerState.parse("active")).isEqualTo(ServerState.ACTIVE);
        assertThat(ServerState.parse(" Drained ")).isEqualTo(ServerState.DRAINED);
        assertThat(ServerState.parse("DISABLED")).isEqualTo(ServerState.DISABLED);
        assertThat(ServerState.parse("paused")).isNull();
        assertThat(ServerState.DRAINED.key()).isEqualTo("drained");
    }
}
