package org.jwd.affinity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class SaplbCookieWriterTest {

    @Test
    void plainLbIdIsWrittenInBothParts() {
        assertThat(SaplbCookieWriter.cookieValue("6906750")).isEqualTo("(6906750)6906750");
        assertThat(SaplbCookieWriter.setCookieHeader("6906750")).isEqualTo("saplb_*=(6906750)6906750; Path=/");
        assertThat(SaplbCookieWriter.setCookieHeader("s1", true)).isEqualTo("saplb_*=(s1)s1; Path=/; Secure");
    }

    @Test
    void lbIdInCookieFormIsWrittenAsIs() {
        assertThat(SaplbCookieWriter.cookieValue("(J2EE6906720)6906750")).isEqualTo("(J2EE6906720)6906750");
        assertThat(SaplbCookieWriter.cookieValue("(host_JWD_00)")).isEqualTo("(host_JWD_00)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"6906750", "(J2EE6906720)6906750", "server-1", "node_7.a", "(host_JWD_00)"})
    void writtenCookieComesBackMatchingTheLbId(String lbId) {
        String setCookie = SaplbCookieWriter.setCookieHeader(lbId);
        String cookieHeader = setCookie.substring(0, setCookie.indexOf(';')); // what the browser sends back
        SessionIdentifiers ids = SessionCookies.parse("x=1; " + cookieHeader);
        assertThat(ids.saplbCookies()).hasSize(1);
        assertThat(ids.saplbCookies().get(0).isAnyGroup()).isTrue();
        assertThat(ids.saplbCookies().get(0).matches(lbId)).isTrue();
        assertThat(ids.saplbFor(null).matches(lbId)).isTrue();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"a b", "a;b", "a,b", "a\"b", "(abc", "abc)", ")abc", "a(b)c", "(a)(b)", "caf\u00e9"})
    void unwritableLbIdIsRefused(String lbId) {
        assertThat(SaplbCookieWriter.canWrite(lbId)).isFalse();
        assertThatThrownBy(() -> SaplbCookieWriter.cookieValue(lbId)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SaplbCookieWriter.setCookieHeader(lbId)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void valueTooLongToComeBackIsRefused() {
        String half = "x".repeat(SessionCookies.MAX_SESSION_ID_LENGTH / 2);
        assertThat(SaplbCookieWriter.canWrite(half.substring(2))).isTrue();
        assertThat(SaplbCookieWriter.cookieValue(half.substring(1))).hasSize(SessionCookies.MAX_SESSION_ID_LENGTH);
        assertThat(SaplbCookieWriter.canWrite(half)).isFalse();
    }
}
