package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ExpectedStatusTest {
    @Test
    void byDefaultTwoHundredsAndThreeHundredsAreGoodAndA404IsNot() {
        assertThat(ExpectedStatus.DEFAULT.matches(200)).isTrue();
        assertThat(ExpectedStatus.DEFAULT.matches(302)).isTrue();
        assertThat(ExpectedStatus.DEFAULT.matches(399)).isTrue();
        assertThat(ExpectedStatus.DEFAULT.matches(404)).isFalse();
        assertThat(ExpectedStatus.DEFAULT.matches(503)).isFalse();
    }

    @Test
    void readsCodesRangesAndClasses() {
        ExpectedStatus s = ExpectedStatus.parse("2xx, 401, 418-420");

        assertThat(s.matches(204)).isTrue();
        assertThat(s.matches(401)).isTrue();
        assertThat(s.matches(419)).isTrue();
        assertThat(s.matches(302)).isFalse();
        assertThat(s.matches(404)).isFalse();
        assertThat(s).hasToString("2xx, 401, 418-420");
    }

    @Test
    void refusesWhatIsNoStatusNamingIt() {
        assertThatThrownBy(() -> ExpectedStatus.parse("200-99")).hasMessage("'99' is no status code (100 to 599)");
        assertThatThrownBy(() -> ExpectedStatus.parse("300-200")).hasMessage("'300-200' ends before it begins");
        assertThatThrownBy(() -> ExpectedStatus.parse("ok")).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void theClassesAreOneToFiveAndTheCodesFrom100To599() {
        ExpectedStatus s = ExpectedStatus.parse("1xx, 5xx");

        assertThat(s.matches(100)).isTrue();
        assertThat(s.matches(199)).isTrue();
        assertThat(s.matches(500)).isTrue();
        assertThat(s.matches(599)).isTrue();
        assertThat(s.matches(200)).isFalse();
        assertThat(ExpectedStatus.parse("100").matches(100)).isTrue();
        assertThat(ExpectedStatus.parse("599").matches(599)).isTrue();
        assertThat(ExpectedStatus.parse("100-599").matches(404)).isTrue();
        assertThatThrownBy(() -> ExpectedStatus.parse("99")).hasMessage("'99' is no status code (100 to 599)");
        assertThatThrownBy(() -> ExpectedStatus.parse("600")).hasMessage("'600' is no status code (100 to 599)");
        assertThatThrownBy(() -> ExpectedStatus.parse("0xx")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ExpectedStatus.parse("6xx")).isInstanceOf(IllegalArgumentException.class);
    }

    /** A reloaded configuration whose health settings read alike changes nothing (HealthChecker.reconfigure). */
    @Test
    void aStatusWrittenAlikeIsTheSameSettingAndAnotherIsNot() {
        java.time.Duration second = java.time.Duration.ofSeconds(1);
        HealthConfig twoXx = new HealthConfig(second, second, 2, 3, ExpectedStatus.parse("2xx"));

        assertThat(new HealthConfig(second, second, 2, 3, ExpectedStatus.parse("2xx"))).isEqualTo(twoXx);
        assertThat(new HealthConfig(second, second, 2, 3, ExpectedStatus.parse("3xx"))).isNotEqualTo(twoXx);
        assertThat(ExpectedStatus.parse("2xx")).isNotEqualTo("2xx");
    }

    @Test
    void aServersOwnSettingsOverrideTheDefaultsOneByOne() throws Exception {
        DispatcherConfig c = org.jwd.runtime.ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                server.a.health_status=200
                server.a.health_fall=1
                health.interval=2s
                health.status=2xx
                """, "t.properties");

        HealthConfig a = c.servers().get(0).healthCheck().resolve(c.health());

        assertThat(a.status()).hasToString("200");
        assertThat(a.fall()).isEqualTo(1);
        assertThat(a.rise()).isEqualTo(2);
        assertThat(a.interval()).isEqualTo(java.time.Duration.ofSeconds(2));
        assertThat(c.health().status()).hasToString("2xx");
    }

    @Test
    void aBadServerSettingIsNamed() {
        assertThatThrownBy(() -> org.jwd.runtime.ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                server.a.health_status=fine
                server.a.health_rise=0
                server.a.state=paused
                """, "t.properties")).hasMessageContaining("server.a.health_status = 'fine': expected status codes,"
                + " ranges or classes, comma-separated (200-399, 2xx, 200,204)")
                .hasMessageContaining("server.a.health_rise = '0': expected a positive integer")
                .hasMessageContaining("server.a.state = 'paused': expected active, drained or disabled");
    }
}
