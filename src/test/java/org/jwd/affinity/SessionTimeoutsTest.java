package org.jwd.affinity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** An entry's timeout follows its kind, whether its key is bare (one system) or a system's ({@code ERP/...}). */
class SessionTimeoutsTest {
    private static final Duration ESID = Duration.ofHours(1);
    private static final Duration JSESSIONID = Duration.ofMinutes(10);
    private final SessionTimeouts timeouts = new SessionTimeouts(ESID, JSESSIONID);

    @Test
    void bareKeysAreClassifiedAsBefore() {
        assertThat(timeouts.forKey(SessionTimeouts.esidKey("E1"))).isEqualTo(ESID);
        assertThat(timeouts.forKey("4711")).isEqualTo(JSESSIONID);
    }

    @Test
    void aSystemsKeyIsClassifiedAfterItsSid() {
        assertThat(timeouts.forKey("ERP/" + SessionTimeouts.esidKey("E1"))).isEqualTo(ESID);
        assertThat(timeouts.forKey("ERP/4711")).isEqualTo(JSESSIONID);
        assertThat(timeouts.forKey("ERP/")).isEqualTo(JSESSIONID);
    }
}
