package org.jwd.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.jwd.tls.TlsSuites.Side;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * SAP's cipher suite strings, as SAP documents them: the values of SAP Note 510007, section 7 (135 and 150, and 918
 * for Solution Manager's client), the security baseline's 545 (SAP Note 3198351), SAP's default without flags
 * ({@code HIGH:MEDIUM:+e3DES:!aNULL}, "ssl/ciphersuites", help.sap.com), and what each maps to in Java's names.
 */
class CipherSuiteStringTest {
    @ParameterizedTest(name = "{0} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # value                                     | side    | protocols          | source
            135:PFS:HIGH::EC_P256:EC_HIGH                | CLIENTS | TLSv1.3 TLSv1.2    | SAP Note 510007: ssl/ciphersuites
            150:PFS:HIGH::EC_P256:EC_HIGH                | SERVERS | TLSv1.3 TLSv1.2    | SAP Note 510007: ssl/client_ciphersuites
            918:PFS:HIGH::EC_P256:EC_HIGH                | SERVERS | TLSv1.3 TLSv1.2    | SAP Note 510007: Solution Manager's client
            545:PFS:HIGH::EC_X25519:EC_P256:EC_HIGH      | CLIENTS | TLSv1.2            | SAP Note 3198351: S/4HANA's baseline
            1568:PFS:HIGH::EC_X25519:EC_P256:EC_HIGH     | CLIENTS | TLSv1.3 TLSv1.2    | TLS 1.2 (512) and 1.3 (1024)
            PFS:HIGH                                     | CLIENTS | TLSv1.3 TLSv1.2    | no flags: jwd's versions
            """)
    void mapsSapsRecommendedValuesToProtocolVersions(String value, Side side, String protocols, String source) {
        assertThat(CipherSuiteString.parse(value, side).protocols()).as(source)
                .containsExactly(protocols.split(" "));
    }

    @Test
    void towardsClientsPfsHighIsTheForwardSecretAeadSuitesTls13First() {
        List<String> suites = CipherSuiteString.parse("135:PFS:HIGH::EC_P256:EC_HIGH", Side.CLIENTS).cipherSuites();

        assertThat(suites).startsWith("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256")
                .contains("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384")
                .noneMatch(s -> s.contains("_CBC_") || s.startsWith("TLS_RSA_"));
    }

    @Test
    void towardsServersPfsComesFirstThenTheOtherStrongSuitesJavaEnables() {
        List<String> suites = CipherSuiteString.parse("150:PFS:HIGH::EC_P256:EC_HIGH", Side.SERVERS).cipherSuites();

        int lastForwardSecret = suites.lastIndexOf("TLS_DHE_DSS_WITH_AES_128_CBC_SHA");
        assertThat(suites).contains("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256");
        assertThat(suites.indexOf("TLS_RSA_WITH_AES_128_GCM_SHA256")).isGreaterThan(lastForwardSecret);
    }

    @Test
    void removalsAndMovesFollowOpensslsSyntax() {
        List<String> suites = CipherSuiteString.parse("512:PFS:!DHE:+TLS_AES_256_GCM_SHA384", Side.CLIENTS)
                .cipherSuites();

        assertThat(suites).noneMatch(s -> s.startsWith("TLS_DHE_"))
                .endsWith("TLS_AES_256_GCM_SHA384", "TLS_EMPTY_RENEGOTIATION_INFO_SCSV");
        assertThat(CipherSuiteString.parse("PFS:-ECDHE:ECDHE", Side.CLIENTS).cipherSuites().get(3))
                .startsWith("TLS_DHE_");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # value                          | side    | the refusal says
            HIGH:MEDIUM:+e3DES:!aNULL         | CLIENTS | MEDIUM adds no cipher suite jwd offers to clients
            HIGH:MEDIUM:+e3DES:!aNULL         | SERVERS | MEDIUM adds no cipher suite jwd offers (Java disables 3DES
            64:HIGH                           | CLIENTS | the flags 64 select SSLv3, which jwd never speaks
            384:HIGH                          | CLIENTS | the flags 384 select TLSv1, TLSv1.1, which jwd never speaks
            4096:HIGH                         | CLIENTS | the flags 4096 hold 4096, which is no flag jwd knows
            135:RSA                           | CLIENTS | 'RSA' is no cipher suite class jwd maps
            135:PFS:!PFS                      | CLIENTS | it selects no cipher suite jwd offers to clients
            135:PFS:HIGH::EC_BRAINPOOL        | CLIENTS | the curve EC_BRAINPOOL after '::' is none jwd knows
            TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256:PFS | CLIENTS | TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256 adds no cipher suite jwd offers to clients
            """)
    void aValueThatCannotBeMappedIsRefusedWithWhatToWrite(String value, Side side, String says) {
        assertThatThrownBy(() -> CipherSuiteString.parse(value, side)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(says).hasMessageContaining("135:PFS:HIGH::EC_P256:EC_HIGH");
    }
}
