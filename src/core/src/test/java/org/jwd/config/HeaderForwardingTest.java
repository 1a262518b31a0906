package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SAP's header parameters and {@code jwd.preserve_host}, as the configuration reads them. */
class HeaderForwardingTest {
    private static final String A = "server.a.url=http://127.0.0.1:8081\nserver.a.type=j2ee\n";

    private static HeaderForwarding read(String properties) throws ConfigException {
        return ConfigReader.parse(A + properties, "t.properties").forwarding().headers();
    }

    @Test
    void withoutTheKeysTheClientsHostGoesOnAndSapsDefaultsHold() throws Exception {
        assertThat(read("")).isEqualTo(HeaderForwarding.DEFAULTS);
        assertThat(HeaderForwarding.DEFAULTS.preserveHost()).isTrue();
        assertThat(HeaderForwarding.DEFAULTS.addXForwardedFor()).isFalse();
        assertThat(HeaderForwarding.DEFAULTS.addClientProtocol()).isTrue();
        assertThat(HeaderForwarding.DEFAULTS.addAccessPoints()).isTrue();
    }

    /** The values of SAP profile lines as SAP writes them (TRUE/FALSE, 1/0) read as they mean. */
    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
        // "What do I have to check when using a Reverse Proxy" (SAP wiki) activates it: TRUE
        "wdisp/add_xforwardedfor_header, TRUE, true",
        // SAP Note 2788140's security baseline value, written as 1 in some profiles
        "wdisp/add_xforwardedfor_header, 1, true",
        "wdisp/add_client_protocol_header, FALSE, false",
        // "Scenario 4: Communication with Protocol Switch Through Reverse Proxy" (help.sap.com): = 1
        "wdisp/add_client_protocol_header, 1, true",
        "wdisp/handle_webdisp_ap_header, 0, false",
        "wdisp/handle_webdisp_ap_header, 2, true",
        "jwd.preserve_host, false, false",
    })
    void sapsProfileValuesReadAsTheyMean(String key, String value, boolean on) throws Exception {
        HeaderForwarding h = read(key + " = " + value + "\n");

        boolean read = switch (key) {
            case "wdisp/add_xforwardedfor_header" -> h.addXForwardedFor();
            case "wdisp/add_client_protocol_header" -> h.addClientProtocol();
            case "wdisp/handle_webdisp_ap_header" -> h.addAccessPoints();
            default -> h.preserveHost();
        };
        assertThat(read).isEqualTo(on);
    }

    @Test
    void theForcedValuesAreSapsForms() throws Exception {
        // SAP's modification handler table: SetHeader clientProtocol https, SetHeader x-sap-webdisp-ap "http=80;https=443"
        HeaderForwarding h = read("wdisp/force_client_protocol_header = HTTPS\n"
                + "wdisp/force_webdisp_ap_header = http=80;https=443\n");

        assertThat(h.forceClientProtocol()).isEqualTo("https");
        assertThat(h.forceAccessPoints()).isEqualTo("http=80;https=443");
    }

    @Test
    void aBadValueIsNamedWithWhatIsExpected() {
        assertThatThrownBy(() -> read("wdisp/force_client_protocol_header = ftp\n"
                + "wdisp/force_webdisp_ap_header = 80,443\n"
                + "wdisp/handle_webdisp_ap_header = 3\n"
                + "jwd.preserve_host = sometimes\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("wdisp/force_client_protocol_header = 'ftp': expected http or https")
                .hasMessageContaining("wdisp/force_webdisp_ap_header = '80,443': expected access points as SAP"
                        + " writes them: http=80;https=443")
                .hasMessageContaining("wdisp/handle_webdisp_ap_header = '3': expected true or false (or SAP's 0,"
                        + " 1, 2: 0 is off)")
                .hasMessageContaining("jwd.preserve_host = 'sometimes': expected true or false");
    }

    @Test
    void theAccessPointsNameTheRequestsOwnPortAndThePublishedOneOfTheOtherProtocol() {
        // SAP's example value of x-sap-webdisp-ap: "http=80;https=443" (modification handler table, help.sap.com)
        assertThat(HeaderForwarding.accessPoints("http", 8081, "http=8080;https=8443"))
                .isEqualTo("http=8081;https=8443");
        assertThat(HeaderForwarding.accessPoints("https", 8443, "http=8080;https=8443"))
                .isEqualTo("http=8080;https=8443");
        assertThat(HeaderForwarding.accessPoints("http", 8080, "http=8080")).isEqualTo("http=8080");
        assertThat(HeaderForwarding.accessPoints("https", 9443, null)).isEqualTo("https=9443");
    }
    @Test
    void theOtherProtocolsAccessPointIsTheOneTheLauncherPublished() {
        String before = System.getProperty(HeaderForwarding.ACCESS_POINTS_PROPERTY);
        try {
            System.setProperty(HeaderForwarding.ACCESS_POINTS_PROPERTY, "http=8080;https=8443");
            assertThat(HeaderForwarding.accessPoints("http", 8081)).isEqualTo("http=8081;https=8443");
            System.clearProperty(HeaderForwarding.ACCESS_POINTS_PROPERTY);
            assertThat(HeaderForwarding.accessPoints("http", 8081)).isEqualTo("http=8081");
        } finally {
            if (before == null) {
                System.clearProperty(HeaderForwarding.ACCESS_POINTS_PROPERTY);
            } else {
                System.setProperty(HeaderForwarding.ACCESS_POINTS_PROPERTY, before);
            }
        }
    }
}
