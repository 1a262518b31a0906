package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
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

/**
 * Two SAP systems behind one jwd, through the distribution: ERP reached by the URL prefix {@code /sap/} and by the
 * virtual host {@code erp.example.com}, PRT by {@code /irj/}; each with its own servers, and the same JSESSIONID
 * value kept on a server of each system. {@code SRCSRV} names the one HTTP port {@code bin/jwd run} opens here, which
 * is known only once it runs: a reload adds that entry. (A second port that {@code SRCSRV} names, and the listener
 * {@code bin/jwd run} opens for it, are {@code SystemListenersIT}'s.)
 */
class SeveralSystemsIT {
    private static final Pattern SERVED_BY = Pattern.compile("(?im)^X-Served-By: *(\\S+)");
    private static final Pattern ROUTE = Pattern.compile("(?im)^X-Jwd-Route: *([^\\r\\n]+)");
    private static DemoBackend erp1;
    private static DemoBackend erp2;
    private static DemoBackend prt1;
    private static DemoBackend prt2;
    private static JwdProcess jwd;
    private static Path config;

    @BeforeAll
    static void start() {
        erp1 = DemoBackend.start(DemoBackend.Options.j2ee("erp1").withInstance("J2EE100").withNode("101"));
        erp2 = DemoBackend.start(DemoBackend.Options.j2ee("erp2").withInstance("J2EE200").withNode("201"));
        prt1 = DemoBackend.start(DemoBackend.Options.j2ee("prt1").withInstance("J2EE300").withNode("301"));
        prt2 = DemoBackend.start(DemoBackend.Options.j2ee("prt2").withInstance("J2EE400").withNode("401"));
        config = configFile("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_1=SID=ERP, SRCVHOST=erp.example.com
                wdisp/system_2=SID=PRT, SRCURL=/irj/
                system.ERP.server.erp1.url=%s
                system.ERP.server.erp1.type=j2ee
                system.ERP.server.erp2.url=%s
                system.ERP.server.erp2.type=j2ee
                system.PRT.server.prt1.url=%s
                system.PRT.server.prt1.type=j2ee
                system.PRT.server.prt2.url=%s
                system.PRT.server.prt2.type=j2ee
                SessionTableTimeout=10m
                health.interval=1h
                jwd.debug_headers=true
                jwd.config_watch=200ms
                """.formatted(erp1.url(), erp2.url(), prt1.url(), prt2.url()));
        try {
            jwd = JwdProcess.startWith(config, Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path configFile(String properties) {
        try {
            Path file = Files.createTempFile("jwd-it-systems", ".properties");
            Files.writeString(file, properties);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        for (DemoBackend backend : new DemoBackend[] {erp1, erp2, prt1, prt2}) {
            if (backend != null) {
                backend.close();
            }
        }
    }

    /** Status line and headers of a GET with this {@code Host} (and cookie, or none). */
    private static String get(String host, String path, String cookie) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(jwd.uri().getHost(), jwd.port()), 10_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n"
                    + (cookie == null ? "" : "Cookie: " + cookie + "\r\n") + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static String header(Pattern pattern, String response) {
        Matcher m = pattern.matcher(response);
        assertThat(m.find()).as(response).isTrue();
        return m.group(1);
    }

    private static String localHost() {
        return "127.0.0.1:" + jwd.port();
    }

    @Test
    void eachUrlPrefixGoesToItsSystem() throws IOException {
        String erp = get(localHost(), "/sap/bc/x", null);
        String prt = get(localHost(), "/irj/portal", null);

        assertThat(header(SERVED_BY, erp)).startsWith("erp");
        assertThat(header(ROUTE, erp)).startsWith("system=ERP; ");
        assertThat(header(SERVED_BY, prt)).startsWith("prt");
        assertThat(header(ROUTE, prt)).startsWith("system=PRT; ");
    }

    /** A mangled segment selects by its plain name ({@code SRCURL=/sap/}) and reaches the server as sent. */
    @Test
    void aMangledUrlGoesToTheSystemOfItsPlainPrefixAndReachesItAsSent() throws IOException {
        String r = get(localHost(), "/sap(bD1lbiZjPTAwMQ==)/bc/bsp/sap/it00/echo", null);

        assertThat(header(SERVED_BY, r)).startsWith("erp");
        assertThat(header(ROUTE, r)).startsWith("system=ERP; ");
        assertThat(r).contains("\"path\":\"/sap(bD1lbiZjPTAwMQ==)/bc/bsp/sap/it00/echo\"");
    }

    @Test
    void theVirtualHostGoesToItsSystemWhateverThePath() throws IOException {
        String r = get("erp.example.com", "/webdynpro/x", null);

        assertThat(r).startsWith("HTTP/1.1 200");
        assertThat(header(SERVED_BY, r)).startsWith("erp");
    }

    @Test
    void aRequestNoSystemTakesGets404NamingHostPortAndPath() throws IOException {
        String r = get("other.example.com", "/webdynpro/x", null);

        assertThat(r).startsWith("HTTP/1.1 404");
        assertThat(r).contains("jwd: no system for host 'other.example.com', port " + jwd.port()
                + ", path '/webdynpro/x'");
    }

    @Test
    void anAccessPointAddedByAreloadTakesItsPrefixOnThatPort() throws IOException {
        assertThat(get(localHost(), "/wd/x", null)).startsWith("HTTP/1.1 404");

        Files.writeString(config, Files.readString(config) + "wdisp/system_4=SID=PRT, SRCSRV=*:" + jwd.port()
                + ", SRCURL=/wd/\n");

        await().atMost(Duration.ofSeconds(30)).until(() -> get(localHost(), "/wd/x", null).startsWith("HTTP/1.1 200"));
        String r = get(localHost(), "/wd/x", null);
        assertThat(header(SERVED_BY, r)).startsWith("prt");
        assertThat(header(ROUTE, r)).startsWith("system=PRT; ");
    }

    @Test
    void theSameJsessionidStaysOnAserverOfEachSystem() throws IOException {
        String cookie = "JSESSIONID=SAMEINBOTH" + System.nanoTime();
        String erpFirst = get(localHost(), "/sap/bc/x", cookie);
        String prtFirst = get(localHost(), "/irj/portal", cookie);
        String erpServer = header(SERVED_BY, erpFirst);
        String prtServer = header(SERVED_BY, prtFirst);

        assertThat(erpServer).startsWith("erp");
        assertThat(prtServer).startsWith("prt");
        for (int i = 0; i < 6; i++) {
            String erp = get(localHost(), "/sap/bc/x", cookie);
            String prt = get(localHost(), "/irj/portal", cookie);
            assertThat(header(SERVED_BY, erp)).as("ERP request %d", i).isEqualTo(erpServer);
            assertThat(header(ROUTE, erp)).contains("reason=session table");
            assertThat(header(SERVED_BY, prt)).as("PRT request %d", i).isEqualTo(prtServer);
            assertThat(header(ROUTE, prt)).contains("reason=session table");
        }
    }
}
