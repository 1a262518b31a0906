package org.jwd.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JettyModulesTest {
    private static final String SERVER = "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n";

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String properties, boolean httpsPortAsked) throws Exception {
        Path file = dir.resolve("jwd.properties");
        Files.writeString(file, properties);
        return JettyModules.run(file, httpsPortAsked, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void aPlainConfigurationNeedsNoOptionalModule() throws Exception {
        assertThat(run(SERVER, false)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aKeystoreTurnsOnHttpsAndAnEndToEndPortThePassthroughListener() throws Exception {
        String keys = "jwd.ssl_keystore=jwd.p12\njwd.ssl_keystore_password=secret\n";
        writeKeyStore(dir.resolve("jwd.p12"), "secret");

        assertThat(run(SERVER + "server.a.https_url=https://127.0.0.1:2\n" + keys + "wdisp/HTTPS/port=0\n", true))
                .as(err.toString(StandardCharsets.UTF_8)).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("jwd-https", "jwd-passthrough");
    }

    @Test
    void aCommentedOutKeystoreTurnsOnNothing() throws Exception {
        assertThat(run(SERVER + "#jwd.ssl_keystore=x.p12\n! wdisp/HTTPS/port = 443\n", false)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void anInvalidConfigurationIsRefusedNamingEveryKey() throws Exception {
        assertThat(run("server.a.url=ftp://x\nserver.a.type=j2e\nwdisp/ssl_encrypt=3\n", false))
                .isEqualTo(JettyModules.INVALID);

        String errors = err.toString(StandardCharsets.UTF_8);
        assertThat(errors.lines().findFirst()).contains("jwd: the configuration " + dir.resolve("jwd.properties")
                + " is invalid:");
        assertThat(errors).contains("server.a.url = 'ftp://x'", "server.a.type = 'j2e': expected j2ee or abap");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aKeystoreThatDoesNotOpenIsRefusedWithoutQuotingThePassword() throws Exception {
        writeKeyStore(dir.resolve("jwd.p12"), "secret");

        assertThat(run(SERVER + "jwd.ssl_keystore=jwd.p12\njwd.ssl_keystore_password=not-the-password\n", true))
                .isEqualTo(JettyModules.INVALID);

        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("jwd.ssl_keystore = 'jwd.p12': expected a PKCS12 or JKS keystore that"
                        + " jwd.ssl_keystore_password opens")
                .doesNotContain("not-the-password");
    }

    @Test
    void anHttpsPortWithoutAKeystoreIsRefused() throws Exception {
        assertThat(run(SERVER, true)).isEqualTo(JettyModules.INVALID);

        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--https-port needs a keystore: jwd.ssl_keystore");
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nope.properties");

        int status = JettyModules.run(missing, false, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(status).isEqualTo(JettyModules.INVALID);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(missing + " does not exist");
    }

    /** A PKCS12 keystore with one EC key and its self-signed certificate, made with the JDK's keytool. */
    private static void writeKeyStore(Path file, String password) throws Exception {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "jwd", "-keyalg", "EC", "-groupname",
                "secp256r1", "-dname", "CN=localhost", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                file.toString(), "-storepass", password).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).as("keytool's exit status").isZero();
        KeyStore check = KeyStore.getInstance(file.toFile(), password.toCharArray());
        assertThat(check.size()).isEqualTo(1);
    }
}
