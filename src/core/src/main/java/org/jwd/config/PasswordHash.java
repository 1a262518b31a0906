package org.jwd.config;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A salted password hash as {@code admin.password_hash} holds it: PBKDF2 with HMAC-SHA256 from the JDK, written
 * {@code pbkdf2-sha256$<iterations>$<salt, base64>$<hash, base64>}. The iterations travel with the hash, so a
 * stronger setting later does not invalidate the hashes made before.
 *
 * <pre>
 * pbkdf2-sha256$600000$3q2+7w8gQ0y1T5z3yD1mXg==$kq6V...=   (16-byte salt, 32-byte hash)
 * </pre>
 *
 * <p>{@code bin/jwd hash-password} ({@link org.jwd.cli.HashPassword}) makes one. It uses nothing but the JDK.
 */
public final class PasswordHash {
    public static final String SCHEME = "pbkdf2-sha256";
    /** OWASP's recommendation for PBKDF2-HMAC-SHA256 (2023). */
    public static final int DEFAULT_ITERATIONS = 600_000;
    /** Fewer would make a stolen hash cheap to attack; more would make every check a denial of service. */
    public static final int MIN_ITERATIONS = 1_000;
    public static final int MAX_ITERATIONS = 10_000_000;
    /** What a configuration error says is expected. */
    public static final String EXPECTED = SCHEME + "$<iterations " + MIN_ITERATIONS + ".." + MAX_ITERATIONS
            + ">$<salt base64>$<hash base64>, as bin/jwd hash-password prints it";
    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;

    private final int iterations;
    private final byte[] salt;
    private final byte[] hash;

    private PasswordHash(int iterations, byte[] salt, byte[] hash) {
        this.iterations = iterations;
        this.salt = salt;
        this.hash = hash;
    }

    /** A new hash of {@code password} with a random salt. */
    public static PasswordHash create(char[] password, int iterations) {
        checkIterations(iterations);
        byte[] salt = new byte[SALT_BYTES];
        new SecureRandom().nextBytes(salt);
        return new PasswordHash(iterations, salt, derive(password, salt, iterations, HASH_BYTES));
    }

    /**
     * Reads the text form.
     *
     * @throws IllegalArgumentException when it is not {@link #EXPECTED}
     */
    public static PasswordHash parse(String text) {
        String[] parts = text.strip().split("\\$", -1);
        if (parts.length != 4 || !parts[0].equals(SCHEME)) {
            throw new IllegalArgumentException("not " + SCHEME + "$<iterations>$<salt>$<hash>");
        }
        int iterations;
        try {
            iterations = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("iterations '" + parts[1] + "' is not a number");
        }
        checkIterations(iterations);
        byte[] salt;
        byte[] hash;
        try {
            salt = Base64.getDecoder().decode(parts[2]);
            hash = Base64.getDecoder().decode(parts[3]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("salt or hash is not base64");
        }
        if (salt.length < 8 || hash.length < 16) {
            throw new IllegalArgumentException("salt or hash too short");
        }
        return new PasswordHash(iterations, salt, hash);
    }

    /** The bounds of a new hash and of one read: {@link #MIN_ITERATIONS} to {@link #MAX_ITERATIONS}. */
    private static void checkIterations(int iterations) {
        if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("iterations " + iterations + " not in " + MIN_ITERATIONS + ".."
                    + MAX_ITERATIONS);
        }
    }

    /** Whether {@code password} is the one hashed; the comparison takes the same time wherever they differ. */
    public boolean matches(char[] password) {
        return MessageDigest.isEqual(hash, derive(password, salt, iterations, hash.length));
    }

    public int iterations() {
        return iterations;
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations, int bytes) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, bytes * 8);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is part of every JDK", e);
        } finally {
            spec.clearPassword();
        }
    }

    /** The text form, for the configuration file. */
    @Override
    public String toString() {
        Base64.Encoder b64 = Base64.getEncoder();
        return SCHEME + "$" + iterations + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(hash);
    }
}
