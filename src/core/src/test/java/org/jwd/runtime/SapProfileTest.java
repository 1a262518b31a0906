package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.jwd.accesslog.AccessLogConfigs;
import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.SapProfile;
import org.jwd.config.ServerPorts.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An SAP Web Dispatcher profile pastes: its instance lines are read and not used, its ports are jwd's listeners. */
class SapProfileTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";

    @TempDir
    Path dir;

    private DispatcherConfig load(String text) throws Exception {
        Path file = dir.resolve("sapwebdisp.pfl");
        Files.writeString(file, text);
        return ConfigReader.load(file);
    }

    private ConfigException problems(String text) {
        return catchThrowableOfType(ConfigException.class, () -> load(text));
    }

    /** The profile, its log directory (DIR_LOGGING) an existing one of this test's. */
    private String profile() throws Exception {
        Files.createDirectories(dir.resolve("LOGDIR"));
        try (InputStream in = SapProfileTest.class.getResourceAsStream("/org/jwd/config/sapwebdisp.pfl")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .replace("DIR_LOGGING = LOGDIR", "DIR_LOGGING = " + dir.resolve("LOGDIR"));
        }
    }

    @Test
    void aWebDispatcherProfilesInstanceLinesAreReadAndListedAsNotUsed() throws Exception {
        DispatcherConfig config = load(profile());

        assertThat(config.section(SapProfile.class).notUsed()).containsExactly("SAPSYSTEMNAME", "SAPGLOBALHOST",
                "SAPSYSTEM", "INSTANCE_NAME", "DIR_CT_RUN", "DIR_EXECUTABLE", "DIR_INSTANCE", "_PF", "SETENV_00",
                "SETENV_01", "SETENV_02", "icm/max_sockets", "icm/req_queue_len", "icm/min_threads",
                "icm/max_threads", "mpi/total_size_MB", "mpi/max_pipes", "wdisp/shm_attach_mode", "_WD",
                "Execute_00", "Execute_01", "Restart_Program_00", "ssl/ssl_lib", "sec/libsapsecu", "ssf/ssfapi_lib",
                "ssl/server_pse");
        assertThat(config.servers()).hasSize(2);
    }

    @Test
    void everyLineOfTheProfileHasItsPlaceInTheReportInTheFilesOrder() throws Exception {
        SapProfile profile = load(profile()).section(SapProfile.class);

        assertThat(profile.lines()).extracting(SapProfile.Line::key).startsWith("SAPSYSTEMNAME", "SAPGLOBALHOST")
                .endsWith("server.java1.url", "server.java1.type", "icf.url_prefixes").hasSize(39);
        assertThat(profile.lines()).filteredOn(l -> l.key().equals("DIR_LOGGING")).singleElement()
                .hasToString("DIR_LOGGING: applied (referred to by a line jwd reads)")
                .extracting(SapProfile.Line::line).isEqualTo(11);
        assertThat(profile.lines()).filteredOn(l -> l.key().equals("icm/conn_timeout")).singleElement()
                .hasToString("icm/conn_timeout: mapped to jwd.connect_timeout (SAP's milliseconds)");
        assertThat(profile.notUsedBlock()).startsWith("SAP profile lines read, not used:\n"
                + "  SAPSYSTEMNAME - the SAP instance's name and hosts: jwd is no SAP instance\n");
    }

    @Test
    void theStartsBlockListsTheLinesReadAndNotUsedAndNoOther() throws Exception {
        SapProfile profile = load(A + "SAPSYSTEMNAME = WD1\nicm/conn_timeout = 5000\nicm/max_sockets = 4096\n")
                .section(SapProfile.class);

        assertThat(profile.notUsedBlock()).isEqualTo("SAP profile lines read, not used:\n"
                + "  SAPSYSTEMNAME - the SAP instance's name and hosts: jwd is no SAP instance\n"
                + "  icm/max_sockets - the ICM's socket table: jwd's limit is the process's open files (ulimit -n,"
                + " LimitNOFILE of jwd.service)");
        assertThat(load(A + "icm/conn_timeout = 5000\n").section(SapProfile.class).notUsedBlock()).isEmpty();
    }

    @Test
    void aProfilesReferencesToItsOwnLinesAreReplaced() throws Exception {
        DispatcherConfig config = load(profile());

        // LOGFILE=$(DIR_LOGGING)$(DIR_SEP)access_log-%y-%m-%d: DIR_LOGGING is used, so it is not listed
        assertThat(config.section(AccessLogConfigs.class).handlers().get(0).logFile()).isEqualTo(dir.resolve("LOGDIR") + "/access_log-%y-%m-%d");
        assertThat(config.section(SapProfile.class).notUsed()).doesNotContain("DIR_LOGGING");
    }

    @Test
    void theProfilesPortsAreJwdsListenersAndItsProcTimeoutTheRequestTimeout() throws Exception {
        DispatcherConfig config = load(profile());

        assertThat(config.serverPorts().of(Protocol.HTTP)).extracting(p -> p.host() + ":" + p.port())
                .containsExactly("null:8000", "127.0.0.2:8001");
        assertThat(config.serverPorts().timeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(config.forwarding().requestTimeout()).isEqualTo(Duration.ofSeconds(600));
    }

    @Test
    void jwdsOwnRequestTimeoutWinsOverProcTimeout() throws Exception {
        DispatcherConfig config = load(A + "icm/server_port_0=PROT=HTTP,PORT=8000,PROCTIMEOUT=600\n"
                + "jwd.request_timeout=30s\n");

        assertThat(config.forwarding().requestTimeout()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void anUndefinedReferenceIsNamedWithItsKey() {
        assertThat(problems(A + "icm/HTTP/logging_0=PREFIX=/,LOGFILE=$(DIR_NOWHERE)/access_log\n").problems())
                .anySatisfy(p -> assertThat(p).contains("icm/HTTP/logging_0",
                        "$(DIR_NOWHERE) is not defined: expected a line DIR_NOWHERE = ... in the file"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // "Parameterization of the SAP Web Dispatcher": jwd asks the message server on its HTTP port
            "message server port  | rdisp/msserv = 3601            | write ms/http_port = <the message server's HTTP port>",
            "internal port        | rdisp/msserv_internal = 3901   | or ms/https_port for its HTTPS port",
            // "icm/HTTP/redirect_<xx>": a redirect is a modification rule in jwd
            "ICM redirect         | icm/HTTP/redirect_0 = PREFIX=/, TO=/irj/portal | RegRedirectUrl line of an action file",
            "ICM file access      | icm/HTTP/file_access_0 = PREFIX=/doc/, DOCROOT=/d | jwd serves no files",
            // "Setting the SSL Profile Parameters for the SAP Web Dispatcher": the host name servers' certificates
            // are checked against; a security setting jwd cannot honour as SAP does
            "host mismatch        | wdisp/ssl_ignore_host_mismatch = 1 | write wdisp/ssl_verify_hostname = false",
            "certificate's host   | wdisp/ssl_certhost = backend.example | write wdisp/ssl_verify_hostname = false",
            // "icm/trusted_reverse_proxy_<xx>": whose forwarded client addresses and certificates the ICM believes
            "trusted proxy        | icm/trusted_reverse_proxy_0 = SUBJECT=\"CN=wd\", ISSUER=\"CN=ca\" | write jwd.trusted_proxies = <the proxy's addresses>"})
    void aKeyOfAnSapFeatureJwdLacksIsRefusedSayingWhatToWriteInstead(String what, String line, String advice) {
        String key = line.substring(0, line.indexOf('=')).strip();

        assertThat(problems(A + line + "\n").problems()).singleElement().satisfies(p -> assertThat(p)
                .contains(key, "SAP's, not supported by jwd: ", advice));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "another protocol     | PROT=P4,PORT=50004                | PROT=P4 is not served by jwd: expected HTTP, HTTPS or ROUTER",
            "no port              | PROT=HTTP                          | PORT is missing",
            "a bad port           | PROT=HTTP,PORT=http                | PORT=http is not a port number",
            // "icm/server_port_<xx>": SSLCONFIG and VCLIENT are of HTTPS ports
            "TLS on plain HTTP    | PROT=HTTP,PORT=80,SSLCONFIG=ssl_config_0 | SSLCONFIG is for PROT=HTTPS lines",
            "a bad VCLIENT        | PROT=HTTPS,PORT=443,VCLIENT=3     | VCLIENT=3: expected 0 (no client certificate asked for), 1 (asked for) or 2",
            "an unknown one       | PROT=HTTP,PORT=80,COLOUR=blue      | COLOUR is no sub-parameter jwd knows",
            "a bad timeout        | PROT=HTTP,PORT=80,TIMEOUT=soon     | TIMEOUT=soon is not a positive number of seconds",
            "a bad flag           | PROT=HTTP,PORT=80,EXTBIND=yes      | EXTBIND=yes: expected 0 or 1"})
    void aServerPortLineJwdCannotHonourIsRefusedNamingWhy(String what, String value, String why) {
        assertThat(problems(A + "icm/server_port_0 = " + value + "\n").problems()).singleElement()
                .satisfies(p -> assertThat(p).contains("icm/server_port_0 = '" + value + "'", why));
    }

    @Test
    void twoHttpsPortsAndDisagreeingTimeoutsAreRefused() {
        assertThat(problems(A + "icm/server_port_0=PROT=HTTP,PORT=80,PROCTIMEOUT=60\n"
                + "icm/server_port_1=PROT=HTTP,PORT=81,PROCTIMEOUT=90\n").problems())
                .anySatisfy(p -> assertThat(p).contains("icm/server_port_1: PROCTIMEOUT differs from"
                        + " icm/server_port_0's (jwd has one request timeout)"));
    }

    @Test
    void aNearMisspelledKeyIsNamedWithTheKeyItWasMeantToBe() {
        assertThat(problems(A + "SessionTableTimeOut=10m\nwdisp/HTTP/contex_timeout=60\n").problems())
                .anySatisfy(p -> assertThat(p).contains("SessionTableTimeOut = '10m'",
                        "did you mean SessionTableTimeout?"))
                .anySatisfy(p -> assertThat(p).contains("did you mean wdisp/HTTP/context_timeout?"));
    }

    @Test
    void aKeyOfAnotherPrefixIsNamedWithTheKeyOfItsName() {
        assertThat(problems(A + "jwd.ssl_truststore=cas.p12\n").problems()).singleElement().satisfies(p ->
                assertThat(p).endsWith("did you mean wdisp/ssl_truststore?"));
    }

    /** Not the hundred known keys on every line: the key meant, and where they are all listed. */
    @Test
    void anUnknownKeyIsOneShortLineNamingWhereEveryKeyIsListed() {
        assertThat(problems(A + "jwd.colour=blue\nwdisp/frobnicate=1\nSessionTableTimeOut=10m\n").problems())
                .hasSize(3).allSatisfy(p -> assertThat(p).hasSizeLessThan(250)
                        .contains("expected a known key (every key: the README's \"Configuration\" table,"
                                + " config/template.properties)"));
    }
}
