package org.jwd.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class SapPassportTest {
    /**
     * A version-3 passport as SAP's browser plug-in sends it: component and previous component
     * {@code SAP_E2E_TA_PlugIn}, user {@code SAP_E2E_TA_User}, action {@code SAP_E2E_TA_Request}, transaction id
     * {@code 5E2B0C6A93F14D7C8B11A2D4E6F80123}, root context id {@code 4635000000311EE0A5D24EDBB2E44B68}.
     */
    static final String PASSPORT =
            "2A54482A0300E600005341505F4532455F54415F506C7567496E20202020202020202020202020202000005341505F453245"
            + "5F54415F5573657220202020202020202020202020202020205341505F4532455F54415F5265717565737420202020202020"
            + "20202020202020202020202020202000055341505F4532455F54415F506C7567496E20202020202020202020202020202035"
            + "4532423043364139334631344437433842313141324434453646383031323320202000074635000000311EE0A5D24EDBB2E4"
            + "4B680000000000000000000000000000000000000000000000E22A54482A";

    @Test
    void readsTheTransactionIdOfAPassport() {
        assertThat(PASSPORT).hasSize(460);
        assertThat(SapPassport.transactionId(PASSPORT)).isEqualTo("5E2B0C6A93F14D7C8B11A2D4E6F80123");
        assertThat(SapPassport.transactionId(PASSPORT.toLowerCase(java.util.Locale.ROOT)))
                .isEqualTo("5E2B0C6A93F14D7C8B11A2D4E6F80123");
    }

    /** SAPUI5's longer passports (length 0x0130, variable parts after the fixed ones) keep the same offsets. */
    @Test
    void readsALongerPassportWithVariableParts() {
        String longer = PASSPORT.substring(0, 10) + "0130" + PASSPORT.substring(14, PASSPORT.length() - 8)
                + "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                + "000000000000000000000000000000000000000000000000000000002A54482A";

        assertThat(SapPassport.transactionId(longer)).isEqualTo("5E2B0C6A93F14D7C8B11A2D4E6F80123");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no eye catcher        | 2B54482A | 0
            another version       | 2A54482A02 | 0
            a length too short    | 2A54482A030010 | 0
            a transaction id that is no text | 2A54482A0300E6 | 149
            """)
    void readsNothingFromWhatIsNoPassport(String name, String prefix, int garbleAt) {
        String value = prefix + PASSPORT.substring(prefix.length());
        if (garbleAt > 0) {
            value = value.substring(0, 2 * garbleAt) + "07" + value.substring(2 * garbleAt + 2);
        }

        assertThat(SapPassport.transactionId(value)).isNull();
    }

    @Test
    void readsNothingFromWhatIsNotHexOrTooShort() {
        assertThat(SapPassport.transactionId(null)).isNull();
        assertThat(SapPassport.transactionId("")).isNull();
        assertThat(SapPassport.transactionId(PASSPORT.substring(0, 300))).isNull();
        assertThat(SapPassport.transactionId(PASSPORT.substring(1))).isNull();
        assertThat(SapPassport.transactionId(PASSPORT.replace("354532", "XY4532"))).isNull();
    }
}
