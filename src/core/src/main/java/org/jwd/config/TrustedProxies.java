package org.jwd.config;

import java.util.Arrays;

/**
 * The peers whose {@code X-Forwarded-*} headers jwd believes ({@code jwd.trusted_proxies}): IP addresses and CIDR
 * ranges, IPv4 and IPv6 ({@link AddressRanges}). Empty by default: then nobody is trusted and a client's
 * forwarding headers are replaced.
 *
 * @param ranges the addresses and ranges as written
 */
public record TrustedProxies(AddressRanges ranges) {
    public static final TrustedProxies NONE = new TrustedProxies(AddressRanges.NONE);

    /** Parses the comma-separated value of {@code jwd.trusted_proxies}: the ranges, and the entries that are none. */
    static Parsed parse(String value) {
        AddressRanges.Parsed parsed = AddressRanges.parse(Arrays.asList(value.split(",")));
        return new Parsed(new TrustedProxies(parsed.ranges()), parsed.badEntries());
    }

    record Parsed(TrustedProxies proxies, java.util.List<String> badEntries) {
    }

    /** Whether {@code address}, the direct peer's address as the container gives it, is trusted. */
    public boolean trusts(String address) {
        return ranges.contains(address);
    }

    @Override
    public String toString() {
        return ranges.isEmpty() ? "TrustedProxies[none]" : "TrustedProxies[" + ranges + "]";
    }
}
