package org.jwd.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The tests' own certificates, made with the JDK's {@code keytool} (run as a process): a test CA, and server
 * certificates it signed. Made once under {@code target/it-pki} and reused by every test class (and the next
 * run, for a week), because keytool is slow to start.
 *
 * <ul>
 *   <li>{@code jwd} — jwd's own certificate for termination: CN=jwd, for 127.0.0.1 and localhost;</li>
 *   <li>{@code server} — the backends' certificate: CN=server, for 127.0.0.1 and localhost;</li>
 *   <li>{@code wrong} — a backend certificate for another host: CN=wrong, only for wrong.example;</li>
 *   <li>{@link #trustStore()} — a PKCS12 truststore holding the CA certificate.</li>
 * </ul>
 */
final class TestPki {
    static final String PASSWORD = "test-secret";
    private static final Duration REUSE = Duration.ofDays(7);
    private static TestPki instance;

    private final Path dir;

    private TestPki(Path dir) {
        this.dir = dir;
    }

    static synchronized TestPki get() {
        if (instance == null) {
            Path dir = JwdProcess.target().resolve("it-pki");
            try {
                Path done = dir.resolve("done");
                if (!Files.exists(done) || Files.getLastModifiedTime(done).toInstant()
                        .isBefore(Instant.now().minus(REUSE))) {
                    create(dir);
                    Files.writeString(done, "made by TestPki\n");
                    Files.setLastModifiedTime(done, FileTime.from(Instant.now()));
                }
            } catch (IOException | InterruptedException | java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("cannot make the test certificates in " + dir, e);
            }
            instance = new TestPki(dir);
        }
        return instance;
    }

    /** A PKCS12 keystore with the key and certificate {@code name} (and the CA), password {@link #PASSWORD}. */
    Path keyStore(String name) {
        return dir.resolve(name + ".p12");
    }

    /** A PKCS12 truststore with the test CA's certificate, password {@link #PASSWORD}. */
    Path trustStore() {
        return dir.resolve("truststore.p12");
    }

    /** The certificate {@code name} presents. */
    X509Certificate certificate(String name) {
        try {
            KeyStore ks = KeyStore.getInstance(keyStore(name).toFile(), PASSWORD.toCharArray());
            return (X509Certificate) ks.getCertificate(name);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A client's TLS context that trusts the test CA (and nothing else). */
    SSLContext clientContext() {
        try {
            KeyStore trust = KeyStore.getInstance(trustStore().toFile(), PASSWORD.toCharArray());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void create(Path dir) throws IOException, InterruptedException,
            java.util.concurrent.ExecutionException {
        Files.createDirectories(dir);
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        keytool(dir, "-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=jwd test CA", "-ext", "bc:c", "-validity", "30", "-keystore", "ca.p12");
        keytool(dir, "-exportcert", "-alias", "ca", "-keystore", "ca.p12", "-rfc", "-file", "ca.crt");
        keytool(dir, "-importcert", "-alias", "ca", "-file", "ca.crt", "-keystore", "truststore.p12", "-noprompt");
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<Void>> leaves = new ArrayList<>();
            leaves.add(pool.submit(() -> leaf(dir, "jwd", "ip:127.0.0.1,dns:localhost")));
            leaves.add(pool.submit(() -> leaf(dir, "server", "ip:127.0.0.1,dns:localhost")));
            leaves.add(pool.submit(() -> leaf(dir, "wrong", "dns:wrong.example")));
            for (Future<Void> f : leaves) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /** A key pair, a request, the CA's signature with these subject alternative names, the chain imported. */
    private static Void leaf(Path dir, String name, String san) throws IOException, InterruptedException {
        String store = name + ".p12";
        keytool(dir, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
                "-validity", "30", "-keystore", store);
        keytool(dir, "-certreq", "-alias", name, "-keystore", store, "-file", name + ".csr");
        keytool(dir, "-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", name + ".csr",
                "-outfile", name + ".crt", "-rfc", "-validity", "30", "-ext", "san=" + san,
                "-ext", "ku:c=digitalSignature", "-ext", "eku=serverAuth");
        keytool(dir, "-importcert", "-alias", "ca", "-file", "ca.crt", "-keystore", store, "-noprompt");
        keytool(dir, "-importcert", "-alias", name, "-file", name + ".crt", "-keystore", store, "-noprompt");
        return null;
    }

    private static void keytool(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        command.addAll(List.of("-storepass", PASSWORD, "-storetype", "PKCS12"));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output;
        try (InputStream in = p.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }
}
