package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.jwd.demo.IcfInfo;
import org.jwd.demo.MessageServerStandIn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Web Dispatcher profile as SAP's bootstrap writes it ("Starting the SAP Web Dispatcher with the Bootstrap
 * Option": instance lines, the message server, the medium scenario's tuning, the port, the admin line, the start
 * service's and the cryptographic library's lines), with this machine's hosts and ports and the two lines
 * administrators add first (two access logs by prefix, an authentication handler with a permission file), through
 * the distribution: {@code bin/jwd check} exits 0 with its report, {@code bin/jwd run} serves the servers the
 * message server names, SAP's admin prefix asks for credentials, the permission file denies, each log has its
 * prefix's requests.
 */
@Timeout(180)
class BootstrapProfileIT {
    private static final String PROFILE = """
            SAPSYSTEMNAME = WDP
            SAPGLOBALHOST = 127.0.0.1
            SAPSYSTEM = 00
            INSTANCE_NAME = W00
            DIR_CT_RUN = $(DIR_EXE_ROOT)$(DIR_SEP)$(OS_UNICODE)$(DIR_SEP)linuxx86_64
            DIR_EXECUTABLE = $(DIR_CT_RUN)
            DIR_INSTANCE = %1$s
            DIR_LOGGING = %1$s/log
            _PF = $(DIR_PROFILE)/WDP_W00_wdhost
            SETENV_00 = DIR_LIBRARY=$(DIR_LIBRARY)
            SETENV_01 = LD_LIBRARY_PATH=$(DIR_LIBRARY):%%(LD_LIBRARY_PATH)
            SETENV_02 = SECUDIR=$(DIR_INSTANCE)$(DIR_SEP)sec
            #-----------------------------------------------------------------------
            # Accessibility of Message Server
            #-----------------------------------------------------------------------
            rdisp/mshost = 127.0.0.1
            ms/http_port = %2$d
            #-----------------------------------------------------------------------
            # Configuration for medium scenario
            #-----------------------------------------------------------------------
            icm/max_conn = 2000
            icm/max_sockets = 4096
            icm/req_queue_len = 1500
            icm/min_threads = 10
            icm/max_threads = 110
            mpi/total_size_MB = 80
            mpi/max_pipes = 2000
            wdisp/HTTP/max_pooled_con = 2000
            wdisp/HTTPS/max_pooled_con = 2000
            #-----------------------------------------------------------------------
            # SAP Web Dispatcher Ports
            #-----------------------------------------------------------------------
            icm/server_port_0 = PROT=HTTP,PORT=%3$d,HOST=127.0.0.1,TIMEOUT=60,PROCTIMEOUT=600
            #-----------------------------------------------------------------------
            # SAP Web Dispatcher Parameters
            #-----------------------------------------------------------------------
            wdisp/shm_attach_mode = 6
            icm/HTTP/admin_0 = PREFIX=/sap/wdisp/admin,DOCROOT=$(DIR_DATA)$(DIR_SEP)icmandir,AUTHFILE=$(icm/authfile)
            #-----------------------------------------------------------------------
            # Start webdispatcher
            #-----------------------------------------------------------------------
            _WD = $(DIR_EXECUTABLE)$(DIR_SEP)sapwebdisp$(FT_EXE)
            Execute_00 = local rm -f $(_WD)
            Execute_01 = local ln -s -f $(DIR_EXECUTABLE)$(DIR_SEP)sapwebdisp$(FT_EXE) $(_WD)
            Restart_Program_00 = local $(_WD) pf=$(_PF)
            #-----------------------------------------------------------------------
            # SAP CRYPTOLIB
            #-----------------------------------------------------------------------
            ssl/ssl_lib = $(DIR_EXECUTABLE)$(DIR_SEP)$(FT_DLL_PREFIX)sapcrypto$(FT_DLL)
            sec/libsapsecu = $(ssl/ssl_lib)
            ssf/ssfapi_lib = $(ssl/ssl_lib)
            ssl/server_pse = $(DIR_INSTANCE)$(DIR_SEP)sec$(DIR_SEP)SAPSSLS.pse
            ssl/client_pse = $(DIR_INSTANCE)$(DIR_SEP)sec$(DIR_SEP)SAPSSLC.pse
            #-----------------------------------------------------------------------
            # added by the administrators
            #-----------------------------------------------------------------------
            icm/HTTP/logging_0 = PREFIX=/sap/,LOGFILE=$(DIR_LOGGING)$(DIR_SEP)abap_access.log
            icm/HTTP/logging_1 = PREFIX=/irj/,LOGFILE=$(DIR_LOGGING)$(DIR_SEP)portal_access.log
            icm/HTTP/auth_0 = PREFIX=/sap/, PERMFILE=permission.txt
            """;
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;
    private final List<AutoCloseable> started = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        IcfInfo.reset();
        for (AutoCloseable c : started) {
            c.close();
        }
    }

    private Path profile() throws Exception {
        DemoBackend abap = DemoBackend.start(DemoBackend.Options.abap("abap1").withName("wdhost_ERP_00"));
        started.add(abap);
        DemoBackend java = DemoBackend.start(DemoBackend.Options.j2ee("java1"));
        started.add(java);
        IcfInfo.set("PREFIX=/sap/&CASE=&VHOST=*.*;&STACK=ABAP\n", "");
        MessageServerStandIn ms = MessageServerStandIn.start(null);
        started.add(ms);
        ms.add(MessageServerStandIn.Instance.of(abap, "wdhost_ERP_00", 1));
        ms.add(MessageServerStandIn.Instance.of(java, "J2EE1001", 1));
        Files.createDirectories(dir.resolve("log"));
        Files.writeString(dir.resolve("permission.txt"), """
                # SAP's permission file: P|D|S, URL, user, client IP, server IP
                D /sap/bc/admin/* * * *
                P /sap/* * * *
                """);
        Path profile = dir.resolve("WDP_W00_wdhost");
        Files.writeString(profile, PROFILE.formatted(dir, ms.port(), freePort()));
        return profile;
    }

    @Test
    void checkReportsEveryLineAndExitsZero() throws Exception {
        Path profile = profile();

        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(60), "check", "--config",
                profile.toString());

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains(
                "jwd: every line of " + profile + " (line: key: what jwd does with it):",
                "  1: SAPSYSTEMNAME: read, not used - the SAP instance's name and hosts",
                ": rdisp/mshost: applied", ": icm/max_conn: applied (client connections at most at once",
                ": icm/req_queue_len: read, not used - the ICM's queue of requests",
                ": wdisp/HTTP/max_pooled_con: mapped to jwd.connections_per_server",
                ": icm/HTTP/admin_0: applied", ": Restart_Program_00: read, not used - a program of SAP's start",
                ": ssl/server_pse: read, not used - jwd reads no PSE", ": icm/HTTP/auth_0: applied",
                "read, not used; none refused",
                "jwd: icm/HTTP/admin_0: DOCROOT=$(DIR_DATA)$(DIR_SEP)icmandir read, not used",
                "AUTHFILE=$(icm/authfile) read, not used", "(until then /sap/wdisp/admin answers 401 to everyone)");
    }

    @Test
    void runServesTheMessageServersServersBehindTheAdminPrefixThePermissionFileAndTwoLogs() throws Exception {
        try (JwdProcess jwd = startOnAFreePort()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> get(jwd, "/sap/bc/echo").statusCode() == 200);
            assertThat(get(jwd, "/sap/bc/echo").headers().firstValue("X-Served-By")).hasValue("abap1");
            assertThat(get(jwd, "/irj/echo").headers().firstValue("X-Served-By")).hasValue("java1");

            HttpResponse<String> admin = get(jwd, "/sap/wdisp/admin/");
            assertThat(admin.statusCode()).as(admin.body()).isEqualTo(401);
            assertThat(admin.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> v.startsWith("Basic"));
            assertThat(admin.headers().firstValue("X-Served-By")).as("never a server's").isEmpty();

            for (String denied : List.of("/sap/bc/admin/users", "/SAP/BC/Admin/users", "/sap/bc%2Fadmin/users")) {
                HttpResponse<String> r = get(jwd, denied);
                assertThat(r.statusCode()).as(denied + ": " + r.body()).isIn(400, 403);
                assertThat(r.headers().firstValue("X-Served-By")).as(denied).isEmpty();
            }
            assertThat(get(jwd, "/sap/bc/admin/users").body()).contains("permission table, line 2");

            Path abapLog = dir.resolve("log/abap_access.log");
            Path portalLog = dir.resolve("log/portal_access.log");
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(abapLog) && Files.exists(portalLog)
                    && Files.readString(abapLog).contains("/sap/bc/echo")
                    && Files.readString(portalLog).contains("/irj/echo"));
            assertThat(Files.readString(abapLog)).doesNotContain("/irj/");
            assertThat(Files.readString(portalLog)).doesNotContain("/sap/");
            assertThat(String.join("\n", jwd.log())).contains("jwd: SAP profile lines read, not used:\n",
                    "  mpi/max_pipes - the ICM's memory pipes", "icm/HTTP/admin_0: DOCROOT=");
        }
    }

    /**
     * jwd on the profile, its port one that was free a moment before: a profile names its port, so another process
     * may take it between the look and jwd's bind (an outgoing connection's ephemeral port); then again with another
     * profile (its servers stopped with the others after the test).
     */
    private JwdProcess startOnAFreePort() throws Exception {
        for (int attempt = 1; ; attempt++) {
            Path profile = profile();
            try {
                return JwdProcess.startAsIs(profile, Map.of());
            } catch (IllegalStateException e) {
                if (attempt == 3 || !String.valueOf(e.getMessage()).contains("Address already in use")) {
                    throw e;
                }
            }
        }
    }

    private static HttpResponse<String> get(JwdProcess jwd, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(jwd.uri() + path)).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
