package org.jwd.operator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.jwd.statefile.NewerFormatException;
import org.jwd.statefile.StateFormat;

/**
 * The operator's decisions in a file of one line per server ({@link Decision#encode}) after its format's line
 * ({@link #FORMAT}), written whole beside its final name and moved over it, so that a crash leaves the old file or
 * the new one, never half of one. A file of a later jwd's format is not read: {@link OperatorStates#open} stops the
 * start, since servers an operator took out would otherwise take requests again.
 */
final class StateFile implements StateStore {
    static final StateFormat FORMAT = new StateFormat("operator state", 1);

    private final Path file;

    StateFile(Path file) {
        this.file = file;
    }

    @Override
    public synchronized Map<String, Decision> load() {
        try {
            return Decision.decode(Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return new LinkedHashMap<>();
        } catch (IOException e) {
            throw new StoreException("cannot read " + file + ": " + e, e);
        }
    }

    @Override
    public synchronized Map<String, Decision> update(UnaryOperator<Map<String, Decision>> change) {
        Map<String, Decision> next = change.apply(load());
        Path temporary = file.resolveSibling(file.getFileName() + ".new");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(temporary, FORMAT.line() + "\n# what the operator decided of each server (bin/jwd "
                    + "drain|enable|disable); <id>=<state>|<server.<id>.state then>|<epoch ms>|<who>\n"
                    + Decision.encode(next), StandardCharsets.UTF_8);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new StoreException("cannot write " + file + ": " + e, e);
        }
        return next;
    }

    /** @throws NewerFormatException when a later jwd wrote the file */
    void checkFormat() throws IOException {
        FORMAT.of(file);
    }

    @Override
    public boolean shared() {
        return false;
    }

    @Override
    public void close() {
        // nothing held open
    }

    @Override
    public String toString() {
        return "file " + file;
    }
}
