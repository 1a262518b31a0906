package org.jwd.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jwd.config.AdminUser;

/**
 * Checks HTTP Basic credentials against the administration's users ({@code admin.user} and
 * {@code admin.users.<name>.*}). Checking a password costs a PBKDF2 derivation (hundreds of milliseconds by
 * design); the page asks every few seconds, so a verified {@code Authorization} value is remembered, as its
 * SHA-256, and not derived again.
 */
final class AdminCredentials {
    private static final int MAX_REMEMBERED = 64;

    private final List<AdminUser> users;
    /** SHA-256 (hex) of Authorization values that verified, with their user. */
    private final Map<String, AdminUser> verified = new ConcurrentHashMap<>();

    AdminCredentials(List<AdminUser> users) {
        this.users = List.copyOf(users);
    }

    /**
     * The user whose credentials {@code authorization} carries, or {@code null}. Every user name is compared in
     * constant time, and one password is derived whether or not a name matched (the first user's for an unknown
     * name), so that timing tells nothing about either.
     */
    AdminUser authenticated(String authorization) {
        if (users.isEmpty() || authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        String digest = sha256(authorization);
        AdminUser known = verified.get(digest);
        if (known != null) {
            return known;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return null;
        }
        byte[] name = decoded.substring(0, colon).getBytes(StandardCharsets.UTF_8);
        AdminUser named = null;
        for (AdminUser u : users) {
            if (MessageDigest.isEqual(name, u.name().getBytes(StandardCharsets.UTF_8))) {
                named = u;
            }
        }
        char[] password = decoded.substring(colon + 1).toCharArray();
        boolean passwordOk = (named != null ? named : users.get(0)).passwordHash().matches(password);
        Arrays.fill(password, '\0');
        if (named == null || !passwordOk) {
            return null;
        }
        if (verified.size() >= MAX_REMEMBERED) {
            verified.clear();
        }
        verified.put(digest, named);
        return named;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
