package org.jwd.statefile;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file jwd writes for itself, of a newer format than this jwd reads (a later jwd wrote it): refused, left as it is.
 * The message names the file and both formats.
 */
public final class NewerFormatException extends IOException {
    private final transient Path file;

    NewerFormatException(Path file, StateFormat known, String found) {
        super(file + ": " + known.kind() + " in format " + found + ", written by a later jwd; this jwd reads format "
                + known.latest() + (known.latest() > 1 ? " and older" : "") + ": left as it is, not read");
        this.file = file;
    }

    /** The file refused. */
    public Path file() {
        return file;
    }
}
