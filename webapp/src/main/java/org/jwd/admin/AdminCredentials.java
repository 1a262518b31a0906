package org.jwd.admin;

import org.jwd.config.AdminConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks HTTP Basic credentials against {@code admin.user} and {@code admin.password_hash}. Checking a password costs
 * a PBKDF2 derivation (hundreds of milliseconds by design); the page asks every few seconds, so a verified
 * {@code Authorization} value is remembered, as its SHA-256, and not derived again.
 */
final class AdminCredentials {
    private static final int MAX_REMEMBERED = 16;

    private final AdminConfig admin;
    /** SHA-256 (hex) of Authorization values that verified. */
    private final Set<String> verified = ConcurrentHashMap.newKeySet();

    AdminCredentials(AdminConfig admin) {
        this.admin = admin;
    }

    /**
     * Whether {@code authorization} carries the administrator's credentials. The user name is compared in constant
     * time, and the password is checked whether or not the name matched, so that timing tells nothing about either.
     */
    boolean authenticated(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        String digest = sha256(authorization);
        if (verified.contains(digest)) {
            return true;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return false;
        }
        boolean userOk = MessageDigest.isEqual(decoded.substring(0, colon).getBytes(StandardCharsets.UTF_8),
                admin.user().getBytes(StandardCharsets.UTF_8));
        char[] password = decoded.substring(colon + 1).toCharArray();
        boolean passwordOk = admin.passwordHash().matches(password);
        Arrays.fill(password, '\0');
        if (userOk && passwordOk) {
            if (verified.size() >= MAX_REMEMBERED) {
                verified.clear();
            }
            verified.add(digest);
            return true;
        }
        return false;
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
