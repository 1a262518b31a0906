package org.jwd.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The peers whose {@code X-Forwarded-*} headers jwd believes ({@code jwd.trusted_proxies}): IP addresses and CIDR
 * ranges, IPv4 and IPv6. Empty by default: then nobody is trusted and a client's forwarding headers are replaced.
 *
 * <p>Addresses are parsed when the configuration is read, into bytes and a prefix length; a request compares
 * the bytes of its peer's address, a literal, so no name is ever resolved and no regular expression runs.
 *
 * @param ranges the ranges as written, parsed
 */
public record TrustedProxies(List<Range> ranges) {
    public static final TrustedProxies NONE = new TrustedProxies(List.of());

    public TrustedProxies {
        ranges = List.copyOf(ranges);
    }

    /**
     * One address or CIDR range.
     *
     * @param text   as written in the configuration
     * @param bytes  the network's address: 4 bytes for IPv4, 16 for IPv6
     * @param prefix how many leading bits must agree
     */
    public record Range(String text, byte[] bytes, int prefix) {
        boolean contains(byte[] address) {
            if (address.length != bytes.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != bytes[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return (address[full] & mask) == (bytes[full] & mask);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Range r && r.prefix == prefix && Arrays.equals(r.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes) * 31 + prefix;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * Parses the comma-separated value of {@code jwd.trusted_proxies}.
     *
     * @return the ranges, or a message per bad entry naming it and what is expected
     */
    static Parsed parse(String value) {
        List<Range> ranges = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        for (String entry : value.split(",")) {
            String text = entry.strip();
            if (text.isEmpty()) {
                continue;
            }
            Range range = range(text);
            if (range == null) {
                bad.add(text);
            } else {
                ranges.add(range);
            }
        }
        return new Parsed(new TrustedProxies(ranges), bad);
    }

    record Parsed(TrustedProxies proxies, List<String> badEntries) {
    }

    private static Range range(String text) {
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        byte[] bytes = literal(address);
        if (bytes == null) {
            return null;
        }
        int prefix = bytes.length * 8;
        if (slash >= 0) {
            String bits = text.substring(slash + 1);
            if (bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            prefix = Integer.parseInt(bits);
            if (prefix > bytes.length * 8) {
                return null;
            }
        }
        return new Range(text, bytes, prefix);
    }

    /** Whether {@code address}, the direct peer's address as the container gives it, is trusted. */
    public boolean trusts(String address) {
        if (ranges.isEmpty() || address == null) {
            return false;
        }
        byte[] bytes = literal(address);
        if (bytes == null) {
            return false;
        }
        for (Range range : ranges) {
            if (range.contains(bytes)) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return ranges.isEmpty();
    }

    /**
     * The bytes of an IP address literal, or {@code null} when it is none. Never resolves a name: IPv4 is parsed
     * here, and only text with a ':' reaches {@link InetAddress#getByName}, which takes that as an IPv6 literal
     * and fails rather than look it up. An IPv4-mapped IPv6 address yields its 4 IPv4 bytes.
     */
    static byte[] literal(String text) {
        String s = text;
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1);
        }
        if (s.indexOf(':') < 0) {
            return ipv4(s);
        }
        if (s.indexOf('%') >= 0 || !s.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
            return null;
        }
        try {
            return InetAddress.getByName(s).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static byte[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            bytes[i] = (byte) v;
        }
        return bytes;
    }

    @Override
    public String toString() {
        return ranges.isEmpty() ? "TrustedProxies[none]" : "TrustedProxies" + ranges;
    }
}
