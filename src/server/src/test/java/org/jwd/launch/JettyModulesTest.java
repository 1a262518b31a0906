package org.jwd.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JettyModulesTest {
    private static final String SERVER = "server.a.url=http://127.0.0.1:1\nserver.a.type=j2ee\n";

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    /** bin/jwd's environment: none of OpenTelemetry's settings unless a test sets them */
    private Map<String, String> environment = Map.of();

    private int run(String properties, boolean httpsPortAsked) throws Exception {
        return run(properties, httpsPortAsked ? "--https-port" : null, httpsPortAsked ? "8443" : null);
    }

    /** Runs it as bin/jwd run does, with --host 127.0.0.1 --port 8080 and the options given (null: none). */
    private int run(String properties, String... options) throws Exception {
        Path file = dir.resolve("jwd.properties");
        Files.writeString(file, properties);
        List<String> args = new ArrayList<>(List.of(file.toString(), "--host", "127.0.0.1", "--port", "8080"));
        Arrays.stream(options).filter(Objects::nonNull).forEach(args::add);
        return JettyModules.run(RunOptions.parse(args.toArray(String[]::new)), environment,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void aPlainConfigurationNeedsNoOptionalModule() throws Exception {
        assertThat(run(SERVER, false)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 127.0.0.1 8080",
                "stop 30000 0");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void theStopsTimeoutAndDelayComeFromTheConfiguration() throws Exception {
        assertThat(run(SERVER + "jwd.stop_timeout=10s\njwd.stop_delay=1500ms\n", false)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 127.0.0.1 8080",
                "stop 10000 1500");
    }

    /** Runs it with these options only (null: none), as bin/jwd run without --port does. */
    private int runWith(String properties, String... options) throws Exception {
        Path file = dir.resolve("jwd.properties");
        Files.writeString(file, properties);
        List<String> args = new ArrayList<>(List.of(file.toString()));
        Arrays.stream(options).filter(Objects::nonNull).forEach(args::add);
        return JettyModules.run(RunOptions.parse(args.toArray(String[]::new)), environment,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void withoutOptionsOrProfileLinesItListensOnLoopback8080() throws Exception {
        assertThat(runWith(SERVER)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 127.0.0.1 8080",
                "stop 30000 0");
    }

    @Test
    void theProfilesServerPortLinesAreItsListenersOnEveryInterfaceUnlessAHostIsGiven() throws Exception {
        writeKeyStore(dir.resolve("jwd.p12"), "secret");
        String profile = SERVER + "server.a.https_url=https://127.0.0.1:2\n"
                + "jwd.ssl_keystore=jwd.p12\njwd.ssl_keystore_password=secret\n"
                + "icm/server_port_0 = PROT=HTTPS, PORT=44300, TIMEOUT=60, PROCTIMEOUT=600\n"
                + "icm/server_port_1 = PROT=HTTP, PORT=8000, TIMEOUT=60\n"
                + "icm/server_port_3 = PROT=HTTP, PORT=8001, HOST=127.0.0.2\n"
                + "icm/server_port_4 = PROT=ROUTER, PORT=4443\n";

        assertThat(runWith(profile)).as(err.toString(StandardCharsets.UTF_8)).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 0.0.0.0 8000",
                "https 0.0.0.0 44300 icm/server_port_0 -", "module jwd-passthrough", "module jwd-listeners",
                "listener 127.0.0.2:8001",
                "idle-timeout 60000", "stop 30000 0");
    }

    @Test
    void eachHttpsLineIsAListenerOfItsOwnWithItsOwnSslConfiguration() throws Exception {
        writeKeyStore(dir.resolve("portal.p12"), "secret");
        writeKeyStore(dir.resolve("erp.p12"), "secret");
        Files.writeString(dir.resolve("pin"), "secret");
        String profile = SERVER + "jwd.ssl_keystore=portal.p12\njwd.ssl_keystore_password=${file:pin}\n"
                + "icm/ssl_config_1 = ID=erp, CRED=erp.p12, PIN=${file:pin}\n"
                + "icm/server_port_0 = PROT=HTTP, PORT=8000\n"
                + "icm/server_port_1 = PROT=HTTPS, PORT=443\n"
                + "icm/server_port_2 = PROT=HTTPS, PORT=444, HOST=127.0.0.2, SSLCONFIG=erp, VCLIENT=2\n"
                + "icm/server_port_3 = PROT=HTTPS, PORT=445, HOST=::1, SSLCONFIG=erp\n";

        assertThat(runWith(profile)).as(err.toString(StandardCharsets.UTF_8)).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 0.0.0.0 8000",
                "https 0.0.0.0 443 icm/server_port_1 127.0.0.2:444=icm/server_port_2,[::1]:445=icm/server_port_3",
                "stop 30000 0");
    }

    @Test
    void theCommandLineWinsOverTheProfilesLinesAndSaysSo() throws Exception {
        String profile = SERVER + "icm/server_port_1 = PROT=HTTP, PORT=8000\n";

        assertThat(runWith(profile, "--port", "9000")).as(err.toString(StandardCharsets.UTF_8)).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 127.0.0.1 9000",
                "stop 30000 0");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(
                "jwd: --port 9000 given: the command line wins over icm/server_port_1 (PROT=HTTP, PORT=8000)");
    }

    @Test
    void anHttpsLineWithoutAKeystoreIsRefusedAskingForOne() throws Exception {
        assertThat(runWith(SERVER + "icm/server_port_0 = PROT=HTTPS, PORT=44300\n")).isEqualTo(JettyModules.INVALID);

        assertThat(err.toString(StandardCharsets.UTF_8)).contains("icm/server_port_0 (PROT=HTTPS, PORT=44300)"
                + " terminates HTTPS: expected SSLCONFIG=<an icm/ssl_config_<xx>>, or jwd.ssl_keystore");
    }

    @Test
    void aKeystoreTurnsOnHttpsAndAnEndToEndPortThePassthroughListener() throws Exception {
        String keys = "jwd.ssl_keystore=jwd.p12\njwd.ssl_keystore_password=secret\n";
        writeKeyStore(dir.resolve("jwd.p12"), "secret");

        assertThat(run(SERVER + "server.a.https_url=https://127.0.0.1:2\n" + keys + "wdisp/HTTPS/port=0\n", true))
                .as(err.toString(StandardCharsets.UTF_8)).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 127.0.0.1 8080",
                "https 127.0.0.1 8443 - -", "module jwd-passthrough", "stop 30000 0");
    }

    @Test
    void aCommentedOutKeystoreTurnsOnNothing() throws Exception {
        assertThat(run(SERVER + "#jwd.ssl_keystore=x.p12\n! wdisp/HTTPS/port = 443\n", false)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 127.0.0.1 8080",
                "stop 30000 0");
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

        int status = JettyModules.run(RunOptions.parse(missing.toString()), environment,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(status).isEqualTo(JettyModules.INVALID);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(missing + " does not exist");
    }

    @Test
    void anSrcsrvPortBesideRunsOwnPortsTurnsOnTheListenersAndNamesThem() throws Exception {
        String systems = "wdisp/system_0=SID=ERP, SRCSRV=*:8081;*:8080, SRCURL=/sap/\n"
                + "wdisp/system_1=SID=PRT, SRCSRV=127.0.0.2:8082\n"
                + "system.ERP.server.a.url=http://127.0.0.1:1\nsystem.ERP.server.a.type=j2ee\n"
                + "system.PRT.server.b.url=http://127.0.0.1:2\nsystem.PRT.server.b.type=j2ee\n";

        assertThat(run(systems)).as(err.toString(StandardCharsets.UTF_8)).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 127.0.0.1 8080",
                "module jwd-listeners", "listener 127.0.0.1:8081", "listener 127.0.0.2:8082", "stop 30000 0");
    }

    @Test
    void anSrcsrvOnTheHttpsPortOpensNoListenerOfItsOwn() throws Exception {
        writeKeyStore(dir.resolve("jwd.p12"), "secret");
        String systems = "wdisp/system_0=SID=ERP, SRCSRV=*:9443\n"
                + "system.ERP.server.a.url=http://127.0.0.1:1\nsystem.ERP.server.a.type=j2ee\n"
                + "jwd.ssl_keystore=jwd.p12\njwd.ssl_keystore_password=secret\n";

        assertThat(run(systems, "--https-port", "9443")).as(err.toString(StandardCharsets.UTF_8)).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 127.0.0.1 8080",
                "https 127.0.0.1 9443 - -", "stop 30000 0");
    }

    @Test
    void anInvalidSystemEntryIsRefusedBeforeJettyStarts() throws Exception {
        assertThat(run("wdisp/system_0=SID=ERP, SRCSRV=erp.example.com:8081\n"))
                .isEqualTo(JettyModules.INVALID);

        assertThat(err.toString(StandardCharsets.UTF_8)).contains("wdisp/system_0", "erp.example.com:8081");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
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

    @Test
    void openTelemetrysSettingsTurnTheSdkModuleOn() throws Exception {
        environment = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_SERVICE_NAME", "jwd-eu");

        assertThat(run(SERVER, false)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 127.0.0.1 8080",
                "stop 30000 0", "module jwd-otel");
    }

    @Test
    void theAgentsInstrumentationsThatWouldDoubleJwdsSpansAreTurnedOff() throws Exception {
        environment = Map.of("JWD_JAVA_OPTS", "-Xmx1g -javaagent:/opt/otel/opentelemetry-javaagent.jar",
                "OTEL_TRACES_EXPORTER", "otlp");

        assertThat(run(SERVER, false)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("http 127.0.0.1 8080",
                "stop 30000 0", "env JWD_CDS=0 OTEL_INSTRUMENTATION_JETTY_ENABLED=false"
                        + " OTEL_INSTRUMENTATION_SERVLET_ENABLED=false"
                        + " OTEL_INSTRUMENTATION_JETTY_HTTPCLIENT_ENABLED=false");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("OpenTelemetry's Java agent");
    }
}
