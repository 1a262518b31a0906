package org.jwd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class HashPasswordTest {
    @Test
    void readsThePasswordFromTheFirstLineOfInput() throws Exception {
        assertThat(HashPassword.firstLine(in("secret\nignored"))).containsExactly("secret".toCharArray());
        assertThat(HashPassword.firstLine(in("crlf\r\n"))).containsExactly("crlf".toCharArray());
        assertThat(HashPassword.firstLine(in("no newline"))).containsExactly("no newline".toCharArray());
        assertThat(HashPassword.firstLine(in(""))).isNull();
    }

    private static ByteArrayInputStream in(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
