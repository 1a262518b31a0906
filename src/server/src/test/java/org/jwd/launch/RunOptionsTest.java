package org.jwd.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class RunOptionsTest {
    @Test
    void readsRunsOptionsWithItsDefaults() {
        assertThat(RunOptions.parse("jwd.properties"))
                .isEqualTo(new RunOptions(Path.of("jwd.properties"), null, null, null));
        assertThat(RunOptions.parse("jwd.properties", "--https-port", "9443", "--host", "0.0.0.0", "--port", "0"))
                .isEqualTo(new RunOptions(Path.of("jwd.properties"), "0.0.0.0", 0, 9443));
        assertThat(RunOptions.parse("jwd.properties").hostOrDefault()).isEqualTo("127.0.0.1");
    }

    @Test
    void namesTheOptionThatIsWrong() {
        assertThatThrownBy(() -> RunOptions.parse("f", "--port", "80x")).hasMessage(
                "--port '80x': expected a port number 0 to 65535");
        assertThatThrownBy(() -> RunOptions.parse("f", "--https-port")).hasMessage("--https-port needs a value");
        assertThatThrownBy(() -> RunOptions.parse("f", "--colour", "red")).hasMessageContaining("'--colour'");
    }
}
