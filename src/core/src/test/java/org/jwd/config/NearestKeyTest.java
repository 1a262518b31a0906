package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The known key an unknown one was meant to be ("did you mean ...?"), {@link SapProfile#nearest}. */
class NearestKeyTest {
    @Test
    void aKeyOfEightLettersOrFewerIsMeantOneEditAwayAndALongerOneTwo() {
        List<String> known = List.of("jwd.host", "jwd.hosts");

        assertThat(SapProfile.nearest("jwd.hozt", known)).isEqualTo("jwd.host");
        assertThat(SapProfile.nearest("jwd.hozz", known)).isNull();
        assertThat(SapProfile.nearest("jwd.hozzs", known)).isEqualTo("jwd.hosts");
        assertThat(SapProfile.nearest("jwd.hozzzs", known)).isNull();
    }

    @Test
    void twoLettersLeftOutOfALongKeyAreStillTheKeyMeant() {
        List<String> known = List.of("jwd.request_timeout", "wdisp/HTTP/context_timeout");

        assertThat(SapProfile.nearest("wdisp/HTTP/contxt_timout", known)).isEqualTo("wdisp/HTTP/context_timeout");
        assertThat(SapProfile.nearest("wdisp/HTTP/contxt_timot", known)).isNull();
    }

    @Test
    void theNearerKeyIsMeantAndOfTwoAsNearTheFirstKnown() {
        assertThat(SapProfile.nearest("jwd.hozts", List.of("jwd.hoxxs", "jwd.hosts"))).isEqualTo("jwd.hosts");
        assertThat(SapProfile.nearest("jwd.hozt", List.of("jwd.host", "jwd.hoot"))).isEqualTo("jwd.host");
        assertThat(SapProfile.nearest("jwd.hozt", List.of("jwd.hoot", "jwd.host"))).isEqualTo("jwd.hoot");
        assertThat(SapProfile.nearest("JWD.HOST", List.of("jwd.hosts", "jwd.host"))).isEqualTo("jwd.host");
    }

    @Test
    void anUnrelatedKeyOfTheSameLengthIsNotMeant() {
        assertThat(SapProfile.nearest("jwd.colour", List.of("jwd.volume", "jwd.colours_of_the_rainbow"))).isNull();
    }

    @Test
    void theOnlyKnownKeyOfTheSameNameOfFourLettersOrMoreUnderAnotherPrefixIsMeant() {
        assertThat(SapProfile.nearest("jwd.pool", List.of("wdisp/pool", "jwd.host"))).isEqualTo("wdisp/pool");
        assertThat(SapProfile.nearest("jwd.foo", List.of("wdisp/foo"))).isNull();
        assertThat(SapProfile.nearest("jwd.pool", List.of("wdisp/pool", "icm/pool"))).isNull();
    }

    @Test
    void theDistanceIsLevenshteinsAndLimitPlusOneBeyondTheLimit() {
        assertThat(SapProfile.distance("kitten", "sitting", 5)).isEqualTo(3);
        assertThat(SapProfile.distance("flaw", "lawn", 5)).isEqualTo(2);
        assertThat(SapProfile.distance("", "abc", 5)).isEqualTo(3);
        assertThat(SapProfile.distance("abc", "", 5)).isEqualTo(3);
        assertThat(SapProfile.distance("abc", "abd", 5)).isEqualTo(1);
        assertThat(SapProfile.distance("ab", "xy", 2)).isEqualTo(2);
        assertThat(SapProfile.distance("abcdef", "ghijkl", 2)).isEqualTo(3);
        assertThat(SapProfile.distance("abcdef", "abc", 2)).isEqualTo(3);
    }
}
