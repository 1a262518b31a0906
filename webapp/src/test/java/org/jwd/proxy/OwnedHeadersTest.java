package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import javax.security.auth.x500.X500Principal;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.jwd.config.HeaderForwarding;
import org.jwd.config.TrustedProxies;
import org.jwd.tls.ClientCertConfig;
import org.jwd.tls.ClientCertConfig.CertificateHeaders;
import org.junit.jupiter.api.Test;

/**
 * The headers jwd owns, applied to the headers Jetty copied from a client. The SAP documents behind each rule:
 * the modification handler's table of what SAP's header parameters set ("Profile parameters may not be needed when
 * the implementation is changed", help.sap.com 48/926702aa6b17cee10000000a421937), the header fields of certificate
 * forwarding ("X.509-Based Logon to NetWeaver AS from SAP Web Dispatcher", 76/6d4fa247d0d647b5bd40745400d873 and
 * 48/9ab5d73e6d062be10000000a42189d) and their names ("SSL Parameters for ICM and Web Dispatcher",
 * 48/477e7fe9d771b9e10000000a421937).
 */
class OwnedHeadersTest {
    private static final String PEER = "203.0.113.7";
    private static final String HOST = "portal.example.com";
    private static final String ACCESS_POINTS = "http=8080;https=8443";
    /** Every owned header a client might forge, in the spellings a server may read as the same variable. */
    private static final String[][] FORGED = {
        {"X-Forwarded-For", "6.6.6.6"}, {"x_forwarded_for", "6.6.6.7"}, {"X-Forwarded-Proto", "https"},
        {"X-Forwarded-Host", "evil.example"}, {"X-Forwarded-Port", "443"}, {"X-Forwarded-Server", "evil"},
        {"Forwarded", "for=6.6.6.6"}, {"ClientProtocol", "https"}, {"x-sap-webdisp-ap", "https=1"},
        {"SSL_CLIENT_CERT", "Zm9yZ2Vk"}, {"ssl-client-cert", "Zm9yZ2Vk"}, {"SSL_Client_Cert_Chain_1", "Zm9yZ2Vk"},
        {"SSL_CIPHER_SUITE", "NULL"}, {"SSL-CIPHER-USEKEYSIZE", "4096"}, {"X-Kept", "end to end"},
    };

    /** SAP's defaults but {@code wdisp/add_xforwardedfor_header}; whom to trust is the client's {@code trustedProxy}. */
    private static HeaderForwarding rules(boolean addXForwardedFor) {
        return new HeaderForwarding(true, addXForwardedFor, true, null, true, null, TrustedProxies.NONE);
    }

    private static ClientCertConfig forwarding() {
        return new ClientCertConfig(1, true, CertificateHeaders.SAP, null, null);
    }

    private static ClientCertConfig trustingFront() {
        return new ClientCertConfig(1, true, CertificateHeaders.SAP, new X500Principal("CN=Test Root CA"),
                new X500Principal("CN=front, O=Example"));
    }

    private static OwnedHeaders.Client client(boolean trustedProxy, String scheme, OwnedHeaders.Tls tls) {
        return new OwnedHeaders.Client(PEER, trustedProxy, scheme, HOST, ACCESS_POINTS, tls);
    }

    private static OwnedHeaders.Tls tls(X509Certificate... chain) {
        return new OwnedHeaders.Tls(List.of(chain), "TLS_AES_128_GCM_SHA256", 128);
    }

    /** The headers a server receives, names in lower case. */
    private static Map<String, List<String>> received(String[][] sent, OwnedHeaders.Client client,
                                                      HeaderForwarding rules, ClientCertConfig certs) {
        HttpFields.Mutable headers = HttpFields.build();
        for (String[] h : sent) {
            headers.add(h[0], h[1]);
        }
        OwnedHeaders.rewrite(headers, client, rules, certs);
        Map<String, List<String>> received = new TreeMap<>();
        for (HttpField f : headers) {
            received.computeIfAbsent(f.getName().toLowerCase(Locale.ROOT), k -> new java.util.ArrayList<>())
                    .add(f.getValue());
        }
        return received;
    }

    private static String base64(X509Certificate c) throws Exception {
        return Base64.getEncoder().encodeToString(c.getEncoded());
    }

    @Test
    void withSapsDefaultsAnUntrustedClientsForgedValuesAreAllReplacedOrRemoved() {
        Map<String, List<String>> r = received(FORGED, client(false, "http", null), HeaderForwarding.DEFAULTS,
                ClientCertConfig.DEFAULTS);

        // SAP passes the client's Host; sets clientProtocol from %{SERVER_PROTOCOL} and x-sap-webdisp-ap from
        // %{SERVER_ACCESS_POINTS}; adds no x-forwarded-for unless wdisp/add_xforwardedfor_header is set
        assertThat(r).containsOnly(entry("host", List.of(HOST)), entry("x-forwarded-proto", List.of("http")),
                entry("x-forwarded-host", List.of(HOST)), entry("clientprotocol", List.of("http")),
                entry("x-sap-webdisp-ap", List.of(ACCESS_POINTS)), entry("x-kept", List.of("end to end")));
    }

    @Test
    void addXForwardedForSendsThePeerNeverTheClientsClaim() {
        // SAP: AppendHeader xforwardedfor %{REMOTE_ADDR}; from an untrusted peer there is nothing to append to
        Map<String, List<String>> r = received(FORGED, client(false, "http", null), rules(true),
                ClientCertConfig.DEFAULTS);

        assertThat(r.get("x-forwarded-for")).containsExactly(PEER);
    }

    @Test
    void aTrustedProxysValuesAreKeptAndItsChainAppendedTo() {
        String[][] sent = {{"X-Forwarded-For", "198.51.100.1, 10.1.1.1"}, {"X-Forwarded-For", "10.2.2.2"},
            {"X-Forwarded-Proto", "https"}, {"X-Forwarded-Host", "www.example.com"}, {"X-Forwarded-Port", "443"},
            {"clientprotocol", "https"}, {"x-sap-webdisp-ap", "http=80;https=443"}, {"Forwarded", "for=1.1.1.1"}};

        Map<String, List<String>> r = received(sent, client(true, "http", null), rules(true),
                ClientCertConfig.DEFAULTS);

        assertThat(r).containsOnly(entry("host", List.of(HOST)),
                entry("x-forwarded-for", List.of("198.51.100.1, 10.1.1.1, 10.2.2.2, " + PEER)),
                entry("x-forwarded-proto", List.of("https")), entry("x-forwarded-host", List.of("www.example.com")),
                entry("x-forwarded-port", List.of("443")), entry("clientprotocol", List.of("https")),
                entry("x-sap-webdisp-ap", List.of("http=80;https=443")));
    }

    @Test
    void withoutAddXForwardedForATrustedProxysChainPassesUnchanged() {
        Map<String, List<String>> r = received(new String[][] {{"X-Forwarded-For", "198.51.100.1"}},
                client(true, "http", null), rules(false), ClientCertConfig.DEFAULTS);

        assertThat(r.get("x-forwarded-for")).containsExactly("198.51.100.1");
    }

    @Test
    void theSwitchesTurnHostClientProtocolAndAccessPointsOffOrForceThem() {
        HeaderForwarding off = new HeaderForwarding(false, false, false, null, false, null, TrustedProxies.NONE);
        // SAP: SetHeader clientProtocol https (wdisp/force_client_protocol_header), SetHeader x-sap-webdisp-ap
        // "http=80;https=443" (wdisp/force_webdisp_ap_header)
        HeaderForwarding forced = new HeaderForwarding(true, false, false, "https", false, "http=80;https=443",
                TrustedProxies.NONE);

        Map<String, List<String>> none = received(FORGED, client(false, "http", null), off, ClientCertConfig.DEFAULTS);
        Map<String, List<String>> force = received(FORGED, client(false, "http", null), forced,
                ClientCertConfig.DEFAULTS);

        assertThat(none).doesNotContainKeys("host", "clientprotocol", "x-sap-webdisp-ap");
        assertThat(force.get("clientprotocol")).containsExactly("https");
        assertThat(force.get("x-sap-webdisp-ap")).containsExactly("http=80;https=443");
    }

    @Test
    void theConnectionsCertificateIsForwardedAsSapNamesItTheRootLeftOut() throws Exception {
        // SSL_CLIENT_CERT: "Base64-coded data, one line"; SSL_CLIENT_CERT_CHAIN_1: "First non-root CA certificate";
        // the root "must not be transferred to the server"
        Map<String, List<String>> r = received(FORGED, client(false, "https", tls(TestCertificates.USER,
                TestCertificates.INTERMEDIATE, TestCertificates.ROOT)), HeaderForwarding.DEFAULTS, forwarding());

        assertThat(r.get("ssl_client_cert")).containsExactly(base64(TestCertificates.USER));
        assertThat(r.get("ssl_client_cert_chain_1")).containsExactly(base64(TestCertificates.INTERMEDIATE));
        assertThat(r.get("ssl_cipher_suite")).containsExactly("TLS_AES_128_GCM_SHA256");
        assertThat(r.get("ssl_cipher_usekeysize")).containsExactly("128");
        assertThat(r).doesNotContainKeys("ssl-client-cert", "ssl_client_cert_chain_2", "ssl-cipher-usekeysize");
    }

    @Test
    void withoutForwardingOrWithoutACertificateNoCertificateHeaderReachesTheServer() {
        Map<String, List<String>> off = received(FORGED, client(false, "https", tls(TestCertificates.USER)),
                HeaderForwarding.DEFAULTS, ClientCertConfig.DEFAULTS);
        Map<String, List<String>> none = received(FORGED, client(false, "https", tls()), HeaderForwarding.DEFAULTS,
                forwarding());

        assertThat(off.keySet()).noneMatch(k -> k.startsWith("ssl"));
        assertThat(none.keySet()).filteredOn(k -> k.startsWith("ssl"))
                .containsExactlyInAnyOrder("ssl_cipher_suite", "ssl_cipher_usekeysize");
    }

    @Test
    void aTrustedIntermediarysCertificateHeadersAreKeptAndItsOwnCertificateIsNotTheUsers() throws Exception {
        // icm/HTTPS/trust_client_with_subject and _issuer: "If [subject] and [issuer] of the Web Dispatcher client
        // certificate are the same as these values, the ICM accepts the SSL header fields"
        String[][] sent = {{"SSL_CLIENT_CERT", base64(TestCertificates.USER)},
            {"SSL_CLIENT_CERT_CHAIN_1", base64(TestCertificates.INTERMEDIATE)}, {"SSL_CIPHER_SUITE", "front's"}};

        Map<String, List<String>> r = received(sent, client(false, "https", tls(TestCertificates.FRONT,
                TestCertificates.ROOT)), HeaderForwarding.DEFAULTS, trustingFront());

        assertThat(r.get("ssl_client_cert")).containsExactly(base64(TestCertificates.USER));
        assertThat(r.get("ssl_client_cert_chain_1")).containsExactly(base64(TestCertificates.INTERMEDIATE));
        assertThat(r.get("ssl_cipher_suite")).containsExactly("front's");
        assertThat(r).doesNotContainKey("ssl_cipher_usekeysize");
    }

    @Test
    void aCertificateOfAnotherSubjectOrATrustedProxysAddressIsNoIntermediary() throws Exception {
        String[][] sent = {{"SSL_CLIENT_CERT", "Zm9yZ2Vk"}};

        Map<String, List<String>> user = received(sent, client(false, "https", tls(TestCertificates.USER)),
                HeaderForwarding.DEFAULTS, trustingFront());
        Map<String, List<String>> proxy = received(sent, client(true, "https", tls()),
                rules(false), trustingFront());

        assertThat(user.get("ssl_client_cert")).containsExactly(base64(TestCertificates.USER));
        assertThat(proxy).doesNotContainKey("ssl_client_cert");
    }

    @Test
    void otherHeaderNamesAreOwnedInsteadOfSaps() {
        ClientCertConfig renamed = new ClientCertConfig(1, true, new CertificateHeaders("X-Client-Cert",
                "X-Client-Chain-", "X-Cipher", "X-Key-Size"), null, null);

        Map<String, List<String>> r = received(new String[][] {{"x_client_cert", "forged"},
            {"X-Client-Chain-7", "forged"}}, client(false, "https", tls(TestCertificates.USER)),
                HeaderForwarding.DEFAULTS, renamed);

        assertThat(r.get("x-client-cert")).hasSize(1).doesNotContain("forged");
        assertThat(r).doesNotContainKeys("x_client_cert", "x-client-chain-7");
    }
}
