package org.jwd.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** PKCS#12 files for the TLS tests, made by the JDK's keytool: self-signed EC keys, with the names SNI matches. */
final class TestKeyStores {
    static final String PASSWORD = "s3cret-pw";

    private TestKeyStores() {
    }

    /**
     * A key store {@code file} with one key {@code alias}, its certificate for {@code CN=<cn>} and the subject
     * alternative names {@code san} ({@code dns:a.example,dns:*.b.example}; none when {@code null}), valid for
     * {@code days} days.
     */
    static Path make(Path file, String alias, String cn, String san, int days) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool")
                .toString(), "-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=" + cn, "-validity", Integer.toString(days), "-keystore", file.toString(), "-storepass", PASSWORD,
                "-storetype", "PKCS12"));
        if (san != null) {
            command.addAll(List.of("-ext", "san=" + san));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(output).isZero();
        return file;
    }
}
