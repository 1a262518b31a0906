package org.jwd.systems;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class VirtualHostTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            erp.example.com        | erp.example.com
            ERP.Example.com.:8090  | erp.example.com:8090
            erp:09                 | erp:9
            erp:1                  | erp:1
            erp:65535              | erp:65535
            10.0.0.1:80            | 10.0.0.1:80
            [::1]                  | [0:0:0:0:0:0:0:1]
            [::1]:8443             | [0:0:0:0:0:0:0:1]:8443
            """)
    void readsANameOrAddressWithAnOptionalPortIntoTheFormItIsWrittenIn(String text, String read) {
        assertThat(VirtualHost.parse(text)).hasToString(read);
    }

    @ParameterizedTest
    @ValueSource(strings = {"erp:0", "erp:65536", "erp:123456", "erp:", "erp:8a", "erp:-1", ":8080", "bad_host",
            "[::1", "[::1]8443", "[::1]:", "[::1]:0", "[erp]:80", "[1:2:3]:80"})
    void refusesWhatIsNotANameOrAddressWithAPortFrom1To65535(String text) {
        assertThat(VirtualHost.parse(text)).isNull();
    }

    @Test
    void aHostHeaderWithoutAPortMeansTheSchemesPortAndOneWithAPortKeepsIt() {
        assertThat(VirtualHost.parse("erp.example.com", 443)).isEqualTo(new VirtualHost("erp.example.com", 443));
        assertThat(VirtualHost.parse("[::1]", 80)).isEqualTo(new VirtualHost("0:0:0:0:0:0:0:1", 80));
        assertThat(VirtualHost.parse("erp.example.com:8443", 443))
                .isEqualTo(new VirtualHost("erp.example.com", 8443));
    }

    @Test
    void withoutAPortItMatchesTheNameOnEveryPortAndWithOneOnlyThatPort() {
        VirtualHost any = VirtualHost.parse("erp");
        VirtualHost tls = VirtualHost.parse("erp:443");

        assertThat(any.matches(VirtualHost.parse("ERP", 80))).isTrue();
        assertThat(tls.matches(VirtualHost.parse("erp", 443))).isTrue();
        assertThat(tls.matches(VirtualHost.parse("erp", 80))).isFalse();
        assertThat(any.matches(VirtualHost.parse("crm", 80))).isFalse();
    }

    @Test
    void twoItemsOverlapWhereOneHostHeaderMeetsBothAndTheNarrowerIsTheOneWithAPort() {
        VirtualHost any = VirtualHost.parse("erp");
        VirtualHost tls = VirtualHost.parse("erp:443");
        VirtualHost web = VirtualHost.parse("erp:80");

        assertThat(any.overlaps(tls)).isTrue();
        assertThat(tls.overlaps(any)).isTrue();
        assertThat(tls.overlaps(VirtualHost.parse("erp:443"))).isTrue();
        assertThat(tls.overlaps(web)).isFalse();
        assertThat(any.overlaps(VirtualHost.parse("crm"))).isFalse();
        assertThat(any.narrower(tls)).isSameAs(tls);
        assertThat(tls.narrower(any)).isSameAs(tls);
    }
}
