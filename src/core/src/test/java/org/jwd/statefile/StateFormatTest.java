package org.jwd.statefile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFormatTest {
    private static final StateFormat TWO = new StateFormat("operator state", 2);
    private static final Path FILE = Path.of("/var/lib/jwd/operator-state.properties");

    @Test
    void theFirstLineNamesJwdTheKindAndTheLatestFormat() {
        assertThat(TWO.line()).isEqualTo("jwd operator state 2");
    }

    @Test
    void readsEveryFormatUpToTheLatestAndTakesAFileWithoutTheLineForFormat1() throws Exception {
        assertThat(TWO.of(FILE, "jwd operator state 1")).isEqualTo(1);
        assertThat(TWO.of(FILE, "jwd operator state 2")).isEqualTo(2);
        assertThat(TWO.of(FILE, "jwd operator state 2 ")).isEqualTo(2);
        assertThat(TWO.of(FILE, "# jwd: what the operator decided of each server")).as("jwd 1.0's file").isEqualTo(1);
        assertThat(TWO.of(FILE, "jwd session table 7")).as("another kind's line: not this kind's format").isEqualTo(1);
        assertThat(TWO.of(FILE, null)).as("an empty file").isEqualTo(1);
    }

    @Test
    void aNewerFormatIsRefusedNamingTheFileAndBothFormats() {
        assertThatThrownBy(() -> TWO.of(FILE, "jwd operator state 3")).isInstanceOf(NewerFormatException.class)
                .hasMessage("/var/lib/jwd/operator-state.properties: operator state in format 3, written by a later"
                        + " jwd; this jwd reads format 2 and older: left as it is, not read")
                .extracting(e -> ((NewerFormatException) e).file()).isEqualTo(FILE);
        assertThatThrownBy(() -> new StateFormat("session table", 1).of(FILE, "jwd session table 2"))
                .hasMessageEndingWith("session table in format 2, written by a later jwd; this jwd reads format 1:"
                        + " left as it is, not read");
    }

    @Test
    void aFormatThatIsNoNumberFromOneUpIsRefusedAsWell() {
        assertThatThrownBy(() -> TWO.of(FILE, "jwd operator state 2b")).isInstanceOf(NewerFormatException.class)
                .hasMessageContaining("in format 2b");
        assertThatThrownBy(() -> TWO.of(FILE, "jwd operator state 0")).isInstanceOf(NewerFormatException.class);
    }

    @Test
    void readsTheFirstLineOfAFileAndSaysZeroForNone(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("state");
        assertThat(TWO.of(file)).isZero();
        Files.writeString(file, "jwd operator state 2\nb=DRAINED|ACTIVE|1|admin\n");
        assertThat(TWO.of(file)).isEqualTo(2);
        Files.writeString(file, "jwd operator state 9\n");
        assertThatThrownBy(() -> TWO.of(file)).isInstanceOf(NewerFormatException.class);
    }

    @Test
    void aKindInWordsAndAFormatFromOneAreRequired() {
        assertThatThrownBy(() -> new StateFormat(" ", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StateFormat("x", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
