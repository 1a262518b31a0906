package org.jwd.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Set;

import org.jwd.config.ServerConfig;
import org.jwd.config.ServerHealthCheck;
import org.jwd.config.ServerState;
import org.jwd.config.ServerType;
import org.junit.jupiter.api.Test;

class ServerStateSinceTest {
    private static ServerConfig config(int capacity, ServerState state) {
        return new ServerConfig("s", URI.create("http://127.0.0.1:9001"), null, ServerType.J2EE, capacity, Set.of(),
                "s", "s", null, "/", "s", ServerHealthCheck.DEFAULTS, state);
    }

    @Test
    void theStateKeepsItsTimeUntilItChangesByAnOperatorOrByHealth() {
        Server s = new Server(config(1, ServerState.ACTIVE));

        s.setAdminState(Server.AdminState.DRAINED, 1_000, "ops from 10.0.0.7");
        s.setAdminState(Server.AdminState.DRAINED, 5_000, "ops from 10.0.0.7");
        assertThat(s.stateSinceMillis()).isEqualTo(1_000);
        assertThat(s.adminChange()).isEqualTo(new Server.AdminChange(Server.AdminState.DRAINED, 1_000,
                "ops from 10.0.0.7"));

        assertThat(s.checkFailed(false, 1, "GET http://127.0.0.1:9001/: status 404, expected 200-399")).isTrue();
        assertThat(s.state()).isEqualTo(Server.State.DOWN);
        assertThat(s.stateSinceMillis()).isGreaterThan(5_000);
        assertThat(s.failures().failedChecks()).isEqualTo(1);
        assertThat(s.failures().last()).endsWith("status 404, expected 200-399");
        assertThat(s.checked()).isTrue();
    }

    @Test
    void aRequestsFailureIsTheLastFailureButNoFailedCheck() {
        Server s = new Server(config(1, ServerState.ACTIVE));

        s.recordFailure(false, 3, "request failed: java.net.ConnectException");

        assertThat(s.failures().failedChecks()).isZero();
        assertThat(s.failures().last()).isEqualTo("request failed: java.net.ConnectException");
        assertThat(s.checked()).as("no active check came back").isFalse();
    }

    @Test
    void onlyTheConfiguredStateMayChangeWithoutANewServer() {
        Server s = new Server(config(1, ServerState.ACTIVE));

        s.reconfigure(config(1, ServerState.DISABLED));

        assertThat(s.config().state()).isEqualTo(ServerState.DISABLED);
        assertThatThrownBy(() -> s.reconfigure(config(2, ServerState.DISABLED)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is another server than");
    }

    @Test
    void countsAnswersByWhoWroteThemAndTheBodiesBytes() {
        ServerTraffic t = new ServerTraffic();

        t.ended(404, true, 0, 120);
        t.ended(500, true, 10, 0);
        t.ended(503, true, 0, 0);
        t.ended(502, false, 2048, 0);
        t.ended(504, false, 0, 0);
        t.ended(503, false, 0, 0);
        t.ended(200, true, 5, 1000);

        assertThat(t.counts()).isEqualTo(new ServerTraffic.Counts(1, 2, 1, 1, 1, 2063, 1120));
    }
}
