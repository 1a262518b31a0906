package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What jwd tells the servers about the client, and which headers it passes on, through the real Jetty
 * distribution. Requests are written on raw sockets, because a client library would refuse to send the
 * hop-by-hop and Host headers under test. The test client runs on 127.0.0.1: {@code trusting} trusts it as a
 * proxy ({@code jwd.trusted_proxies=127.0.0.1}) and adds {@code X-Forwarded-For}
 * ({@code wdisp/add_xforwardedfor_header=TRUE}), {@code distrusting} does not trust it ({@code 10.0.0.0/8}) and
 * keeps SAP's defaults, {@code serverHost} sends the server's own address as {@code Host}
 * ({@code jwd.preserve_host=false}). The servers echo what reached them and build redirects from {@code Host}.
 */
class ForwardedHeadersIT {
    private static DemoBackend j2ee;
    private static DemoBackend abap;
    private static JwdProcess trusting;
    private static JwdProcess distrusting;
    private static JwdProcess serverHost;

    @BeforeAll
    static void start() {
        j2ee = DemoBackend.start(DemoBackend.Options.j2ee("j"));
        abap = DemoBackend.start(DemoBackend.Options.abap("b"));
        String servers = """
                server.j.url=%s
                server.j.type=j2ee
                server.b.url=%s
                server.b.type=abap
                icf.url_prefixes=/sap/
                jwd.debug_headers=true
                """.formatted(j2ee.url(), abap.url());
        trusting = JwdProcess.start(servers + "jwd.trusted_proxies=::1, 127.0.0.1\n"
                + "wdisp/add_xforwardedfor_header=TRUE\n");
        distrusting = JwdProcess.start(servers + "jwd.trusted_proxies=10.0.0.0/8\n");
        serverHost = JwdProcess.start(servers + "jwd.preserve_host=false\n");
    }

    @AfterAll
    static void stop() {
        for (JwdProcess jwd : new JwdProcess[] {trusting, distrusting, serverHost}) {
            if (jwd != null) {
                jwd.close();
            }
        }
        for (DemoBackend b : new DemoBackend[] {j2ee, abap}) {
            if (b != null) {
                b.close();
            }
        }
    }

    /** An answer read off a raw socket: status, headers (names in lower case) and body. */
    private record Answer(int status, List<String[]> headers, String body) {
        List<String> all(String name) {
            return headers.stream().filter(h -> h[0].equals(name.toLowerCase(Locale.ROOT))).map(h -> h[1]).toList();
        }

        String first(String name) {
            List<String> values = all(name);
            return values.isEmpty() ? null : values.get(0);
        }

        /** The headers the echo endpoint says the server received, names in lower case. */
        @SuppressWarnings("unchecked")
        Map<String, List<String>> received() {
            Map<String, Object> json = (Map<String, Object>) ClientJson.parse(body);
            Map<String, List<String>> result = new java.util.TreeMap<>();
            ((Map<String, Object>) json.get("headers")).forEach((k, v) ->
                    result.put(k.toLowerCase(Locale.ROOT), (List<String>) v));
            return result;
        }

        String receivedBy() {
            @SuppressWarnings("unchecked")
            Map<String, Object> json = (Map<String, Object>) ClientJson.parse(body);
            return json.get("server") + " " + json.get("path");
        }
    }

    /** Sends a GET with {@code headers} ("Name: value" lines; a Host line unless one is given). */
    private static Answer get(JwdProcess jwd, String path, String... headers) throws IOException {
        StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\n");
        boolean host = false;
        for (String h : headers) {
            request.append(h).append("\r\n");
            host |= h.toLowerCase(Locale.ROOT).startsWith("host:");
        }
        if (!host) {
            request.append("Host: 127.0.0.1:").append(jwd.port()).append("\r\n");
        }
        boolean close = List.of(headers).stream().anyMatch(h -> h.toLowerCase(Locale.ROOT).startsWith("connection:"));
        if (!close) {
            request.append("Connection: close\r\n");
        }
        request.append("\r\n");
        try (Socket socket = new Socket("127.0.0.1", jwd.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return parse(readAll(socket.getInputStream()));
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }

    private static Answer parse(String raw) {
        int end = raw.indexOf("\r\n\r\n");
        assertThat(end).as("a complete head: " + raw).isPositive();
        String[] lines = raw.substring(0, end).split("\r\n");
        List<String[]> headers = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.add(new String[] {lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).strip()});
        }
        String body = raw.substring(end + 4);
        if (headers.stream().anyMatch(h -> h[0].equals("transfer-encoding") && h[1].contains("chunked"))) {
            body = dechunk(body);
        }
        return new Answer(Integer.parseInt(lines[0].split(" ")[1]), headers, body);
    }

    private static String dechunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";")[0].strip(), 16);
            if (size == 0) {
                return body.toString();
            }
            body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
    }

    @Test
    void aTrustedProxysChainIsKeptAndThePeerAppended() throws Exception {
        Answer answer = get(trusting, "/irj/echo", "X-Forwarded-For: 198.51.100.1, 10.1.1.1",
                "X-Forwarded-For: 10.2.2.2", "X-Forwarded-Proto: https", "X-Forwarded-Host: portal.example.com",
                "X-Forwarded-Port: 443", "Forwarded: for=6.6.6.6", "X-Forwarded-Server: evil");

        Map<String, List<String>> received = answer.received();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(received.get("x-forwarded-for")).containsExactly("198.51.100.1, 10.1.1.1, 10.2.2.2, 127.0.0.1");
        assertThat(received.get("x-forwarded-proto")).containsExactly("https");
        assertThat(received.get("x-forwarded-host")).containsExactly("portal.example.com");
        assertThat(received.get("x-forwarded-port")).containsExactly("443");
        // Never passed on, not even from a trusted proxy: jwd does not speak RFC 7239 Forwarded.
        assertThat(received).doesNotContainKeys("forwarded", "x-forwarded-server");
    }

    @Test
    void aTrustedProxyThatSentNoChainIsTheClient() throws Exception {
        Answer answer = get(trusting, "/irj/echo");

        Map<String, List<String>> received = answer.received();
        assertThat(received.get("x-forwarded-for")).containsExactly("127.0.0.1");
        assertThat(received.get("x-forwarded-proto")).containsExactly("http");
        assertThat(received.get("x-forwarded-host")).containsExactly("127.0.0.1:" + trusting.port());
        assertThat(received).doesNotContainKey("x-forwarded-port");
    }

    @Test
    void anUntrustedPeersForwardingHeadersAreReplacedOrRemoved() throws Exception {
        Answer answer = get(distrusting, "/irj/echo", "X-Forwarded-For: 198.51.100.1", "X_Forwarded_For: 198.51.100.2",
                "X-Forwarded-Proto: https", "X-Forwarded-Host: portal.example.com", "X-Forwarded-Port: 443",
                "Forwarded: for=6.6.6.6;proto=https", "X-Forwarded-Server: evil", "ClientProtocol: https",
                "x-sap-webdisp-ap: https=1", "SSL_CLIENT_CERT: Zm9yZ2Vk", "SSL-Client-Cert-Chain-1: Zm9yZ2Vk",
                "ssl_cipher_usekeysize: 4096");

        Map<String, List<String>> received = answer.received();
        assertThat(answer.status()).isEqualTo(200);
        // SAP's defaults: no X-Forwarded-For unless wdisp/add_xforwardedfor_header; clientprotocol and
        // x-sap-webdisp-ap from what jwd saw
        assertThat(received.get("x-forwarded-proto")).containsExactly("http");
        assertThat(received.get("x-forwarded-host")).containsExactly("127.0.0.1:" + distrusting.port());
        assertThat(received.get("clientprotocol")).containsExactly("http");
        assertThat(received.get("x-sap-webdisp-ap")).containsExactly("http=" + distrusting.port());
        assertThat(received).doesNotContainKeys("x-forwarded-for", "x_forwarded_for", "x-forwarded-port",
                "forwarded", "x-forwarded-server", "ssl_client_cert", "ssl-client-cert-chain-1",
                "ssl_cipher_usekeysize");
    }

    @Test
    void theClientsHostReachesTheServerAndItsRedirectsPointAtJwd() throws Exception {
        for (JwdProcess jwd : new JwdProcess[] {trusting, distrusting}) {
            Answer echo = get(jwd, "/irj/echo", "Host: portal.example.com:" + jwd.port());
            Answer redirect = get(jwd, "/irj/portal/redirect", "Host: portal.example.com:" + jwd.port());

            assertThat(echo.received().get("host")).containsExactly("portal.example.com:" + jwd.port());
            assertThat(redirect.status()).isEqualTo(302);
            assertThat(redirect.first("location"))
                    .isEqualTo("http://portal.example.com:" + jwd.port() + "/irj/portal/next");
        }
    }

    @Test
    void withPreserveHostOffTheServerSeesItsOwnAddressAndRedirectsToIt() throws Exception {
        Answer echo = get(serverHost, "/irj/echo", "Host: portal.example.com");
        Answer redirect = get(serverHost, "/irj/portal/redirect", "Host: portal.example.com");

        String own = "127.0.0.1:" + j2ee.port();
        assertThat(echo.received().get("host")).containsExactly(own);
        assertThat(echo.received().get("x-forwarded-host")).containsExactly("portal.example.com");
        // what jwd.preserve_host=false breaks: the browser is sent to the server's internal address
        assertThat(redirect.first("location")).isEqualTo("http://" + own + "/irj/portal/next");
    }

    @Test
    void aTrustedProxysClientProtocolBuildsTheRedirect() throws Exception {
        // SAP: SetHeaderIfEmpty clientProtocol %{SERVER_PROTOCOL}: a trusted proxy in front that terminated TLS
        Answer redirect = get(trusting, "/irj/portal/redirect", "Host: portal.example.com", "ClientProtocol: https",
                "x-sap-webdisp-ap: https=443");
        Answer fromItsOwn = get(distrusting, "/irj/portal/redirect", "Host: portal.example.com",
                "ClientProtocol: https");

        assertThat(redirect.first("location")).isEqualTo("https://portal.example.com/irj/portal/next");
        assertThat(fromItsOwn.first("location")).isEqualTo("http://portal.example.com/irj/portal/next");
    }

    /**
     * End-to-end tracing headers are the client's, not jwd's, while jwd traces nothing: the W3C trace context and SAP's
     * passport (a version-3 passport of SAP's browser plug-in) reach the server byte for byte.
     */
    @Test
    void traceContextAndSapsPassportReachTheServerUnchanged() throws Exception {
        String passport =
                "2A54482A0300E600005341505F4532455F54415F506C7567496E20202020202020202020202020202000005341505F45"
                + "32455F54415F5573657220202020202020202020202020202020205341505F4532455F54415F52657175657374202020"
                + "2020202020202020202020202020202020202000055341505F4532455F54415F506C7567496E20202020202020202020"
                + "202020202035453242304336413933463134443743384231314132443445364638303132332020200007463500000031"
                + "1EE0A5D24EDBB2E44B680000000000000000000000000000000000000000000000E22A54482A";
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

        Answer answer = get(distrusting, "/sap/bc/echo", "SAP-PASSPORT: " + passport, "traceparent: " + traceparent,
                "tracestate: rojo=00f067aa0ba902b7,congo=t61rcWkgMzE");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.received().get("sap-passport")).containsExactly(passport);
        assertThat(answer.received().get("traceparent")).containsExactly(traceparent);
        assertThat(answer.received().get("tracestate"))
                .containsExactly("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE");
    }

    @Test
    void theClientsHopByHopHeadersStopAtJwd() throws Exception {
        for (JwdProcess jwd : new JwdProcess[] {trusting, distrusting}) {
            Answer answer = get(jwd, "/irj/echo", "Connection: close, X-Client-Hop", "X-Client-Hop: client secret",
                    "Keep-Alive: timeout=5", "TE: trailers", "Trailer: X-Checksum",
                    "Proxy-Authorization: Basic c2VjcmV0OnNlY3JldA==", "Proxy-Connection: keep-alive",
                    "X-End-To-End: kept");

            Map<String, List<String>> received = answer.received();
            assertThat(answer.status()).isEqualTo(200);
            assertThat(received.get("x-end-to-end")).containsExactly("kept");
            assertThat(received).doesNotContainKeys("x-client-hop", "keep-alive", "te", "trailer",
                    "proxy-authorization", "proxy-connection");
            // jwd's own connection to the server may carry a Connection header, never the client's tokens.
            assertThat(String.valueOf(received.get("connection"))).doesNotContainIgnoringCase("x-client-hop");
        }
    }

    @Test
    void anUpgradeThatIsNoneIsRefusedBeforeRouting() throws Exception {
        long before = j2ee.requestCount("/irj/echo");

        // Jetty refuses an Upgrade it does not speak, before jwd sees the request.
        Answer answer = get(trusting, "/irj/echo", "Upgrade: demo/1");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(j2ee.requestCount("/irj/echo")).isEqualTo(before);
    }

    @Test
    void theServersHopByHopHeadersStopAtJwd() throws Exception {
        // The server answers /hop with Connection: X-Server-Hop, X-Server-Hop, Keep-Alive, Proxy-Authenticate,
        // Upgrade and Proxy-Connection, and the end-to-end X-End-To-End.
        Answer direct = parse(rawGet(j2ee.port(), "/irj/hop"));
        assertThat(direct.first("x-server-hop")).as("the server does send them").isEqualTo("server secret");

        Answer answer = get(trusting, "/irj/hop");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("hop from j\n");
        assertThat(answer.first("x-end-to-end")).isEqualTo("kept");
        assertThat(answer.all("x-server-hop")).isEmpty();
        assertThat(answer.all("keep-alive")).isEmpty();
        assertThat(answer.all("proxy-authenticate")).isEmpty();
        assertThat(answer.all("upgrade")).isEmpty();
        assertThat(answer.all("proxy-connection")).isEmpty();
        assertThat(String.join(",", answer.all("connection"))).doesNotContainIgnoringCase("x-server-hop");
    }

    @Test
    void theServersEndToEndHeadersReachTheClientAsTheServerWroteThem() throws Exception {
        Answer direct = parse(rawGet(j2ee.port(), "/irj/hop"));
        Answer answer = get(trusting, "/irj/hop");

        // Jetty's own copy joined each value's comma-separated parts again: filename=report, 2026.pdf, unquoted.
        assertThat(answer.first("content-disposition")).isEqualTo("attachment; filename=\"report, 2026.pdf\"")
                .isEqualTo(direct.first("content-disposition"));
        assertThat(answer.all("x-list")).containsExactly("a, \"b,c\" , d", "e")
                .isEqualTo(direct.all("x-list"));
    }

    private static String rawGet(int port, String path) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            return readAll(socket.getInputStream());
        }
    }

    /**
     * Only the path (with its documented cookies and path parameters) routes a request: headers that other
     * proxies and servers honour as the "real" URL or host change nothing, even from a trusted proxy.
     */
    @Test
    void noRequestHeaderChangesWhereARequestGoes() throws Exception {
        String[][] headerSets = {
                {},
                {"X-Original-URL: /sap/bc/echo"},
                {"X-Rewrite-URL: /sap/bc/echo"},
                {"X-Forwarded-Prefix: /sap"},
                {"X-Forwarded-Host: sap.example.com", "X-Forwarded-Proto: https", "X-Forwarded-Port: 443"},
                {"Host: sap.example.com"},
                {"Host: 127.0.0.1:1"},
                {"Host: 127.0.0.1:1/sap/bc"},
                {"X-HTTP-Method-Override: POST", "X-Original-Host: sap.example.com"},
                {"Referer: http://127.0.0.1/sap/bc/echo", "Origin: http://sap.example.com"},
                {"X-Jwd-Route: group=!DIAG; server=b; reason=forced"},
        };
        for (JwdProcess jwd : new JwdProcess[] {trusting, distrusting}) {
            for (String[] headers : headerSets) {
                String what = jwd.port() + " " + String.join(" | ", headers);
                Answer toJ2ee = get(jwd, "/irj/echo", headers);
                Answer toAbap = get(jwd, "/sap/bc/echo", with(headers, "X-Original-URL: /irj/echo"));

                if (toJ2ee.status() == 400) {
                    // Jetty itself refuses a Host it cannot parse: then nothing was routed at all.
                    assertThat(String.join(" ", headers)).as(what).contains("Host: 127.0.0.1:1/sap/bc");
                    continue;
                }
                assertThat(toJ2ee.status()).as(what).isEqualTo(200);
                assertThat(toJ2ee.receivedBy()).as(what).isEqualTo("j /irj/echo");
                assertThat(toJ2ee.first("x-jwd-route")).as(what).isEqualTo("group=!J2EE; server=j; reason=balanced");
                assertThat(toAbap.status()).as(what).isEqualTo(200);
                assertThat(toAbap.receivedBy()).as(what).isEqualTo("b /sap/bc/echo");
                assertThat(toAbap.first("x-jwd-route")).as(what).isEqualTo("group=!DIAG; server=b; reason=balanced");
            }
        }
    }

    private static String[] with(String[] headers, String more) {
        String[] all = java.util.Arrays.copyOf(headers, headers.length + 1);
        all[headers.length] = more;
        return all;
    }
}
