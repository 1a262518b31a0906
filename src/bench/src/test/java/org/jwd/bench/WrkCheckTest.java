package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WrkCheckTest {
    @Test
    void aStickyTargetKeepingEverySessionOnOneBackendPasses() {
        assertThat(new WrkCheck("sticky", "jwd", true, true).problems(Recorded.text("check-jwd-sticky.txt"))).isEmpty();
    }

    @Test
    void aRoundRobinThatClaimedToStickIsCaughtSessionBySession() {
        assertThat(new WrkCheck("sticky", "nginx-rr", true, true).problems(Recorded.text("check-nginx-rr-sticky.txt")))
                .hasSize(8).allMatch(p -> p.matches("session CHECK000\\d\\.b[12] answered by 2 backends"));
        // the same output is no problem for a target that is not meant to stick
        assertThat(new WrkCheck("sticky", "nginx-rr", true, false).problems(Recorded.text("check-nginx-rr-sticky.txt")))
                .isEmpty();
    }

    @Test
    void directMustReachB1AloneAndARoundRobinMustSpread() {
        String direct = Recorded.text("check-direct-none.txt");
        assertThat(new WrkCheck("none", "direct", false, false).problems(direct)).isEmpty();
        assertThat(new WrkCheck("none", "nginx-rr", true, false).problems(direct))
                .containsExactly("none: does not spread requests over b1 and b2");
        String spread = Recorded.text("check-nginx-rr-none.txt");
        assertThat(new WrkCheck("none", "nginx-rr", true, false).problems(spread)).isEmpty();
        assertThat(new WrkCheck("none", "direct", false, false).problems(spread))
                .containsExactly("direct does not reach b1 alone");
    }

    @Test
    void badAnswersAreCountedAndNamed() {
        String bad = "check responses 10 status200 7 setcookie 9 nobackend 2 minbody 12 maxbody 1012\n"
                + "check seen - b1 5\ncheck seen - b2 3\ncheck seen - none 2\n";

        assertThat(new WrkCheck("none", "haproxy-rr", true, false).problems(bad)).containsExactly(
                "none: 3 of 10 responses not 200", "none: 2 responses without X-Backend",
                "none: body of 12 to 1012 bytes, not ~1 KB", "none: 1 of 10 responses without the backend Set-Cookie");
    }

    @Test
    void stickySessionsAllOnOneBackendProveNothing() {
        String oneBackend = "check responses 8 status200 8 setcookie 0 nobackend 0 minbody 1012 maxbody 1012\n"
                + "check seen CHECK0001.b1 b1 4\ncheck seen CHECK0002.b2 b1 4\n";

        assertThat(new WrkCheck("sticky", "jwd", true, true).problems(oneBackend))
                .containsExactly("sticky: 2 sessions all on one backend");
    }

    @Test
    void noOutputOrNoResponseIsAProblem() {
        assertThat(new WrkCheck("none", "jwd", true, true).problems(Recorded.text("wrk-refused.txt")))
                .containsExactly("wrk gave no check output");
        assertThat(new WrkCheck("none", "jwd", true, true)
                .problems("check responses 0 status200 0 setcookie 0 nobackend 0 minbody 0 maxbody 0\n"))
                .containsExactly("none: no response at all");
    }
}
