package org.jwd.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * {@link Credentials} opened: one key store in memory holding the keys and certificates of all their files (each
 * entry under an alias of its own), and what an operator is shown of them. Jetty is handed this key store rather than
 * the files' paths, so that a renewed file that does not open changes nothing: it is opened here first, while Jetty's
 * own reload from a path ({@code KeyStoreScanner}) unloads the old context before it opens the new file and, if that
 * fails, leaves the listener failing every handshake.
 */
public final class KeyMaterial {
    private final KeyStore keyStore;
    private final String password;
    private final Set<String> defaults;
    private final Map<String, X509Certificate> keys;
    private final List<CertificateInfo> certificates;

    private KeyMaterial(KeyStore keyStore, String password, Set<String> defaults, Map<String, X509Certificate> keys) {
        this.keyStore = keyStore;
        this.password = password;
        this.defaults = Set.copyOf(defaults);
        this.keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
        this.certificates = keys.entrySet().stream().map(e -> CertificateInfo.of(e.getKey(), e.getValue())).toList();
    }

    /**
     * Opens every file with the credentials' password.
     *
     * @throws IOException or GeneralSecurityException naming the file that does not open
     * @throws IllegalArgumentException naming the file that holds no key, or the password that cannot be read
     */
    public static KeyMaterial load(Credentials credentials) throws IOException, GeneralSecurityException {
        char[] password = credentials.password().chars();
        byte[] random = new byte[12];
        new SecureRandom().nextBytes(random);
        String inMemory = Base64.getEncoder().encodeToString(random);
        // JKS: it never leaves memory, and its key protection costs microseconds where PKCS12's costs 100 ms a key
        KeyStore merged = KeyStore.getInstance("JKS");
        merged.load(null, null);
        Set<String> defaults = new LinkedHashSet<>();
        Map<String, X509Certificate> keys = new LinkedHashMap<>();
        for (Path file : credentials.files()) {
            KeyStore store = open(file, password);
            boolean holdsKey = false;
            for (String alias : Collections.list(store.aliases())) {
                String unique = unique(merged, alias);
                if (store.isKeyEntry(alias) && store.getCertificateChain(alias) != null) {
                    Key key = store.getKey(alias, password);
                    merged.setKeyEntry(unique, key, inMemory.toCharArray(), store.getCertificateChain(alias));
                    keys.put(unique, (X509Certificate) store.getCertificate(alias));
                    holdsKey = true;
                    if (defaults.isEmpty()) {
                        defaults.add(unique);
                    }
                } else if (store.isCertificateEntry(alias)) {
                    merged.setCertificateEntry(unique, store.getCertificate(alias));
                }
            }
            if (!holdsKey) {
                throw new IllegalArgumentException(file + " holds no private key: expected the key and certificate"
                        + " jwd presents (sapgenpse export_p12 exports them from the PSE)");
            }
        }
        return new KeyMaterial(merged, inMemory, defaults, keys);
    }

    private static KeyStore open(Path file, char[] password) throws IOException, GeneralSecurityException {
        try {
            return KeyStore.getInstance(file.toFile(), password);
        } catch (IOException | GeneralSecurityException e) {
            throw new GeneralSecurityException(file + " does not open: expected a PKCS12 or JKS file that its password"
                    + " opens (" + reason(e) + ")", e);
        }
    }

    private static String unique(KeyStore merged, String alias) throws GeneralSecurityException {
        String unique = alias;
        for (int n = 2; merged.containsAlias(unique); n++) {
            unique = alias + "-" + n;
        }
        return unique;
    }

    static String reason(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /**
     * Hands the keys to {@code factory}: they are presented, and their certificates and the files' trusted
     * certificates are what a client's certificate is checked against (SAP: the SSL server PSE's certificate list).
     */
    void applyTo(SslContextFactory factory) {
        factory.setKeyStore(keyStore);
        factory.setKeyStorePassword(password);
        factory.setKeyManagerPassword(password);
        if (factory instanceof SslContextFactory.Server server) {
            server.setTrustStore(keyStore);
            server.setSNISelector(new SniChoice(keys, defaults));
        }
    }

    /**
     * The first file's first key (its order in the file): presented when no other key's certificate names what a
     * client asks for, as SAP's ICM presents {@code CRED}.
     */
    public Set<String> defaults() {
        return defaults;
    }

    /** Every key's certificate, the first file's first. */
    public List<CertificateInfo> certificates() {
        return certificates;
    }

    @Override
    public String toString() {
        return certificates.stream().map(c -> c.subject() + " until " + c.notAfter()).toList().toString();
    }
}
