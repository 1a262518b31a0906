package org.jwd.tls;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The names of SAP's (OpenSSL's) cipher suite selection, as predicates on Java's suite names: a class such as
 * {@code PFS} or {@code HIGH}, or one suite's own name ({@code TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256}).
 *
 * <pre>
 *   PFS     forward secrecy: ECDHE or DHE key exchange, and every TLS 1.3 suite
 *   HIGH    AES, ChaCha20 or Camellia: 128 bits and more
 *   MEDIUM  3DES, RC4, SEED, IDEA;  LOW  DES and export suites
 *   ALL     everything but NULL encryption
 * </pre>
 */
final class SuiteClass {
    private static final Map<String, Predicate<String>> CLASSES = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private static final Pattern SUITE = Pattern.compile("(TLS|SSL)_[A-Z0-9_]+");

    static {
        Predicate<String> tls13 = s -> s.startsWith("TLS_AES_") || s.startsWith("TLS_CHACHA20_");
        Predicate<String> nullCipher = s -> s.contains("_NULL_") || s.endsWith("_NULL");
        CLASSES.put("ALL", nullCipher.negate());
        CLASSES.put("PFS", tls13.or(s -> s.startsWith("TLS_ECDHE_") || s.startsWith("TLS_DHE_")));
        CLASSES.put("HIGH", tls13.or(s -> s.contains("_AES_") || s.contains("_CHACHA20_")
                || s.contains("_CAMELLIA_")));
        CLASSES.put("MEDIUM", s -> s.contains("3DES") || s.contains("_RC4_") || s.contains("_SEED_")
                || s.contains("_IDEA_"));
        CLASSES.put("LOW", s -> s.contains("_DES_") || s.contains("_DES40_") || s.contains("EXPORT"));
        CLASSES.put("ECDHE", s -> s.startsWith("TLS_ECDHE_"));
        CLASSES.put("DHE", s -> s.startsWith("TLS_DHE_"));
        CLASSES.put("eNULL", nullCipher);
        CLASSES.put("NULL", nullCipher);
        CLASSES.put("aNULL", s -> s.contains("_anon_"));
        CLASSES.put("EXPORT", s -> s.contains("EXPORT"));
        CLASSES.put("e3DES", s -> s.contains("3DES"));
        CLASSES.put("eRC4", s -> s.contains("_RC4_"));
        CLASSES.put("eDES", s -> s.contains("_DES_") || s.contains("_DES40_"));
    }

    private SuiteClass() {
    }

    /** @throws IllegalArgumentException for a name that is neither a class jwd maps nor a suite's name */
    static Predicate<String> of(String name) {
        Predicate<String> c = CLASSES.get(name);
        if (c != null) {
            return c;
        }
        if (SUITE.matcher(name).matches()) {
            return name::equals;
        }
        throw new IllegalArgumentException("'" + name + "' is no cipher suite class jwd maps: expected "
                + String.join(", ", CLASSES.keySet()) + ", or a suite's name (TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256); "
                + CipherSuiteString.WRITE_INSTEAD);
    }
}
