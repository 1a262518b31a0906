package org.jwd.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretTest {
    @TempDir
    Path dir;

    @Test
    void aPasswordIsItselfOrIsReadFromTheEnvironmentOrAFileWithoutItsLineBreak() throws Exception {
        Files.writeString(dir.resolve("pin"), "from-a-file\n");
        Files.writeString(dir.resolve("pin.crlf"), "from-windows\r\n");
        Map<String, String> environment = Map.of("JWD_PIN", "from-the-environment");

        assertThat(Secret.of("as-written", dir).value()).isEqualTo("as-written");
        assertThat(Secret.of("${env:JWD_PIN}", dir, environment::get).value()).isEqualTo("from-the-environment");
        assertThat(Secret.of("${file:pin}", dir).value()).isEqualTo("from-a-file");
        assertThat(Secret.of("${file:pin.crlf}", dir).value()).isEqualTo("from-windows");
        assertThat(Secret.of("${file:" + dir.resolve("pin") + "}", Path.of("/elsewhere")).value())
                .isEqualTo("from-a-file");
    }

    @Test
    void aMissingVariableOrFileIsNamedAndNoPasswordIsEverShown() {
        assertThatThrownBy(() -> Secret.of("${env:JWD_NOT_SET}", dir, name -> null).value())
                .hasMessage("the environment variable JWD_NOT_SET (${env:JWD_NOT_SET}) is not set: expected it to hold"
                        + " the password");
        assertThatThrownBy(() -> Secret.of("${file:nope}", dir).value()).hasMessage("the password file "
                + dir.resolve("nope") + " (${file:nope}) cannot be read (NoSuchFileException): expected a readable"
                + " file holding the password");
        assertThat(Secret.of("hunter2", dir)).hasToString("(a password)");
        assertThat(Secret.of("${env:JWD_PIN}", dir)).hasToString("${env:JWD_PIN}");
    }

    @Test
    void onlyAFileReferenceHasAFileToWatch() {
        assertThat(Secret.of("${file:pin}", dir).file()).isEqualTo(dir.resolve("pin"));
        assertThat(Secret.of("${env:X}", dir).file()).isNull();
        assertThat(Secret.of("literal", dir).isReference()).isFalse();
    }
}
