package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** An entry's timeout follows its kind, whether its key is bare (one system) or a system's ({@code ERP/...}). */
class SessionTimeoutsTest {
    private static final Duration ESID = Duration.ofHours(1);
    private static final Duration JSESSIONID = Duration.ofMinutes(10);
    private final SessionTimeouts timeouts = new SessionTimeouts(ESID, JSESSIONID);
    /** ERP has its own: ESIDs 2 h, JSESSIONIDs 30 s; PRT those of the unscoped keys. */
    private final SessionTimeouts perSystem = new SessionTimeouts(ESID, JSESSIONID, Map.of(
            "ERP", new SessionTimeouts(Duration.ofHours(2), Duration.ofSeconds(30)),
            "PRT", new SessionTimeouts(ESID, JSESSIONID)));

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

    @Test
    void aSystemsKeyTakesItsSystemsTimeoutsAndAnUnknownSidTheUnscopedOnes() {
        assertThat(perSystem.forKey("ERP/4711")).isEqualTo(Duration.ofSeconds(30));
        assertThat(perSystem.forKey("ERP/" + SessionTimeouts.esidKey("E1"))).isEqualTo(Duration.ofHours(2));
        assertThat(perSystem.forKey("PRT/4711")).isEqualTo(JSESSIONID);
        assertThat(perSystem.forKey("QAS/4711")).as("a system a reload removed").isEqualTo(JSESSIONID);
        assertThat(perSystem.forKey("4711")).isEqualTo(JSESSIONID);
        assertThat(perSystem.forKey("ERP")).as("no SID part: a bare key").isEqualTo(JSESSIONID);
    }

    /** The Java dispatcher's temporary table: JSESSIONIDs bound at request time, apart from those servers set. */
    @Test
    void aTemporaryTableKeyTakesTheTemporaryTablesTimeout() {
        SessionTimeouts withTemporary = new SessionTimeouts(ESID, ESID, JSESSIONID, Map.of(
                "ERP", new SessionTimeouts(ESID, ESID, Duration.ofSeconds(30))));

        assertThat(withTemporary.forKey(SessionTimeouts.temporaryKey("4711"))).isEqualTo(JSESSIONID);
        assertThat(withTemporary.forKey("4711")).isEqualTo(ESID);
        assertThat(withTemporary.forKey("ERP/" + SessionTimeouts.temporaryKey("4711"))).isEqualTo(Duration.ofSeconds(30));
        assertThat(withTemporary.forKey("ERP/4711")).isEqualTo(ESID);
        assertThat(withTemporary).hasToString("1h, temporary table 10m; ERP 1h, temporary table 30s");
    }

    @Test
    void theLongestAndTheShortestCountEverySystem() {
        assertThat(perSystem.longest()).isEqualTo(Duration.ofHours(2));
        assertThat(perSystem.shortest()).isEqualTo(Duration.ofSeconds(30));
        assertThat(timeouts.longest()).isEqualTo(ESID);
        assertThat(timeouts.shortest()).isEqualTo(JSESSIONID);
    }

    @Test
    void namesTheSystemsWhoseTimeoutsDiffer() {
        assertThat(perSystem).hasToString("ESID 1h, JSESSIONID 10m; ERP ESID 2h, JSESSIONID 30s");
        assertThat(timeouts).hasToString("ESID 1h, JSESSIONID 10m");
    }

    @Test
    void refusesASystemThatIsNoSid() {
        assertThatThrownBy(() -> new SessionTimeouts(ESID, JSESSIONID, Map.of("ERP1", timeouts)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("session table timeouts of system 'ERP1': expected a three-character SID");
    }

    @Test
    void refusesASidWithASlashAndATimeoutThatIsNotPositive() {
        assertThatThrownBy(() -> new SessionTimeouts(ESID, JSESSIONID, Map.of("/RP", timeouts)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("session table timeouts of system '/RP'");
        assertThatThrownBy(() -> new SessionTimeouts(ESID, JSESSIONID, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("temporary table timeout");
    }

    @Test
    void refusesAnEsidOrJsessionidTimeoutThatIsNotPositive() {
        assertThatThrownBy(() -> new SessionTimeouts(Duration.ZERO, JSESSIONID))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("session table ESID timeout must be positive: PT0S");
        assertThatThrownBy(() -> new SessionTimeouts(ESID, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("session table JSESSIONID timeout must be positive: PT-1S");
    }

    @Test
    void aKeyOfASidAndASlashAloneIsABareJsessionid() {
        assertThat(perSystem.forKey("ERP/")).isEqualTo(JSESSIONID);
        assertThat(perSystem.forKey("ERP/4711")).isEqualTo(Duration.ofSeconds(30));
    }
}
