package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class LoginBackOffTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final LoginBackOff backOff = new LoginBackOff(3, Duration.ofSeconds(2), Duration.ofSeconds(10),
            Duration.ofMinutes(15), 100, now::get);

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void theFirstFailuresAreFree() {
        assertThat(backOff.failed("10.0.0.1")).isZero();
        assertThat(backOff.failed("10.0.0.1")).isZero();

        assertThat(backOff.retryAfter("10.0.0.1")).isZero();
    }

    @Test
    void afterTheFreeFailuresTheAddressWaitsForABackOffThatDoubles() {
        for (int i = 0; i < 2; i++) {
            backOff.failed("10.0.0.1");
        }

        assertThat(backOff.failed("10.0.0.1")).isEqualTo(Duration.ofSeconds(2));
        assertThat(backOff.retryAfter("10.0.0.1")).isEqualTo(Duration.ofSeconds(2));
        advance(Duration.ofMillis(1500));
        assertThat(backOff.retryAfter("10.0.0.1")).isEqualTo(Duration.ofMillis(500));
        advance(Duration.ofMillis(500));
        assertThat(backOff.retryAfter("10.0.0.1")).isZero();

        assertThat(backOff.failed("10.0.0.1")).isEqualTo(Duration.ofSeconds(4));
        advance(Duration.ofSeconds(4));
        assertThat(backOff.failed("10.0.0.1")).isEqualTo(Duration.ofSeconds(8));
        advance(Duration.ofSeconds(8));
        assertThat(backOff.failed("10.0.0.1")).as("capped").isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void otherAddressesAreNotSlowedDown() {
        for (int i = 0; i < 5; i++) {
            backOff.failed("10.0.0.1");
        }

        assertThat(backOff.retryAfter("10.0.0.1")).isPositive();
        assertThat(backOff.retryAfter("10.0.0.2")).isZero();
    }

    @Test
    void goodCredentialsStartAfresh() {
        for (int i = 0; i < 3; i++) {
            backOff.failed("10.0.0.1");
        }
        advance(Duration.ofSeconds(2));

        backOff.succeeded("10.0.0.1");

        assertThat(backOff.failed("10.0.0.1")).isZero();
        assertThat(backOff.retryAfter("10.0.0.1")).isZero();
    }

    @Test
    void failuresLongAgoAreForgotten() {
        for (int i = 0; i < 3; i++) {
            backOff.failed("10.0.0.1");
        }
        advance(Duration.ofMinutes(16));

        assertThat(backOff.failed("10.0.0.1")).isZero();
    }

    @Test
    void tracksABoundedNumberOfAddresses() {
        for (int i = 0; i < 250; i++) {
            backOff.failed("10.0.1." + i);
        }

        assertThat(backOff.tracked()).isLessThanOrEqualTo(100);
    }
}
