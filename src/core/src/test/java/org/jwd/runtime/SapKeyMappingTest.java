package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.SapProfile;
import org.jwd.config.SapTuning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every SAP key of a Web Dispatcher profile that is not a routing key: what the migration report says of it, and,
 * where jwd applies or maps it, that the value arrives where it is said to. Each row names SAP's page (help.sap.com
 * unless said otherwise) that defines the key.
 */
class SapKeyMappingTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";

    @TempDir
    Path dir;

    private DispatcherConfig load(String text) throws Exception {
        Path file = dir.resolve("sapwebdisp.pfl");
        Files.writeString(file, A + text + "\n");
        return ConfigReader.load(file);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // "Starting the SAP Web Dispatcher with the Bootstrap Option" (the instance's lines it writes)
            "SAPSYSTEMNAME = WDP            | SAPSYSTEMNAME: read, not used - the SAP instance's name and hosts",
            "SAPGLOBALHOST = wdhost         | SAPGLOBALHOST: read, not used - the SAP instance's name and hosts",
            "SAPSYSTEM = 00                 | SAPSYSTEM: read, not used - the SAP instance's name and hosts",
            "INSTANCE_NAME = W00            | INSTANCE_NAME: read, not used - the SAP instance's name and hosts",
            // "Directory Parameters" (DIR_*), "Profile Parameter Syntax" (local names _XX, $(...))
            "DIR_INSTANCE = $(DIR_NOWHERE)/W00 | DIR_INSTANCE: read, not used - a directory of the SAP instance",
            "_PF = $(DIR_PROFILE)/WDP_W00   | _PF: read, not used - a local name of the profile",
            // "Starting Programs with the Start Service" (SETENV_<xx>, Execute_<xx>, Start_/Restart_Program_<xx>)
            "SETENV_00 = LD_LIBRARY_PATH=$(DIR_LIBRARY) | SETENV_00: read, not used - the environment of SAP's start service",
            "Execute_00 = local rm -f $(_WD) | Execute_00: read, not used - a program of SAP's start service",
            "Start_Program_00 = local $(_WD) pf=$(_PF) | Start_Program_00: read, not used - a program of SAP's start service",
            "Restart_Program_00 = local $(_WD) pf=$(_PF) | Restart_Program_00: read, not used - a program of SAP's start service",
            // "Configuring SAP Web Dispatcher for High System Load Due to Inbound Requests" (the medium scenario)
            "icm/max_sockets = 4096         | icm/max_sockets: read, not used - the ICM's socket table",
            "icm/req_queue_len = 1500       | icm/req_queue_len: read, not used - the ICM's queue of requests",
            "icm/min_threads = 10           | icm/min_threads: read, not used - the ICM's worker threads",
            "icm/max_threads = 110          | icm/max_threads: read, not used - the ICM's worker threads",
            "mpi/total_size_MB = 80         | mpi/total_size_MB: read, not used - the ICM's memory pipes",
            "mpi/max_pipes = 2000           | mpi/max_pipes: read, not used - the ICM's memory pipes",
            "icm/max_conn = 2000            | icm/max_conn: applied (client connections at most at once",
            "wdisp/HTTP/max_pooled_con = 2000  | wdisp/HTTP/max_pooled_con: mapped to jwd.connections_per_server",
            "wdisp/HTTPS/max_pooled_con = 2000 | wdisp/HTTPS/max_pooled_con: mapped to jwd.connections_per_server",
            // "icm/keep_alive_timeout"; "Timeout Options for ICM and Web Dispatcher" (icm/conn_timeout, ms)
            "icm/keep_alive_timeout = 30    | icm/keep_alive_timeout: applied (the idle timeout of kept-alive connections",
            "icm/conn_timeout = 3000        | icm/conn_timeout: mapped to jwd.connect_timeout (SAP's milliseconds)",
            // "The SAP Web Dispatcher Profile Parameter" (the server table's size)
            "wdisp/max_servers = 256        | wdisp/max_servers: read, not used - a size of the Web Dispatcher's tables",
            "wdisp/shm_attach_mode = 6      | wdisp/shm_attach_mode: read, not used - the Web Dispatcher's shared memory",
            // "Installing the SAP Cryptographic Library for the SAP Web Dispatcher"
            "ssl/ssl_lib = $(DIR_EXECUTABLE)/libsapcrypto.so | ssl/ssl_lib: read, not used - SAP's cryptographic library",
            "sec/libsapsecu = $(ssl/ssl_lib) | sec/libsapsecu: read, not used - SAP's cryptographic library",
            "ssf/ssfapi_lib = $(ssl/ssl_lib) | ssf/ssfapi_lib: read, not used - SAP's cryptographic library",
            // "ssl/server_pse", "ssl/client_pse" (the PSEs of the SSL server and client identities)
            "ssl/server_pse = $(DIR_INSTANCE)/sec/SAPSSLS.pse | ssl/server_pse: read, not used - jwd reads no PSE: its HTTPS ports present jwd.ssl_keystore",
            "ssl/client_pse = SAPSSLC.pse   | ssl/client_pse: read, not used - jwd reads no PSE: it checks the servers' certificates against wdisp/ssl_truststore",
            // "icm/authfile" (the ICM's authentication file, icmauth.txt)
            "icm/authfile = $(DIR_INSTANCE)/sec/icmauth.txt | icm/authfile: read, not used - the ICM's user file (icmauth.txt): jwd's administrators are admin.* lines",
            // "icm/server_port_<xx>"
            "icm/server_port_0 = PROT=HTTP,PORT=8000,TIMEOUT=60 | icm/server_port_0: applied"})
    void theReportSaysWhatJwdDoesWithTheKey(String line, String report) throws Exception {
        String key = line.substring(0, line.indexOf('=')).strip();

        assertThat(load(line).section(SapProfile.class).lines()).filteredOn(l -> l.key().equals(key))
                .singleElement().satisfies(l -> assertThat(l.toString()).startsWith(report));
    }

    @Test
    void theMappedTuningLinesArriveInJwdsKeys() throws Exception {
        DispatcherConfig config = load("icm/conn_timeout = 2500\nwdisp/HTTP/max_pooled_con = 300\n"
                + "wdisp/HTTPS/max_pooled_con = 500");

        assertThat(config.forwarding().connectTimeout()).isEqualTo(Duration.ofMillis(2500));
        assertThat(config.forwarding().connectionsPerServer()).isEqualTo(500);
    }

    @Test
    void jwdsOwnKeysWinOverTheSapKeysMappedToThem() throws Exception {
        DispatcherConfig config = load("icm/conn_timeout = 2500\njwd.connect_timeout = 1s\n"
                + "wdisp/HTTP/max_pooled_con = 300\njwd.connections_per_server = 64");

        assertThat(config.forwarding().connectTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.forwarding().connectionsPerServer()).isEqualTo(64);
        assertThat(config.section(SapProfile.class).lines()).filteredOn(l -> l.key().equals("icm/conn_timeout"))
                .singleElement().satisfies(l -> assertThat(l.toString()).endsWith("; jwd.connect_timeout's own line wins"));
    }

    @Test
    void theAppliedTuningLinesAreHandedToJetty() throws Exception {
        SapTuning tuning = load("icm/max_conn = 2000\nicm/keep_alive_timeout = 30").section(SapTuning.class);

        assertThat(tuning).isEqualTo(new SapTuning(2000, Duration.ofSeconds(30)));
    }

    @Test
    void withoutTuningLinesJettyKeepsItsDefaults() throws Exception {
        DispatcherConfig config = load("");

        assertThat(config.section(SapTuning.class)).isEqualTo(SapTuning.NONE);
        assertThat(config.forwarding().connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.forwarding().connectionsPerServer()).isEqualTo(256);
    }
}
