package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The file is named by the system property jwd.config, else the environment variable JWD_CONFIG. */
class ConfigLoaderTest {
    private String before;

    @BeforeEach
    void keepTheProperty() {
        before = System.getProperty(ConfigLoader.SYSTEM_PROPERTY);
    }

    @AfterEach
    void restoreTheProperty() {
        if (before == null) {
            System.clearProperty(ConfigLoader.SYSTEM_PROPERTY);
        } else {
            System.setProperty(ConfigLoader.SYSTEM_PROPERTY, before);
        }
    }

    @Test
    void theSystemPropertyNamesTheFile() throws Exception {
        System.setProperty(ConfigLoader.SYSTEM_PROPERTY, "/etc/jwd/jwd.properties");

        assertThat(ConfigLoader.locate()).isEqualTo(Path.of("/etc/jwd/jwd.properties"));
    }

    @Test
    void withoutThePropertyOrTheVariableTheMessageSaysWhatToSet() {
        assumeTrue(System.getenv(ConfigLoader.ENVIRONMENT_VARIABLE) == null, "JWD_CONFIG is set here");
        System.setProperty(ConfigLoader.SYSTEM_PROPERTY, " ");

        assertThatThrownBy(ConfigLoader::locate).isInstanceOf(ConfigException.class).hasMessage("no configuration"
                + " file: set the system property jwd.config or the environment variable JWD_CONFIG to the path of a"
                + " properties file");
        System.clearProperty(ConfigLoader.SYSTEM_PROPERTY);
        assertThatThrownBy(ConfigLoader::locate).isInstanceOf(ConfigException.class);
    }
}
