package org.jwd.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The written forms {@link KeyReader} accepts for booleans, sizes and URLs, and a section's parser may use for rates
 * ({@link KeyReader#value}); {@code null} for anything else.
 */
public final class ValueSyntax {
    private static final Pattern SIZE = Pattern.compile("(\\d{1,10})\\s*(|b|k|kb|m|mb)", Pattern.CASE_INSENSITIVE);

    private ValueSyntax() {
    }

    /** {@code true, 1, on, yes} or {@code false, 0, off, no}, in any case. */
    static Boolean bool(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "on", "yes" -> Boolean.TRUE;
            case "false", "0", "off", "no" -> Boolean.FALSE;
            default -> null;
        };
    }

    /** Bytes: {@code 8192}, {@code 8KB}, {@code 1MB}. */
    static Long size(String text) {
        Matcher m = SIZE.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        return Long.parseLong(m.group(1)) * switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k", "kb" -> 1024;
            case "m", "mb" -> 1024 * 1024;
            default -> 1;
        };
    }

    /** Bytes per second: a size, with or without {@code /s}: {@code 512}, {@code 1KB/s}, {@code 2 mb/S}. */
    public static Long bytesPerSecond(String text) {
        String t = text.strip();
        boolean perSecond = t.regionMatches(true, Math.max(0, t.length() - 2), "/s", 0, 2);
        return size(perSecond ? t.substring(0, t.length() - 2) : t);
    }

    /**
     * A URL of one of {@code schemes} with a host, without user or fragment; without {@code pathAllowed} also
     * without path and query, and then normalized to {@code scheme://authority}.
     */
    static URI url(String text, Set<String> schemes, boolean pathAllowed) {
        URI uri;
        try {
            uri = new URI(text.strip());
        } catch (URISyntaxException e) {
            return null;
        }
        if (uri.getScheme() == null || !schemes.contains(uri.getScheme().toLowerCase(Locale.ROOT))
                || uri.getHost() == null || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
            return null;
        }
        if (pathAllowed) {
            return uri;
        }
        boolean hasPath = uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/");
        return hasPath || uri.getRawQuery() != null ? null
                : URI.create(uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getRawAuthority());
    }
}
