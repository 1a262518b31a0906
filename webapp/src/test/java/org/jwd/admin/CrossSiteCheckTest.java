package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CrossSiteCheckTest {
    private static final String HOST = "127.0.0.1:8080";

    @Test
    void letsThePageActWithItsOriginAndTheHeader() {
        assertThat(CrossSiteCheck.refusal("http", HOST, "http://127.0.0.1:8080", null, "1")).isNull();
    }

    @Test
    void acceptsTheRefererWhenTheBrowserSendsNoOrigin() {
        assertThat(CrossSiteCheck.refusal("http", HOST, null, "http://127.0.0.1:8080/jwd/admin/", "1")).isNull();
    }

    @Test
    void refusesWithoutTheCustomHeader() {
        assertThat(CrossSiteCheck.refusal("http", HOST, "http://127.0.0.1:8080", null, null))
                .contains("X-Jwd-Admin");
        assertThat(CrossSiteCheck.refusal("http", HOST, "http://127.0.0.1:8080", null, "0"))
                .contains("X-Jwd-Admin");
    }

    @Test
    void refusesAnotherOrigin() {
        assertThat(CrossSiteCheck.refusal("http", HOST, "http://evil.example", null, "1")).contains("cross-site");
        assertThat(CrossSiteCheck.refusal("http", HOST, "http://127.0.0.1:8081", null, "1")).contains("cross-site");
        assertThat(CrossSiteCheck.refusal("http", HOST, "https://127.0.0.1:8080", null, "1")).contains("cross-site");
        assertThat(CrossSiteCheck.refusal("http", HOST, "null", null, "1")).contains("cross-site");
    }

    @Test
    void theOriginWinsOverAMatchingReferer() {
        assertThat(CrossSiteCheck.refusal("http", HOST, "http://evil.example", "http://127.0.0.1:8080/", "1"))
                .contains("Origin");
    }

    @Test
    void refusesWithoutOriginAndReferer() {
        assertThat(CrossSiteCheck.refusal("http", HOST, null, null, "1")).contains("Origin or Referer");
    }

    @Test
    void refusesARefererOfAnotherSite() {
        assertThat(CrossSiteCheck.refusal("http", HOST, null, "http://evil.example/page", "1")).contains("Referer");
    }

    @Test
    void comparesHostsWithoutCaseAndWithDefaultPorts() {
        assertThat(CrossSiteCheck.refusal("http", "Jwd.Example", "http://jwd.example:80", null, "1")).isNull();
        assertThat(CrossSiteCheck.refusal("https", "jwd.example:443", "https://JWD.example", null, "1")).isNull();
        assertThat(CrossSiteCheck.refusal("http", "[::1]:8080", "http://[::1]:8080", null, "1")).isNull();
    }

    @Test
    void refusesWithoutAValidHost() {
        assertThat(CrossSiteCheck.refusal("http", null, "http://127.0.0.1:8080", null, "1")).contains("Host");
        assertThat(CrossSiteCheck.refusal("http", "a:b", "http://a", null, "1")).contains("Host");
    }
}
