package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PasswordHashTest {
    @Test
    void matchesTheHashedPasswordAndNoOther() {
        PasswordHash hash = PasswordHash.create("s3cret pässword".toCharArray(), 10_000);

        assertThat(hash.matches("s3cret pässword".toCharArray())).isTrue();
        assertThat(hash.matches("s3cret password".toCharArray())).isFalse();
        assertThat(hash.matches("".toCharArray())).isFalse();
    }

    @Test
    void readsBackWhatItWrites() {
        PasswordHash hash = PasswordHash.create("pw".toCharArray(), 12_345);

        PasswordHash read = PasswordHash.parse(hash.toString());

        assertThat(hash.toString()).matches("pbkdf2-sha256\\$12345\\$[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}");
        assertThat(read.iterations()).isEqualTo(12_345);
        assertThat(read.matches("pw".toCharArray())).isTrue();
        assertThat(read.toString()).isEqualTo(hash.toString());
    }

    @Test
    void saltsEachHashDifferently() {
        assertThat(PasswordHash.create("pw".toCharArray(), 10_000).toString())
                .isNotEqualTo(PasswordHash.create("pw".toCharArray(), 10_000).toString());
    }

    @Test
    void refusesMalformedHashes() {
        String good = PasswordHash.create("pw".toCharArray(), 10_000).toString();
        String[] parts = good.split("\\$");
        for (String bad : new String[] {"", "plain", "md5$1$a$b", parts[0] + "$x$" + parts[2] + "$" + parts[3],
                parts[0] + "$10$" + parts[2] + "$" + parts[3], parts[0] + "$10000$!!!$" + parts[3],
                parts[0] + "$10000$" + parts[2] + "$AAAA", good + "$extra"}) {
            assertThatThrownBy(() -> PasswordHash.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void refusesIterationsOutsideTheBounds() {
        assertThatThrownBy(() -> PasswordHash.create("pw".toCharArray(), 999))
                .isInstanceOf(IllegalArgumentException.class);
    }
    @Test
    void takesTheIterationsFromTheLeastToTheMostAndRefusesOneBeyondEither() {
        String[] parts = PasswordHash.create("pw".toCharArray(), 1_000).toString().split("\\$");
        String rest = "$" + parts[2] + "$" + parts[3];

        assertThat(PasswordHash.parse(parts[0] + "$1000" + rest).iterations()).isEqualTo(1_000);
        assertThat(PasswordHash.parse(parts[0] + "$10000000" + rest).iterations()).isEqualTo(10_000_000);
        assertThatThrownBy(() -> PasswordHash.parse(parts[0] + "$999" + rest))
                .hasMessage("iterations 999 not in 1000..10000000");
        assertThatThrownBy(() -> PasswordHash.parse(parts[0] + "$10000001" + rest))
                .hasMessage("iterations 10000001 not in 1000..10000000");
        assertThatThrownBy(() -> PasswordHash.create("pw".toCharArray(), 10_000_001))
                .hasMessage("iterations 10000001 not in 1000..10000000");
    }

    @Test
    void takesASaltOf8BytesAndAHashOf16AndRefusesShorterOnes() {
        String salt8 = "AAAAAAAAAAA=";
        String hash16 = "AAAAAAAAAAAAAAAAAAAAAA==";

        assertThat(PasswordHash.parse("pbkdf2-sha256$1000$" + salt8 + "$" + hash16).iterations()).isEqualTo(1_000);
        assertThatThrownBy(() -> PasswordHash.parse("pbkdf2-sha256$1000$AAAAAAAAAA==$" + hash16))
                .hasMessage("salt or hash too short");
        assertThatThrownBy(() -> PasswordHash.parse("pbkdf2-sha256$1000$" + salt8 + "$AAAAAAAAAAAAAAAAAAAA"))
                .hasMessage("salt or hash too short");
    }
}
