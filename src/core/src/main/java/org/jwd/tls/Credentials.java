package org.jwd.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;

import org.jwd.config.KeyReader;

/**
 * Where the keys and certificates jwd presents come from: PKCS#12 (or JKS) files, as {@code sapgenpse export_p12}
 * writes a PSE, and the password that opens them. The first file's keys are presented unless the name a client asks
 * for (SNI) is one another key's certificate names; the files are opened by {@link KeyMaterial#load}.
 *
 * @param key      the configuration key that names them, for messages ({@code jwd.ssl_keystore},
 *                 {@code icm/ssl_config_1}, {@code wdisp/ssl_cred})
 * @param files    the files, absolute
 * @param password opens every file
 */
public record Credentials(String key, List<Path> files, Secret password) {
    public Credentials {
        files = List.copyOf(files);
    }

    /** The files whose change renews what is presented: the key stores, and the password's file if it has one. */
    public List<Path> watchedFiles() {
        List<Path> watched = new ArrayList<>(files);
        if (password.file() != null) {
            watched.add(password.file());
        }
        return watched;
    }

    /**
     * Opens the files once, so that a file that does not exist, does not open or holds no key stops the start with a
     * problem naming {@code key}; {@code null} then.
     */
    static Credentials check(KeyReader keys, String key, List<Path> files, Secret password) {
        for (Path file : files) {
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                keys.problemText(key, key + " = '" + keys.values().get(key) + "': " + file + (Files.exists(file)
                        ? " cannot be read" : " does not exist") + ": expected a PKCS#12 file (sapgenpse export_p12)");
                return null;
            }
        }
        Credentials credentials = new Credentials(key, files, password);
        try {
            KeyMaterial.load(credentials);
            return credentials;
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            keys.problemText(key, key + " = '" + keys.values().get(key) + "': " + e.getMessage());
            return null;
        }
    }

    @Override
    public String toString() {
        return key + " " + files;
    }
}
