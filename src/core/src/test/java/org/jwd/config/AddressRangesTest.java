package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class AddressRangesTest {
    @Test
    void matchesAddressesAndRangesOfBothFamiliesAndNamesWhatIsNone() {
        AddressRanges.Parsed parsed = AddressRanges.parse(List.of("10.0.0.0/8", " [::1] ", "fd00::/8", "",
                "intranet", "10.0.0.0/33", "::ffff:10.0.0.0/104"));

        assertThat(parsed.badEntries()).containsExactly("intranet", "10.0.0.0/33", "::ffff:10.0.0.0/104");
        AddressRanges r = parsed.ranges();
        assertThat(r.entries()).containsExactly("10.0.0.0/8", "::1", "fd00::/8");
        assertThat(r.contains("10.9.8.7")).isTrue();
        assertThat(r.contains("::ffff:10.9.8.7")).as("IPv4-mapped is IPv4").isTrue();
        assertThat(r.contains("0:0:0:0:0:0:0:1")).isTrue();
        assertThat(r.contains("fd12::3")).isTrue();
        assertThat(r.contains("11.0.0.1")).isFalse();
        assertThat(r.contains("fe80::1%eth0")).isFalse();
        assertThat(r.contains(null)).isFalse();
        assertThat(AddressRanges.NONE.contains("10.0.0.1")).isFalse();
        assertThat(r).hasToString("10.0.0.0/8, ::1, fd00::/8");
    }

    @Test
    void prefixLengthsFromZeroToTheWidthOfTheFamilyAreRanges() {
        AddressRanges.Parsed parsed = AddressRanges.parse(List.of("10.0.0.0/9", "192.0.2.1/32", "::1/128",
                "0.0.0.0/0", "::/0"));

        assertThat(parsed.badEntries()).isEmpty();
        assertThat(parsed.ranges().entries())
                .containsExactly("10.0.0.0/9", "192.0.2.1/32", "::1/128", "0.0.0.0/0", "::/0");
        AddressRanges nine = AddressRanges.parse(List.of("10.0.0.0/9")).ranges();
        assertThat(nine.contains("10.127.255.255")).isTrue();
        assertThat(nine.contains("10.128.0.0")).isFalse();
    }

    @Test
    void anIpv4MappedNetworkIsRefusedHoweverItIsWritten() {
        assertThat(AddressRanges.parse(List.of("::ffff:10.0.0.0/24", "::ffff:a00:0/24", "0:0:0:0:0:ffff:a00:0/24"))
                .badEntries()).containsExactly("::ffff:10.0.0.0/24", "::ffff:a00:0/24", "0:0:0:0:0:ffff:a00:0/24");
    }

    @Test
    void rangesOfTheSameEntriesAreEqual() {
        AddressRanges a = AddressRanges.parse(List.of("10.0.0.0/8", "::1")).ranges();
        AddressRanges b = AddressRanges.parse(List.of(" 10.0.0.0/8", "[::1]")).ranges();
        AddressRanges c = AddressRanges.parse(List.of("10.0.0.0/8")).ranges();

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotEqualTo(c).isNotEqualTo("10.0.0.0/8, ::1");
        assertThat(AddressRanges.NONE).hasToString("none");
    }
}
