package org.jwd.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class VersionTest {

    @Test
    void binJwdVersionPrintsTheVersionAndTheRevision() {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            Version.main(new String[0]);
        } finally {
            System.setOut(out);
        }

        assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo("jwd " + Version.CURRENT.version() + " ("
                + Version.CURRENT.revision() + ")" + System.lineSeparator());
        assertThat(new Version("1.2.3", "abc1234")).hasToString("jwd 1.2.3 (abc1234)");
    }
}
