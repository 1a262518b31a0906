package org.jwd.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.jetty.util.InetAddressSet;

/**
 * IP addresses and CIDR ranges, IPv4 and IPv6 ({@code 127.0.0.1}, {@code 10.0.0.0/8}, {@code ::1},
 * {@code fd00::/8}), matched by Jetty's {@link InetAddressSet}: the peers whose forwarding headers jwd believes
 * ({@code jwd.trusted_proxies}) and the clients the administration takes ({@code CLIENTHOST} of
 * {@code icm/HTTP/admin_<xx>}).
 *
 * <p>Every entry is checked here to be an address literal (with a prefix length that fits its family) before
 * {@code InetAddressSet} sees it, and a request's address is turned into bytes the same way: no name is ever
 * resolved, and an IPv4-mapped IPv6 address is its IPv4 address.
 */
public final class AddressRanges {
    public static final AddressRanges NONE = new AddressRanges(List.of());
    public static final String EXPECTED = "an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, ::1, fd00::/8)";

    private final List<String> entries;
    private final InetAddressSet set = new InetAddressSet();

    private AddressRanges(List<String> entries) {
        this.entries = List.copyOf(entries);
        for (String entry : this.entries) {
            set.add(entry);
        }
    }

    /** The ranges read, and the entries that are none (as written). */
    public record Parsed(AddressRanges ranges, List<String> badEntries) {
    }

    /** Reads the entries as written; empty ones are left out, malformed ones returned as {@code badEntries}. */
    public static Parsed parse(List<String> texts) {
        List<String> good = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        for (String entry : texts) {
            String text = entry.strip();
            if (text.isEmpty()) {
                continue;
            }
            String normalized = normalized(text);
            if (normalized == null) {
                bad.add(text);
            } else {
                good.add(normalized);
            }
        }
        return new Parsed(new AddressRanges(good), bad);
    }

    /** {@code text} as {@link InetAddressSet} takes it (an IPv6 literal without brackets), or {@code null}. */
    private static String normalized(String text) {
        int slash = text.indexOf('/');
        String address = unbracketed(slash < 0 ? text : text.substring(0, slash));
        byte[] bytes = literal(address);
        if (bytes == null) {
            return null;
        }
        if (slash < 0) {
            return address;
        }
        String bits = text.substring(slash + 1);
        if (bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(bits) > bytes.length * 8 || address.indexOf(':') >= 0 && bytes.length == 4) {
            // an IPv4-mapped IPv6 network would be read as IPv4 with a prefix for 128 bits
            return null;
        }
        return address + "/" + Integer.parseInt(bits);
    }

    /** Whether {@code address}, an address literal as the container gives it, is one of these. */
    public boolean contains(String address) {
        if (entries.isEmpty() || address == null) {
            return false;
        }
        byte[] bytes = literal(unbracketed(address));
        if (bytes == null) {
            return false;
        }
        try {
            return set.test(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            return false; // not 4 or 16 bytes: never, literal() gives one or the other
        }
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The entries as read, in order. */
    public List<String> entries() {
        return entries;
    }

    private static String unbracketed(String s) {
        return s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
    }

    /**
     * The bytes of an IP address literal, or {@code null} when it is none. Never resolves a name: IPv4 is parsed
     * here, and only text of hex digits, ':' and '.' reaches {@link InetAddress#getByName}, which takes that as an
     * IPv6 literal and fails rather than look it up. An IPv4-mapped IPv6 address yields its 4 IPv4 bytes.
     */
    static byte[] literal(String s) {
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
    public boolean equals(Object o) {
        return o instanceof AddressRanges other && other.entries.equals(entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        return entries.isEmpty() ? "none" : String.join(", ", entries);
    }
}
