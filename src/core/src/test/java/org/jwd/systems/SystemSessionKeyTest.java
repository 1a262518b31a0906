package org.jwd.systems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jwd.systems.Props.systems;

import org.junit.jupiter.api.Test;

class SystemSessionKeyTest {

    @Test
    void theSameSessionIdInTwoSystemsIsTwoKeys() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/", "wdisp/system_1", "SID=PRT, SRCURL=/irj/");

        SystemSessionKey inErp = SystemSessionKey.of(systems.system("ERP"), "ABC123(J2EE)");
        SystemSessionKey inPrt = SystemSessionKey.of(systems.system("PRT"), "ABC123(J2EE)");

        assertThat(inErp).isNotEqualTo(inPrt);
        assertThat(inErp.encoded()).isEqualTo("ERP/ABC123(J2EE)");
        assertThat(inPrt.encoded()).isEqualTo("PRT/ABC123(J2EE)");
        assertThat(inErp).isEqualTo(SystemSessionKey.of(systems.system("ERP"), "ABC123(J2EE)"));
        assertThat(inErp.hashCode()).isEqualTo(SystemSessionKey.of(systems.system("ERP"), "ABC123(J2EE)").hashCode());
    }

    @Test
    void theImplicitSystemsKeyIsTheSessionIdAsTablesStoreItToday() {
        SystemSessionKey key = SystemSessionKey.of(SystemEntry.implicit(), "sap-ext-sid:XYZ");

        assertThat(key.encoded()).isEqualTo("sap-ext-sid:XYZ");
        assertThat(SystemSessionKey.decode("sap-ext-sid:XYZ", Systems.implicit())).isEqualTo(key);
    }

    @Test
    void decodesWhatTheTablesStoreBackIntoSystemAndKey() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/");

        assertThat(SystemSessionKey.decode("ERP/sap-ext-sid:a/b", systems))
                .isEqualTo(new SystemSessionKey("ERP", "sap-ext-sid:a/b"));
        assertThat(SystemSessionKey.decode("QAS/abc", systems)).isNull();
        assertThat(SystemSessionKey.decode("abc", systems)).isNull();
    }

    @Test
    void showsOnlyTheFirstCharactersOfASessionId() {
        assertThat(new SystemSessionKey("ERP", "0123456789abcdef")).hasToString("ERP/012345...");
        assertThat(new SystemSessionKey(null, "abc")).hasToString("abc");
    }

    @Test
    void refusesAnInvalidSid() {
        assertThatThrownBy(() -> new SystemSessionKey("E/P", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SID 'E/P': expected three capital letters or digits starting with a letter (ERP, PR1)");
    }
    @Test
    void showsASessionIdOfSixCharactersWhole() {
        assertThat(new SystemSessionKey("ERP", "012345")).hasToString("ERP/012345");
        assertThat(new SystemSessionKey("ERP", "0123456")).hasToString("ERP/012345...");
    }

    @Test
    void decodingGivesBackTheKeyThatWasEncodedEvenAnEmptyOne() throws Exception {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/");
        SystemSessionKey empty = SystemSessionKey.of(systems.system("ERP"), "");

        assertThat(SystemSessionKey.decode(empty.encoded(), systems)).isEqualTo(empty);
        assertThat(SystemSessionKey.decode("ERP", systems)).isNull();
    }
}
