package org.jwd.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.KeyReader;

/**
 * The TLS settings, read from the configuration's TLS keys and checked once, as a whole: termination (what jwd's HTTPS
 * listeners present, {@link Termination}), re-encryption to the servers ({@code wdisp/ssl_*}, {@link Reencryption})
 * and end-to-end TLS ({@code wdisp/HTTPS/*}). Relative paths are resolved against the directory of the configuration
 * file.
 *
 * <p>Passwords are kept here because Jetty needs them to open the keystores ({@link Secret}: the password, or where
 * it is kept); {@link #toString()} never shows them, and no message built here quotes one.
 *
 * @param encrypt     {@code wdisp/ssl_encrypt}
 * @param servers     jwd's TLS towards the servers: trust, client certificate, suites
 * @param termination the HTTPS listeners' SSL configurations
 * @param passthrough the end-to-end TLS listener, or {@code null} when {@code wdisp/HTTPS/port} is not set
 * @param clientCerts client certificates on jwd's HTTPS listeners ({@code icm/HTTPS/*})
 */
public record TlsConfig(SslEncrypt encrypt, Reencryption servers, Termination termination,
                        PassthroughConfig passthrough, ClientCertConfig clientCerts) {
    public static final String TRUSTSTORE = "wdisp/ssl_truststore";
    public static final String TRUSTSTORE_PASSWORD = "wdisp/ssl_truststore_password";
    public static final String VERIFY_HOSTNAME = "wdisp/ssl_verify_hostname";
    public static final String KEYSTORE = "jwd.ssl_keystore";
    public static final String KEYSTORE_PASSWORD = "jwd.ssl_keystore_password";

    /**
     * Reads the TLS keys, all restart-only (listeners and the client's TLS are set up once; a renewed certificate is
     * another matter: the files are watched, {@link CredentialWatch}); relative paths are resolved against the
     * directory of the configuration file.
     *
     * @param core the core configuration: forwarding over HTTPS needs servers with an {@code https_url}
     */
    public static TlsConfig read(KeyReader keys, DispatcherConfig core) {
        KeyReader restart = keys.restartOnly();
        boolean httpsServers = core.servers().stream().anyMatch(s -> s.httpsUrl() != null) || discovers(keys);
        SslEncrypt encrypt = restart.value(SslEncrypt.KEY, SslEncrypt.NEVER,
                "0 (plain HTTP to the servers), 1 (HTTPS) or 2 (the client's protocol)", SslEncrypt::parse);
        if (encrypt != SslEncrypt.NEVER && !httpsServers) {
            keys.problem(SslEncrypt.KEY, "0 while no server has a server.<id>.https_url to forward HTTPS to");
            encrypt = SslEncrypt.NEVER;
        }
        ClientCertConfig clientCerts = ClientCertConfig.read(restart);
        Reencryption servers = Reencryption.read(restart);
        Termination termination = Termination.read(restart, core, clientCerts.verifyClient());
        PassthroughConfig passthrough = PassthroughConfig.read(restart, core);
        return new TlsConfig(encrypt, servers, termination, passthrough, clientCerts);
    }

    /**
     * Whether the servers come from SAP too ({@code rdisp/mshost}, a server list in a file, a system's {@code MSHOST}
     * or {@code SILOC}, which {@code SystemScope} gives the system as its {@code rdisp/mshost}): HTTPS-enabled ones
     * may be among them, so forwarding over HTTPS cannot be judged from the file.
     */
    static boolean discovers(KeyReader keys) {
        return keys.values().containsKey("rdisp/mshost") || keys.values().containsKey("wdisp/server_info_location");
    }

    /**
     * Checks a keystore key: the file exists, its password opens it, and it holds what it is for (a private
     * key for jwd's own certificate, trusted certificates for a truststore).
     */
    static Path store(KeyReader keys, String key, String passwordKey, Secret password, boolean needsKey) {
        String value = keys.raw(key);
        if (value == null) {
            if (password != null) {
                keys.problemText(passwordKey, passwordKey + " is set, but " + key
                        + " is not: expected the keystore it opens");
            }
            return null;
        }
        if (needsKey && password == null) {
            keys.problemText(key, passwordKey + " is missing: expected the password of " + key + " = '" + value
                    + "'");
            return null;
        }
        Path path = keys.directory().resolve(value.strip()).normalize();
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            keys.problem(key, "a readable keystore file (" + path + " " + (Files.exists(path) ? "cannot be read)"
                    : "does not exist)"));
            return null;
        }
        KeyStore store;
        try {
            store = load(path, password);
        } catch (IOException | GeneralSecurityException e) {
            keys.problem(key, "a PKCS12 or JKS keystore that " + passwordKey + " opens (" + reason(e) + ")");
            return null;
        }
        return holdsWhatItIsFor(store, keys, key, passwordKey, password, needsKey) ? path : null;
    }

    /** A private key for jwd's own certificate, trusted certificates for a truststore; a problem otherwise. */
    private static boolean holdsWhatItIsFor(KeyStore store, KeyReader keys, String key, String passwordKey,
                                            Secret password, boolean needsKey) {
        try {
            boolean holds = false;
            for (String alias : Collections.list(store.aliases())) {
                holds |= needsKey ? store.entryInstanceOf(alias, KeyStore.PrivateKeyEntry.class)
                        : store.getCertificate(alias) != null;
            }
            if (!holds) {
                keys.problem(key, needsKey ? "a keystore holding jwd's private key and certificate (it holds no key)"
                        : "a keystore holding the trusted certificates of the servers' CAs (it holds none"
                        + (password == null ? "; is " + passwordKey + " needed?)" : ")"));
            }
            return holds;
        } catch (GeneralSecurityException e) {
            keys.problem(key, "a readable keystore (" + reason(e) + ")");
            return false;
        }
    }

    /** Opens a PKCS12 or JKS file (the JDK tells them apart by their content). */
    static KeyStore load(Path path, Secret password) throws IOException, GeneralSecurityException {
        return KeyStore.getInstance(path.toFile(), password == null ? null : password.chars());
    }

    /** Whether jwd terminates TLS for clients itself: a keystore, or an HTTPS line with its SSL configuration. */
    public boolean terminates() {
        return termination.terminates();
    }

    /** {@code wdisp/ssl_verify_hostname}. */
    public boolean verifyHostname() {
        return servers.verifyHostname();
    }

    private static String reason(Exception e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    @Override
    public String toString() {
        return "TLS[" + encrypt + ", " + servers + (termination.terminates() ? ", termination " + termination + ", "
                + clientCerts : ", no termination") + (passthrough == null ? "" : ", " + passthrough) + "]";
    }
}
