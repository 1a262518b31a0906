package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The persistent table's directory: its format file, and the room a next generation needs. */
class DiskGenerationsTest {
    private static final Pattern FIGURES = Pattern.compile(": (\\d+) KB needed for the next generation, (\\d+) KB free$");

    @TempDir
    Path dir;

    @Test
    void aDirectoryWithoutFormatFileIsMarkedWithThisJwdsFormat() throws IOException {
        DiskGenerations generations = new DiskGenerations(dir, () -> 0L);

        generations.markFormat();

        assertThat(Files.readString(dir.resolve(DiskGenerations.FORMAT_FILE))).isEqualTo("jwd session table 1\n");
    }

    @Test
    void anEmptyFormatFileIsWrittenAgain() throws IOException {
        Files.createFile(dir.resolve(DiskGenerations.FORMAT_FILE));

        new DiskGenerations(dir, () -> 0L).markFormat();

        assertThat(Files.readString(dir.resolve(DiskGenerations.FORMAT_FILE))).isEqualTo("jwd session table 1\n");
    }

    @Test
    void aFormatFileThatCannotBeReadRefusesTheDirectoryNamingTheFile() throws IOException {
        Path format = Files.createDirectory(dir.resolve(DiskGenerations.FORMAT_FILE));

        String refusal = new DiskGenerations(dir, () -> 0L).formatRefusal();

        assertThat(refusal).startsWith(format + " cannot be read (").endsWith("): left as it is, not read");
    }

    @Test
    void aCopyCutShortLeavesNoPartOfTheNextGeneration() throws IOException {
        Path from = Files.createDirectories(dir.resolve("gen-1"));
        Files.write(from.resolve("data"), new byte[100]); // and no clean mark: the copy fails at its end
        DiskGenerations generations = new DiskGenerations(dir, () -> 0L);

        assertThatThrownBy(() -> generations.next(from)).isInstanceOf(NoSuchFileException.class);

        assertThat(dir.resolve("gen-2")).doesNotExist();
    }

    @Test
    void theRoomNeededCountsTheFilesOfTheGenerationCopiedTheNewEntriesAndAMargin() throws IOException {
        Path from = Files.createDirectories(dir.resolve("gen-1/sub"));
        Files.write(dir.resolve("gen-1/a"), new byte[3000]);
        Files.write(from.resolve("b"), new byte[5000]);
        long entries = 1L << 40; // half a petabyte: more than any test machine's disk
        long freeBefore = Files.getFileStore(dir).getUsableSpace() >> 10;

        assertThatThrownBy(() -> new DiskGenerations(dir, () -> 0L).ensureRoom(dir.resolve("gen-1"), entries))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("not enough free space on the disk of " + dir + ": ")
                .satisfies(e -> {
                    Matcher figures = FIGURES.matcher(e.getMessage());
                    assertThat(figures.find()).as(e.getMessage()).isTrue();
                    assertThat(Long.parseLong(figures.group(1)))
                            .isEqualTo((3000 + 5000 + entries * 512 + (1 << 20)) >> 10);
                    assertThat(Long.parseLong(figures.group(2))).isBetween(freeBefore - (64 << 10),
                            freeBefore + (64 << 10));
                });
    }
}
