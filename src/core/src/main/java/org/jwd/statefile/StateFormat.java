package org.jwd.statefile;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The format of a file jwd writes for itself, named on its first line: {@code jwd <kind> <format>}
 * ({@code jwd operator state 1}, {@code jwd session table 1}, {@code jwd discovery view 1}). The rule every such file
 * follows:
 * <ul>
 *   <li>jwd writes the latest format it knows and reads every older one; a file this version writes is kept as a
 *       test fixture that every later version's tests read;</li>
 *   <li>a file of a newer format than this jwd knows is refused ({@link NewerFormatException}, naming the file and
 *       both formats) and left as it is: never misread, never deleted, never written over. Whether the start then
 *       goes on without that state, or stops, its owner decides (the README's "Upgrading" says which);</li>
 *   <li>a file without the line was written before formats were named: format 1.</li>
 * </ul>
 *
 * @param kind   what the file holds, in words: {@code operator state}
 * @param latest the format this jwd writes, and the newest it reads
 */
public record StateFormat(String kind, int latest) {
    private static final String JWD = "jwd ";

    public StateFormat {
        Objects.requireNonNull(kind, "kind");
        if (kind.isBlank() || latest < 1) {
            throw new IllegalArgumentException("a state file's kind in words and a format from 1: '" + kind + "' "
                    + latest);
        }
    }

    /** The first line of a file this jwd writes. */
    public String line() {
        return JWD + kind + " " + latest;
    }

    /**
     * The format of {@code file} by its first line: 1 when the line does not name this kind (a file from before
     * formats were named).
     *
     * @throws NewerFormatException when it names a format newer than {@link #latest}, or one that is no number
     */
    public int of(Path file, String firstLine) throws NewerFormatException {
        String head = JWD + kind + " ";
        if (firstLine == null || !firstLine.startsWith(head)) {
            return 1;
        }
        String named = firstLine.substring(head.length()).strip();
        int format;
        try {
            format = Integer.parseInt(named);
        } catch (NumberFormatException e) {
            throw new NewerFormatException(file, this, named);
        }
        if (format > latest || format < 1) {
            throw new NewerFormatException(file, this, named);
        }
        return format;
    }

    /**
     * The format of {@code file} by its first line, read; {@code 0} when there is no such file.
     *
     * @throws NewerFormatException when it is newer than this jwd knows
     * @throws IOException          when it cannot be read
     */
    public int of(Path file) throws IOException {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return of(file, reader.readLine());
        } catch (NoSuchFileException e) {
            return 0;
        }
    }

    @Override
    public String toString() {
        return "format " + latest + " of jwd's " + kind;
    }
}
