package org.jwd.it;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;

/**
 * The tests' own certificates, made with the JDK's {@code keytool} (in the test JVM): a test CA, and server
 * certificates it signed. Made once under {@code target/it-pki} and reused by every test class (and the next
 * run, for a week).
 *
 * <ul>
 *   <li>{@code jwd} — jwd's own certificate for termination: CN=jwd, for 127.0.0.1 and localhost;</li>
 *   <li>{@code server} — the backends' certificate: CN=server, for 127.0.0.1 and localhost;</li>
 *   <li>{@code wrong} — a backend certificate for another host: CN=wrong, only for wrong.example;</li>
 *   <li>{@code portal} and {@code erp} — two names one listener presents, chosen by SNI: CN=portal.example (also
 *       for 127.0.0.1), CN=erp.example;</li>
 *   <li>{@link #trustStore()} — a PKCS12 truststore holding the CA certificate;</li>
 *   <li>client certificates: {@code client} — CN=client user, O=Example, issued by {@code intermediate}
 *       (CN=jwd test intermediate CA, which the CA issued), its keystore holding the chain client, intermediate,
 *       CA; {@code front} — CN=front dispatcher, O=Example, issued by the CA (a dispatcher in front of jwd);
 *       {@code mallory} — CN=mallory, self-signed: no CA of the tests vouches for it.</li>
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
            // the test JVMs that run at once (failsafe's forks) make them once: the first, under a file lock
            try (java.nio.channels.FileChannel lock = java.nio.channels.FileChannel.open(
                    JwdProcess.target().resolve("it-pki.lock"), java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.WRITE);
                 java.nio.channels.FileLock held = lock.lock()) {
                Path done = dir.resolve("done-with-sni");
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
        return context(null);
    }

    /**
     * A client's TLS context that trusts the test CA and presents the certificate {@code name} whenever a server
     * asks for one, whether or not the server's list of CAs names its issuer (as a browser a user forces does).
     */
    SSLContext clientContext(String name) {
        try {
            KeyStore keys = KeyStore.getInstance(keyStore(name).toFile(), PASSWORD.toCharArray());
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, PASSWORD.toCharArray());
            return context(new Presenting((X509KeyManager) kmf.getKeyManagers()[0], name));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private SSLContext context(X509KeyManager keys) {
        try {
            KeyStore trust = KeyStore.getInstance(trustStore().toFile(), PASSWORD.toCharArray());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : new KeyManager[] {keys}, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The chain the keystore holds for {@code name}: its own certificate first. */
    List<X509Certificate> chain(String name) {
        try {
            KeyStore ks = KeyStore.getInstance(keyStore(name).toFile(), PASSWORD.toCharArray());
            return java.util.Arrays.stream(ks.getCertificateChain(name)).map(X509Certificate.class::cast).toList();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A key manager that always presents one alias. */
    private static final class Presenting extends X509ExtendedKeyManager {
        private final X509KeyManager keys;
        private final String alias;

        Presenting(X509KeyManager keys, String alias) {
            this.keys = keys;
            this.alias = alias;
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return alias;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return alias;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {alias};
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String name) {
            return keys.getCertificateChain(name);
        }

        @Override
        public PrivateKey getPrivateKey(String name) {
            return keys.getPrivateKey(name);
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
            leaves.add(pool.submit(() -> leaf(dir, "portal", "dns:portal.example,ip:127.0.0.1", "portal.example")));
            leaves.add(pool.submit(() -> leaf(dir, "erp", "dns:erp.example", "erp.example")));
            leaves.add(pool.submit(() -> clients(dir)));
            for (Future<Void> f : leaves) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    /**
     * A new key store {@code store} with the key {@code alias}, its certificate for {@code CN=<cn>} and these subject
     * alternative names signed by the test CA: a certificate renewed while jwd runs.
     */
    Path issue(Path store, String alias, String cn, String san) {
        try {
            // beside the store, so that it is moved over it whole (same file system)
            Path work = Files.createTempDirectory(store.toAbsolutePath().getParent(), "issue");
            Files.copy(dir.resolve("ca.p12"), work.resolve("ca.p12"));
            Files.copy(dir.resolve("ca.crt"), work.resolve("ca.crt"));
            leaf(work, alias, san, cn);
            Files.move(work.resolve(alias + ".p12"), store, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            try (var files = Files.list(work)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(work);
            return store;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot issue a certificate for " + cn, e);
        }
    }

    private static Void leaf(Path dir, String name, String san) throws IOException, InterruptedException {
        return leaf(dir, name, san, name);
    }

    /** A key pair, a request, the CA's signature with these subject alternative names, the chain imported. */
    private static Void leaf(Path dir, String name, String san, String cn) throws IOException, InterruptedException {
        String store = name + ".p12";
        keytool(dir, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + cn,
                "-validity", "30", "-keystore", store);
        keytool(dir, "-certreq", "-alias", name, "-keystore", store, "-file", name + ".csr");
        keytool(dir, "-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", name + ".csr",
                "-outfile", name + ".crt", "-rfc", "-validity", "30", "-ext", "san=" + san,
                "-ext", "ku:c=digitalSignature", "-ext", "eku=serverAuth");
        keytool(dir, "-importcert", "-alias", "ca", "-file", "ca.crt", "-keystore", store, "-noprompt");
        keytool(dir, "-importcert", "-alias", name, "-file", name + ".crt", "-keystore", store, "-noprompt");
        return null;
    }

    /** The client certificates: an intermediate CA and a user under it, a front dispatcher, and mallory. */
    private static Void clients(Path dir) throws IOException, InterruptedException {
        keytool(dir, "-genkeypair", "-alias", "intermediate", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=jwd test intermediate CA", "-validity", "30", "-keystore", "intermediate.p12");
        keytool(dir, "-certreq", "-alias", "intermediate", "-keystore", "intermediate.p12", "-file",
                "intermediate.csr");
        keytool(dir, "-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", "intermediate.csr", "-outfile",
                "intermediate.crt", "-rfc", "-validity", "30", "-ext", "bc:c");
        keytool(dir, "-importcert", "-alias", "ca", "-file", "ca.crt", "-keystore", "intermediate.p12", "-noprompt");
        keytool(dir, "-importcert", "-alias", "intermediate", "-file", "intermediate.crt", "-keystore",
                "intermediate.p12", "-noprompt");
        clientCertificate(dir, "client", "CN=client user, O=Example", "intermediate");
        clientCertificate(dir, "front", "CN=front dispatcher, O=Example", "ca");
        keytool(dir, "-genkeypair", "-alias", "mallory", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=mallory", "-validity", "30", "-keystore", "mallory.p12");
        return null;
    }

    /** A client certificate {@code issuer} signs, its keystore holding the whole chain. */
    private static void clientCertificate(Path dir, String name, String dname, String issuer)
            throws IOException, InterruptedException {
        String store = name + ".p12";
        keytool(dir, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", dname,
                "-validity", "30", "-keystore", store);
        keytool(dir, "-certreq", "-alias", name, "-keystore", store, "-file", name + ".csr");
        keytool(dir, "-gencert", "-alias", issuer, "-keystore", issuer + ".p12", "-infile", name + ".csr",
                "-outfile", name + ".crt", "-rfc", "-validity", "30", "-ext", "ku:c=digitalSignature",
                "-ext", "eku=clientAuth");
        keytool(dir, "-importcert", "-alias", "ca", "-file", "ca.crt", "-keystore", store, "-noprompt");
        if (!issuer.equals("ca")) {
            keytool(dir, "-importcert", "-alias", issuer, "-file", issuer + ".crt", "-keystore", store, "-noprompt");
        }
        keytool(dir, "-importcert", "-alias", name, "-file", name + ".crt", "-keystore", store, "-noprompt");
    }

    /** Options of keytool whose value is a file: resolved against {@code dir}, where the PKI's files are. */
    private static final List<String> FILE_OPTIONS = List.of("-keystore", "-file", "-infile", "-outfile");

    /**
     * Runs the JDK's keytool in this JVM (its {@code main}, exported to the tests by failsafe's {@code argLine}):
     * some forty keytool processes took 8 s on a quiet machine and 20 s on a loaded one, while every test JVM that
     * needs the PKI waited for them. {@code -debug} makes keytool throw on an error instead of ending the JVM.
     */
    private static void keytool(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            boolean file = i > 0 && FILE_OPTIONS.contains(args[i - 1]);
            command.add(file ? dir.resolve(args[i]).toString() : args[i]);
        }
        command.addAll(List.of("-storepass", PASSWORD, "-storetype", "PKCS12", "-debug"));
        try {
            Class.forName("sun.security.tools.keytool.Main").getMethod("main", String[].class)
                    .invoke(null, (Object) command.toArray(String[]::new));
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IOException("keytool cannot run in this JVM (failsafe's argLine exports "
                    + "sun.security.tools.keytool to the tests): " + e, e);
        }
    }
}
