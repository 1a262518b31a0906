package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What reaches an SAP server through jwd is what reaches it through SAP's Web Dispatcher, through the distribution,
 * with backends that echo the request target they got: mangled ICF URLs, the session identifiers in their URL forms,
 * the server names inside them, encoded slashes; and the learned JSESSIONIDs that keep
 * {@code wdisp/HTTP/context_timeout} while request-time bindings expire after {@code SessionTableTimeout}.
 * Requests are written on a socket, so that the target is sent exactly as written here.
 */
class SapUrlFormsIT {
    private static final Pattern STATUS = Pattern.compile("^HTTP/1.1 (\\d{3})");
    private static DemoBackend abap1;
    private static DemoBackend abap2;
    private static DemoBackend j1;
    private static DemoBackend j2;
    private static JwdProcess jwd;
    private static AdminClient admin;

    /**
     * abap1 and abap2 with their SAP names; j1 and j2 in logon group PORTAL (/irj), node 101 of instance J2EE100 and
     * node 201 of instance J2EE200; j2's SAP name is ls3022_BIN_12, the server of SAP's example JSESSIONID.
     */
    @BeforeAll
    static void start() {
        abap1 = DemoBackend.start(DemoBackend.Options.abap("abap1").withName("h1_JWD_00"));
        abap2 = DemoBackend.start(DemoBackend.Options.abap("abap2").withName("h2_JWD_01"));
        j1 = DemoBackend.start(DemoBackend.Options.j2ee("j1").withInstance("J2EE100").withNode("101"));
        j2 = DemoBackend.start(DemoBackend.Options.j2ee("j2").withInstance("J2EE200").withNode("201"));
        jwd = JwdProcess.start("""
                server.abap1.url=%s
                server.abap1.type=abap
                server.abap1.name=h1_JWD_00
                server.abap2.url=%s
                server.abap2.type=abap
                server.abap2.name=h2_JWD_01
                server.j1.url=%s
                server.j1.type=j2ee
                server.j1.lb_id=(J2EE100)101
                server.j1.logon_groups=PORTAL
                server.j2.url=%s
                server.j2.type=j2ee
                server.j2.lb_id=(J2EE200)201
                server.j2.name=ls3022_BIN_12
                server.j2.logon_groups=PORTAL
                icf.url_prefixes=/sap/
                logon_group.PORTAL.url_prefixes=/irj
                SessionTableTimeout=2s
                health.interval=1h
                jwd.debug_headers=true
                """.formatted(abap1.url(), abap2.url(), j1.url(), j2.url()) + AdminClient.CONFIG);
        admin = new AdminClient(jwd);
    }

    @AfterAll
    static void stop() {
        if (jwd != null) {
            jwd.close();
        }
        for (DemoBackend backend : new DemoBackend[] {abap1, abap2, j1, j2}) {
            if (backend != null) {
                backend.close();
            }
        }
    }

    /** An answer: status, the headers (one value each, names in lower case) and the body. */
    private record Answer(int status, Map<String, String> headers, String body) {
        String servedBy() {
            return headers.get("x-served-by");
        }

        String reason() {
            String route = headers.get("x-jwd-route");
            return route == null ? null : route.substring(route.indexOf("reason=") + "reason=".length());
        }

        /** The request target the server got, as its echo says. */
        String pathTheServerGot() {
            Matcher m = Pattern.compile("\"path\":\"([^\"]*)\"").matcher(body);
            return m.find() ? m.group(1).replace("\\u0027", "'") : null;
        }
    }

    /** A GET of this exact target (path and query, as written) with this Cookie header, or none. */
    private static Answer get(String target, String cookie) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(jwd.uri().getHost(), jwd.port()), 10_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + jwd.port() + "\r\n"
                    + (cookie == null ? "" : "Cookie: " + cookie + "\r\n") + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Matcher status = STATUS.matcher(text);
            assertThat(status.find()).as(text).isTrue();
            int split = text.indexOf("\r\n\r\n");
            Map<String, String> headers = new java.util.HashMap<>();
            for (String line : text.substring(0, split).split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    headers.putIfAbsent(line.substring(0, colon).toLowerCase(java.util.Locale.ROOT),
                            line.substring(colon + 1).strip());
                }
            }
            return new Answer(Integer.parseInt(status.group(1)), headers, text.substring(split + 4));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The mangled part BSP writes for these fields: SAP's Url64 (Base64 with '-' for '/'). */
    private static String mangled(String fields) {
        return Base64.getEncoder().encodeToString(fields.getBytes(StandardCharsets.ISO_8859_1)).replace('/', '-');
    }

    @Test
    void mangledIcfUrlsGoToTheAbapServersAndReachThemAsSent() {
        // BSP In-Depth: URL Mangling: bD1lbiZjPTAwMQ== is l=en&c=001
        for (String target : new String[] {"/sap(bD1lbiZjPTAwMQ==)/bc/bsp/sap/it00/echo",
                "/sap(bD1lbiZjPTAwMQ==)/bc/gui/sap/its/webgui?echo", "/sap(bD1lbiZjPTAwMQ==);x=1/bc/bsp/x/echo"}) {
            Answer a = get(target, null);

            assertThat(a.status()).as(target + ": " + a.body()).isEqualTo(200);
            assertThat(a.servedBy()).as(target).startsWith("abap");
            assertThat(a.pathTheServerGot()).isEqualTo(target.replace("?echo", ""));
        }
        Answer portal = get("/irj(bD1lbiZjPTAwMQ==)/portal/x/echo", null);
        assertThat(portal.headers().get("x-jwd-route")).startsWith("group=PORTAL;");
        assertThat(portal.pathTheServerGot()).isEqualTo("/irj(bD1lbiZjPTAwMQ==)/portal/x/echo");
    }

    @Test
    void theAbapSessionIdInTheMangledSegmentKeepsTheSessionOnItsServer() {
        // BSP "Session Handling without Cookies": s=<the sap-contextid value>, here a session of abap2 (h2_JWD_01)
        String contextId = "SID%3aANON%3ah2_JWD_01%3a4711-NEW";
        String target = "/sap(" + mangled("s=" + contextId + "&l=en&c=001") + ")/bc/bsp/sap/zjwd/echo";
        for (int i = 0; i < 10; i++) {
            Answer a = get(target, i % 2 == 0 ? null : "sap-contextid=SID%3aANON%3ah1_JWD_00%3a1-NEW");

            assertThat(a.servedBy()).as("request %d", i).isEqualTo("abap2");
            assertThat(a.reason()).isEqualTo("sap-contextid");
            assertThat(a.body()).contains("\"session\":\"" + contextId + "\"");
            assertThat(a.pathTheServerGot()).isEqualTo(target);
        }
    }

    @Test
    void sapsEsidExampleIsReadOnItsEmptySegmentKeptAndForwardedAsSent() {
        // SAP Library, "External Session Identifier": /sap/;sap-ext-sid=<external session identifier>/foo/bar
        String target = "/sap/;sap-ext-sid=MTIzNDU2" + System.nanoTime() + "/foo/bar?echo";
        Answer first = get(target, null);
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.reason()).isEqualTo("session table bind");
        assertThat(first.pathTheServerGot()).isEqualTo(target.replace("?echo", ""));

        for (int i = 0; i < 5; i++) {
            Answer next = get(target, null);
            assertThat(next.servedBy()).isEqualTo(first.servedBy());
            assertThat(next.reason()).isEqualTo("session table (sap-ext-sid)");
        }
    }

    @Test
    void theJsessionidAndSaplbInTheUrlPlaceTheRequestAndReachTheServerUnchanged() {
        // SAP Library, "J2EE Session Identifier": <uri-path-segment>;jsessionid=<sap-j2ee-sid>; "Load Balancing
        // Identifier": "The same syntax applies if the identifier is used via url rewriting"
        String portal = "/irj/x;jsessionid=S1;saplb_PORTAL=(J2EE200)201/echo";
        String other = "/b2c/init.do;jsessionid=(J2EE100)ID0269691750DB2fe6End;saplb_*=(J2EE100)101?echo";
        for (int i = 0; i < 3; i++) {
            Answer a = get(portal, null);
            Answer b = get(other, null);

            assertThat(a.servedBy()).isEqualTo("j2");
            assertThat(a.reason()).isEqualTo("saplb cookie");
            assertThat(a.pathTheServerGot()).isEqualTo(portal);
            assertThat(b.servedBy()).isEqualTo("j1");
            assertThat(b.pathTheServerGot()).isEqualTo(other.replace("?echo", ""));
        }
    }

    @Test
    void aJsessionidNamingItsServerGoesThereWithoutATableEntryAndTeachesNoRoute() {
        // SAP Library, "J2EE Session Identifier": (ls3022_BIN_12)ID47500DB0.5138181876605873End
        String cookie = "JSESSIONID=(ls3022_BIN_12)ID47500DB0.5138181876605873End";
        for (int i = 0; i < 5; i++) {
            Answer a = get("/irj/portal/echo", cookie);

            assertThat(a.servedBy()).as("request %d", i).isEqualTo("j2");
            assertThat(a.reason()).isEqualTo("JSESSIONID server name");
        }
        assertThat(admin.server("j2").get("route")).as("'.5138181876605873End' is no route suffix").isNull();
        Map<String, Object> explained = admin.object("/jwd/admin/api/explain?url=/nwa/x");
        assertThat(explained.get("reason")).isEqualTo("balanced");
    }

    @Test
    void theSaplbCookieOfTheUrlsLogonGroupIsReadAndMatchedByItsInstance() {
        // SAP Library, "Load Balancing Identifier": saplb_<group_id>=(<instance_id>)[<node_id>]; the Web Dispatcher
        // picks the group's cookie and routes by the instance, the node is for the instance's Java dispatcher
        String cookies = "saplb_*=(J2EE100)101; saplb_PORTAL=(J2EE200)299";
        for (int i = 0; i < 3; i++) {
            assertThat(get("/irj/portal/echo", cookies).servedBy()).isEqualTo("j2");
            assertThat(get("/nwa/echo", cookies).servedBy()).isEqualTo("j1");
        }
    }

    @Test
    void encodedSlashesAndReservedCharactersReachTheServerByteForByte() {
        Set<String> servers = new HashSet<>();
        for (String target : new String[] {
                "/sap/bc/adt/oo/classes/%2Fdmo%2Fcl_flight/source/main?echo",
                "/sap/opu/odata/sap/ZEMP_SRV/EMPLOYEES('A%2FB')?echo",
                "/sap/opu/odata/sap/ZEMP_SRV/EMPLOYEES(%27A%3BB%27)?echo",
                "/sap/opu/odata/sap/ZEMP_SRV/EMPLOYEES('x%3Ay%40z')/Manager?echo"}) {
            Answer a = get(target, null);

            assertThat(a.status()).as(target + ": " + a.body()).isEqualTo(200);
            assertThat(a.pathTheServerGot()).isEqualTo(target.replace("?echo", ""));
            servers.add(a.servedBy());
        }
        assertThat(servers).allMatch(s -> s.startsWith("abap"));
    }

    /**
     * SAP's {@code SessionTableTimeout} (2 s here) is the Java dispatcher's temporary table's, for the JSESSIONIDs
     * bound at request time; a JSESSIONID a server set is SAP's session ID table's, whose entries keep
     * {@code wdisp/HTTP/context_timeout} (1 h).
     */
    @Test
    void aJsessionidAServerSetOutlivesSessionTableTimeoutWhileARequestTimeBindingExpires() {
        Answer portal = get("/irj/portal", null);
        String learned = portal.headers().get("set-cookie").split(";")[0];
        assertThat(learned).startsWith("JSESSIONID=");
        // the portal page sets no cookie for a request that brings one: this id is only bound at request time
        String bound = "JSESSIONID=boundAtRequestTime" + System.nanoTime();
        Answer first = get("/irj/portal", bound);
        assertThat(first.reason()).isEqualTo("session table bind");

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250))
                .until(() -> "session table bind".equals(explain("/irj/portal", bound).get("reason")));

        Map<String, Object> stillLearned = explain("/irj/portal", learned);
        assertThat(stillLearned.get("reason")).as("idle longer than SessionTableTimeout").isEqualTo("session table");
        assertThat(stillLearned.get("server")).isEqualTo(portal.servedBy());
    }

    private static Map<String, Object> explain(String url, String cookie) {
        HttpRequest request = admin.request("/jwd/admin/api/explain?url=" + url).header("Cookie", cookie).build();
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) ClientJson.parse(admin.send(request).body());
        return answer;
    }
}
