package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/jwd run} listens on every port an {@code SRCSRV} item names, through the distribution: ERP is reached
 * by everything on a second port (an ephemeral one, free on 127.0.0.1 when the test starts), PRT by its URL prefix
 * on the main port; each listener has its ready line, and a port in use stops the start naming it. A second
 * dispatcher reads SAP's other forms: {@code SRCSRV=*:*} (any port) and a host name ({@code localhost:<port>}).
 */
class SystemListenersIT {
    private static final Pattern SERVED_BY = Pattern.compile("(?im)^X-Served-By: *(\\S+)");
    private static final Pattern ROUTE = Pattern.compile("(?im)^X-Jwd-Route: *([^\\r\\n]+)");
    private static DemoBackend erp;
    private static DemoBackend prt;
    private static JwdProcess jwd;
    private static int mainPort;
    private static int erpPort;
    /** ERP by SRCSRV=*:*, SRCURL=/sap/; PRT by SRCSRV=localhost:<prtPort> */
    private static JwdProcess sapForms;
    private static int prtPort;

    @BeforeAll
    static void start() throws IOException {
        erp = DemoBackend.start(DemoBackend.Options.j2ee("erpj2ee1"));
        prt = DemoBackend.start(DemoBackend.Options.j2ee("prtj2ee1"));
        // Both known before jwd starts, as SRCSRV names them: the main one for PRT, the second one for ERP.
        int[] ports = freePorts(2);
        mainPort = ports[0];
        erpPort = ports[1];
        jwd = JwdProcess.start(twoSystems(mainPort, erpPort), Map.of(), "--port", String.valueOf(mainPort));
        prtPort = freePorts(1)[0];
        sapForms = JwdProcess.start("""
                wdisp/system_0=SID=ERP, SRCSRV=*:*, SRCURL=/sap/
                wdisp/system_1=SID=PRT, SRCSRV=localhost:%d
                system.PRT.server.prtj2ee1.url=%s
                system.PRT.server.prtj2ee1.type=j2ee
                system.ERP.server.erpj2ee1.url=%s
                system.ERP.server.erpj2ee1.type=j2ee
                health.interval=1h
                jwd.debug_headers=true
                """.formatted(prtPort, prt.url(), erp.url()));
    }

    /**
     * PRT by SRCURL /irj/ on the main port (bound to it: on ERP's port the longer /irj/ would take its paths
     * from ERP's entry, which counts as the prefix /); ERP by everything on {@code erpPort}.
     */
    private static String twoSystems(int mainPort, int erpPort) {
        return """
                wdisp/system_0=SID=PRT, SRCSRV=*:%d, SRCURL=/irj/
                wdisp/system_1=SID=ERP, SRCSRV=*:%d
                system.PRT.server.prtj2ee1.url=%s
                system.PRT.server.prtj2ee1.type=j2ee
                system.ERP.server.erpj2ee1.url=%s
                system.ERP.server.erpj2ee1.type=j2ee
                health.interval=1h
                jwd.debug_headers=true
                """.formatted(mainPort, erpPort, prt.url(), erp.url());
    }

    /** Ports nothing listens on now, each a different one: bound on 127.0.0.1 by the system together, let go. */
    private static int[] freePorts(int n) throws IOException {
        ServerSocket[] sockets = new ServerSocket[n];
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        for (JwdProcess process : new JwdProcess[] {jwd, sapForms}) {
            if (process != null) {
                process.close();
            }
        }
        for (DemoBackend backend : new DemoBackend[] {erp, prt}) {
            if (backend != null) {
                backend.close();
            }
        }
    }

    /** Status line and headers of a GET to 127.0.0.1 on {@code port}. */
    private static String get(int port, String path) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException("GET http://127.0.0.1:" + port + path, e);
        }
    }

    private static String header(Pattern pattern, String response) {
        Matcher m = pattern.matcher(response);
        assertThat(m.find()).as(response).isTrue();
        return m.group(1);
    }

    @Test
    void printsAReadyLineForTheMainPortAndForTheSrcsrvPort() {
        assertThat(jwd.log()).filteredOn(line -> line.startsWith("jwd: ready on "))
                .containsSubsequence("jwd: ready on http://127.0.0.1:" + jwd.port() + "/",
                        "jwd: ready on http://127.0.0.1:" + erpPort + "/");
    }

    @Test
    void theSrcsrvPortTakesEveryPathToItsSystem() {
        String irj = get(erpPort, "/irj/portal");
        String other = get(erpPort, "/webdynpro/x");

        assertThat(irj).startsWith("HTTP/1.1 200");
        assertThat(header(SERVED_BY, irj)).isEqualTo("erpj2ee1");
        assertThat(header(ROUTE, irj)).startsWith("system=ERP; ");
        assertThat(header(SERVED_BY, other)).isEqualTo("erpj2ee1");
    }

    @Test
    void theMainPortTakesThePrefixToItsSystemAndNothingElse() {
        assertThat(jwd.port()).isEqualTo(mainPort);
        String irj = get(jwd.port(), "/irj/portal");
        String other = get(jwd.port(), "/webdynpro/x");

        assertThat(header(SERVED_BY, irj)).isEqualTo("prtj2ee1");
        assertThat(header(ROUTE, irj)).startsWith("system=PRT; ");
        assertThat(other).startsWith("HTTP/1.1 404").contains("jwd: no system for host '127.0.0.1:" + jwd.port()
                + "', port " + jwd.port() + ", path '/webdynpro/x'");
    }

    /** SAP's SRCSRV=<src-host>:<source-ports> with * as the port, and a host name (help.sap.com wdisp/system_<xx>). */
    @Test
    void anyPortTakesItsPrefixOnEveryListenerAndAHostNameItsPort() {
        String sapOnMain = get(sapForms.port(), "/sap/bc/x");
        String sapOnPrt = get(prtPort, "/sap/bc/x");
        String irjOnPrt = get(prtPort, "/irj/portal");
        String irjOnMain = get(sapForms.port(), "/irj/portal");

        assertThat(header(ROUTE, sapOnMain)).startsWith("system=ERP; ");
        assertThat(header(ROUTE, sapOnPrt)).startsWith("system=ERP; ");
        assertThat(header(ROUTE, irjOnPrt)).startsWith("system=PRT; ");
        assertThat(header(SERVED_BY, irjOnPrt)).isEqualTo("prtj2ee1");
        assertThat(irjOnMain).startsWith("HTTP/1.1 404");
        assertThat(sapForms.log()).contains("jwd: ready on http://127.0.0.1:" + prtPort + "/");
    }

    @Test
    void anSrcsrvPortInUseStopsTheStartNamingThePort(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path config = dir.resolve("jwd.properties");
            int port = freePorts(1)[0];
            Files.writeString(config, twoSystems(port, taken.getLocalPort()));

            JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(90), "run", "--config",
                    config.toString(), "--port", String.valueOf(port), "--host", "127.0.0.1");

            assertThat(result.exitCode()).as(result.output()).isNotZero();
            assertThat(result.output()).contains("jwd: Jetty did not start: ")
                    .contains("127.0.0.1:" + taken.getLocalPort()).doesNotContain("jwd: ready on");
        }
    }
}
