package org.jwd.affinity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SetCookieHeadersTest {
    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "JSESSIONID=abc123; Path=/; HttpOnly                 | abc123",
            "JSESSIONID=node0x1.node0                            | node0x1.node0",
            "JSESSIONID = spaced ; Path=/                        | spaced",
            "JSESSIONID=\"quoted\"; Path=/                       | quoted",
            "jsessionid=lower; Path=/                            | lower",
            "JSESSIONID=; Path=/                                 | null",
            "JSESSIONID=gone; Max-Age=0; Path=/                  | null",
            "JSESSIONID=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT | null",
            "JSESSIONIDX=other; Path=/                           | null",
            "saplb_*=(J2EE1)1; Path=/                            | null",
            "JSESSIONID=bad value; Path=/                        | null",
            "JSESSIONID                                          | null"})
    void readsTheSessionAServerStarts(String header, String expected) {
        assertThat(SetCookieHeaders.jsessionid(header)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "saplb_*=(J2EE1)1; Path=/ | true",
            "saplb_PORTAL=(J2EE1)1    | true",
            "JSESSIONID=x             | false"})
    void recognizesALoadBalancingCookie(String header, boolean saplb) {
        assertThat(SetCookieHeaders.isSaplb(header)).isEqualTo(saplb);
    }

    @Test
    void aHeaderEndingAfterTheNameOrItsBlanksSetsNothing() {
        assertThat(SetCookieHeaders.jsessionid(null)).isNull();
        assertThat(SetCookieHeaders.jsessionid("JSESSIONID ")).isNull();
        assertThat(SetCookieHeaders.jsessionid("JSESSIONID   ")).isNull();
    }

    @Test
    void aDeletionAtTheEndOfTheHeaderIsOne() {
        assertThat(SetCookieHeaders.jsessionid("JSESSIONID=gone; Path=/; Max-Age=0")).isNull();
    }

    @Test
    void readsASessionIdUpToTheLongestACookieCarries() {
        String longest = "x".repeat(SessionCookies.MAX_SESSION_ID_LENGTH);

        assertThat(SetCookieHeaders.jsessionid("JSESSIONID=" + longest + "; Path=/")).isEqualTo(longest);
        assertThat(SetCookieHeaders.jsessionid("JSESSIONID=" + longest + "x; Path=/")).isNull();
    }
}
