package org.jwd.tls;

import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import javax.net.ssl.SSLContext;

/**
 * SAP's cipher suite strings ({@code ssl/ciphersuites}, {@code ssl/client_ciphersuites}, {@code CIPHERS} of
 * {@code icm/ssl_config_<xx>}), as CommonCryptoLib reads them (SAP Note 510007, section 7, on SAP's support portal;
 * its recommended values {@code 135:PFS:HIGH::EC_P256:EC_HIGH} and {@code 150:...} for clients, and the baseline's
 * {@code 545:PFS:HIGH::EC_X25519:EC_P256:EC_HIGH}, SAP Note 3198351), mapped to Java's protocol versions and suites:
 * {@code <flags>:<suites>[::<curves>]}.
 * <ul>
 *   <li>The flags are a sum: 64 SSLv3, 128 TLS 1.0, 256 TLS 1.1, 512 TLS 1.2, 1024 TLS 1.3, and 2 ("BEST") every newer
 *       version up to the newest; 1, 4, 8, 16 and 32 choose CommonCryptoLib's own behaviours (SSLv2Hello,
 *       renegotiation, fallback signalling), which Java fixes. jwd speaks TLS 1.2 and 1.3 only: older versions are left out, and a
 *       value that selects none of these two is refused. No flags: TLS 1.2 and 1.3.</li>
 *   <li>The suites are OpenSSL's selection syntax: names added in turn, {@code !} removes for good, {@code -} removes,
 *       {@code +} moves to the end. A name is a class ({@code PFS}, {@code HIGH}, ...) or a suite's own name.</li>
 *   <li>The curves ({@code EC_P256}, {@code EC_HIGH}, ...) are checked and left to Java, whose default groups are
 *       X25519, P-256, P-384, P-521 and X448: Java 17 takes no groups per listener.</li>
 * </ul>
 * What a value selects is then cut to what jwd offers on that side ({@link TlsSuites.Side}); a class that adds nothing
 * jwd offers ({@code MEDIUM}: 3DES and RC4) is refused, as is a value that leaves no suite.
 *
 * <pre>
 *   135:PFS:HIGH::EC_P256:EC_HIGH      -> TLSv1.3, TLSv1.2; the forward-secret suites, then the other strong ones
 *   545:PFS:HIGH::EC_X25519:EC_P256:EC_HIGH -> TLSv1.2 only
 *   HIGH:MEDIUM:+e3DES:!aNULL          -> refused: MEDIUM adds no suite jwd offers
 * </pre>
 */
public final class CipherSuiteString {
    static final String WRITE_INSTEAD = "e.g. 135:PFS:HIGH::EC_P256:EC_HIGH (TLS 1.2 and 1.3) or"
            + " 545:PFS:HIGH::EC_P256:EC_HIGH (TLS 1.2 only)";
    static final int BEST = 2;
    /** Flags of CommonCryptoLib's own behaviours, read and not used. */
    static final int OPTIONS = 1 | 4 | 8 | 16 | 32;
    private static final Map<Integer, String> VERSIONS = new TreeMap<>(Map.of(64, "SSLv3", 128, "TLSv1", 256,
            "TLSv1.1", 512, "TLSv1.2", 1024, "TLSv1.3"));
    private static final Set<String> SPOKEN = Set.of("TLSv1.2", "TLSv1.3");
    private static final Set<String> CURVES = Set.of("EC_P256", "EC_P384", "EC_P521", "EC_X25519", "EC_X448",
            "EC_HIGH", "EC_ALL");
    private static final Pattern FLAGS = Pattern.compile("\\d{1,5}");
    private static final String SCSV = "TLS_EMPTY_RENEGOTIATION_INFO_SCSV";

    private CipherSuiteString() {
    }

    /**
     * @throws IllegalArgumentException saying what in {@code value} cannot be mapped, and what to write instead
     */
    public static TlsSuites parse(String value, TlsSuites.Side side) {
        String text = value.strip();
        String curves = "";
        int split = text.indexOf("::");
        if (split >= 0) {
            curves = text.substring(split + 2);
            text = text.substring(0, split);
        }
        List<String> tokens = new ArrayList<>(Arrays.asList(text.split(":", -1)));
        int flags = -1;
        if (!tokens.isEmpty() && FLAGS.matcher(tokens.get(0).strip()).matches()) {
            flags = Integer.parseInt(tokens.remove(0).strip());
        }
        checkCurves(curves);
        List<String> suites = suites(tokens, side);
        return new TlsSuites(value.strip(), protocols(flags), suites);
    }

    /** The versions the flags select that jwd speaks, newest first. */
    static List<String> protocols(int flags) {
        int versions = VERSIONS.keySet().stream().mapToInt(Integer::intValue).sum();
        int unknown = flags < 0 ? 0 : flags & ~(OPTIONS | BEST | versions);
        if (unknown != 0) {
            throw new IllegalArgumentException("the flags " + flags + " hold " + unknown + ", which is no flag jwd"
                    + " knows: expected a sum of 64 (SSLv3), 128 (TLS 1.0), 256 (TLS 1.1), 512 (TLS 1.2), 1024"
                    + " (TLS 1.3), 2 (every newer version too) and CommonCryptoLib's options 1, 4, 8, 16, 32; "
                    + WRITE_INSTEAD);
        }
        if (flags < 0 || (flags & versions) == 0) {
            return List.of("TLSv1.3", "TLSv1.2");
        }
        List<String> selected = new ArrayList<>();
        boolean from = false;
        for (Map.Entry<Integer, String> v : VERSIONS.entrySet()) {
            from |= (flags & v.getKey()) != 0;
            if ((flags & v.getKey()) != 0 || (from && (flags & BEST) != 0)) {
                selected.add(v.getValue());
            }
        }
        List<String> spoken = new ArrayList<>(selected.stream().filter(SPOKEN::contains).toList());
        if (spoken.isEmpty()) {
            throw new IllegalArgumentException("the flags " + flags + " select " + String.join(", ", selected)
                    + ", which jwd never speaks: expected 512 (TLS 1.2), 1024 (TLS 1.3) or 2 (the newest) among them; "
                    + WRITE_INSTEAD);
        }
        java.util.Collections.reverse(spoken);
        return List.copyOf(spoken);
    }

    private static void checkCurves(String curves) {
        for (String token : curves.split(":")) {
            String name = token.strip().replaceFirst("^[!+-]", "");
            if (!name.isEmpty() && !CURVES.contains(name)) {
                throw new IllegalArgumentException("the curve " + token.strip() + " after '::' is none jwd knows:"
                        + " expected " + String.join(", ", new java.util.TreeSet<>(CURVES)) + "; " + WRITE_INSTEAD);
            }
        }
    }

    /** OpenSSL's selection over the JDK's suites, cut to what jwd offers on {@code side}. */
    private static List<String> suites(List<String> tokens, TlsSuites.Side side) {
        List<String> universe = enabledByJava();
        Predicate<String> offered = side == TlsSuites.Side.CLIENTS ? CipherSuiteString::offeredToClients : s -> true;
        List<String> list = new ArrayList<>();
        Set<String> banned = new HashSet<>();
        for (String raw : tokens) {
            String token = raw.strip();
            if (token.isEmpty()) {
                continue;
            }
            char op = "!-+".indexOf(token.charAt(0)) >= 0 ? token.charAt(0) : ' ';
            String name = op == ' ' ? token : token.substring(1);
            List<String> matching = universe.stream().filter(SuiteClass.of(name)).toList();
            switch (op) {
                case '!' -> {
                    list.removeAll(matching);
                    banned.addAll(matching);
                }
                case '-' -> list.removeAll(matching);
                case '+' -> {
                    List<String> moved = list.stream().filter(matching::contains).toList();
                    list.removeAll(moved);
                    list.addAll(moved);
                }
                default -> add(list, banned, matching, offered, name, side);
            }
        }
        List<String> result = new ArrayList<>(list.stream().filter(offered).toList());
        if (result.isEmpty()) {
            throw new IllegalArgumentException("it selects no cipher suite jwd offers " + (side
                    == TlsSuites.Side.CLIENTS ? "to clients (forward-secret AEAD suites)" : "(the JDK's enabled ones)")
                    + ": " + WRITE_INSTEAD);
        }
        if (universe.contains(SCSV)) {
            result.add(SCSV);
        }
        return List.copyOf(new LinkedHashSet<>(result));
    }

    private static void add(List<String> list, Set<String> banned, List<String> matching, Predicate<String> offered,
                            String name, TlsSuites.Side side) {
        if (matching.stream().noneMatch(offered)) {
            throw new IllegalArgumentException(name + " adds no cipher suite jwd offers " + (side
                    == TlsSuites.Side.CLIENTS ? "to clients (forward-secret AEAD suites only)"
                    : "(Java disables 3DES, RC4, DES, NULL and anonymous suites)") + ": leave it out, "
                    + WRITE_INSTEAD);
        }
        matching.stream().filter(s -> !banned.contains(s) && !list.contains(s)).forEach(list::add);
    }

    /** What jwd's listeners offer whatever a value says: no suite {@link TlsPolicy#WEAK_CIPHER_SUITES} names. */
    static boolean offeredToClients(String suite) {
        return Arrays.stream(TlsPolicy.WEAK_CIPHER_SUITES).noneMatch(suite::matches);
    }

    /** The JDK's enabled suites, in its order of preference: what Java would offer without a value. */
    static List<String> enabledByJava() {
        try {
            return List.of(SSLContext.getDefault().getDefaultSSLParameters().getCipherSuites());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java runtime has no TLS: " + e.getMessage(), e);
        }
    }
}
