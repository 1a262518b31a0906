package org.jwd.sessiontable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jwd.statefile.NewerFormatException;
import org.jwd.statefile.StateFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The persistent tier's directory ({@code SessionTable.disk_path}): generations {@code gen-1}, {@code gen-2}, ...,
 * each an Ehcache disk store. Ehcache keeps a store only when it was closed cleanly (its {@code .clean} mark); a
 * store open at a crash is wiped at its next opening. So a generation is never written in place: a flush copies the
 * latest clean one to the next number, writes the copy, and retires the old one once the copy is closed. A crash
 * while writing leaves the copy unclean and the old generation whole, which the next start reads.
 *
 * <p>The directory's format ({@link #FORMAT}) is named in its file {@code format}, beside the generations: jwd's
 * values ({@link ClusterBinding}) in Ehcache's disk store, as this jwd's Ehcache writes it. A directory of a newer
 * format is not read nor written ({@link #formatRefusal}); one without the file is of format 1.
 */
final class DiskGenerations {
    private static final Logger LOG = LoggerFactory.getLogger(PersistentSessionTable.class);
    private static final Pattern GENERATION = Pattern.compile("gen-([0-9]{1,18})");
    /** Ehcache's mark of a store closed cleanly. */
    static final String CLEAN_MARK = ".clean";
    /** Ehcache's lock of an open store: not copied. */
    private static final String LOCK = ".lock";
    /** Room kept beside a new generation's estimate: Ehcache's index and its files' pages. */
    private static final long MARGIN_BYTES = 1 << 20;
    /** Disk bytes a new entry takes at most: about 250 with 40-character ids, twice that for longer ones. */
    private static final long ROOM_PER_ENTRY = 512;

    /** What the directory holds, as the file {@value #FORMAT_FILE} names it. */
    static final StateFormat FORMAT = new StateFormat("session table", 1);
    static final String FORMAT_FILE = "format";

    private final Path root;
    private final LongSupplier clock;

    DiskGenerations(Path root, LongSupplier clock) {
        this.root = root;
        this.clock = clock;
    }

    Path root() {
        return root;
    }

    /**
     * Why the directory cannot be read nor written (a later jwd's format, or its {@value #FORMAT_FILE} unreadable),
     * or {@code null} when it can.
     */
    String formatRefusal() {
        if (!Files.isDirectory(root)) {
            return null; // nothing yet, or not a directory: set aside when read (latestClean)
        }
        try {
            FORMAT.of(root.resolve(FORMAT_FILE));
            return null;
        } catch (NewerFormatException e) {
            return e.getMessage();
        } catch (IOException e) {
            return root.resolve(FORMAT_FILE) + " cannot be read (" + e + "): left as it is, not read";
        }
    }

    /** Names this jwd's format in the directory, which holds it from now on (what cannot be written is said). */
    void markFormat() {
        Path file = root.resolve(FORMAT_FILE);
        try {
            if (FORMAT.of(file) != FORMAT.latest() || Files.size(file) == 0) {
                Files.writeString(file, FORMAT.line() + "\n", StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            LOG.warn("Session table on disk: {} cannot be written ({}); the directory is read as format 1", file,
                    e.toString());
        }
    }

    /**
     * The latest clean generation, or {@code null}; unclean ones (a crash while writing) are deleted, and so are
     * older clean ones (a crash after a write, before the old generation was retired). A {@code disk_path} that
     * is not a directory is set aside.
     */
    Path latestClean() throws IOException {
        if (Files.exists(root) && !Files.isDirectory(root)) {
            setAside(root, "it is not a directory");
        }
        Files.createDirectories(root);
        Path latest = null;
        for (Path gen : generations()) {
            if (Files.exists(gen.resolve(CLEAN_MARK))) {
                retire(latest);
                latest = gen;
            } else {
                LOG.warn("Session table on disk: {} was not closed cleanly (a crash while writing it); the "
                        + "generation before it is read", gen);
                delete(gen);
            }
        }
        return latest;
    }

    /**
     * A copy of {@code from} (or an empty directory when {@code null}) as the next generation. Its clean mark is
     * copied last, so that a copy cut short by a crash is not taken for a whole one; Ehcache removes the mark when
     * it opens the copy and writes it again when it closes it.
     */
    Path next(Path from) throws IOException {
        List<Path> all = generations();
        long number = all.isEmpty() ? 1 : number(all.get(all.size() - 1)) + 1;
        Path to = root.resolve("gen-" + number);
        delete(to);
        Files.createDirectories(to);
        try {
            if (from != null) {
                copy(from, to);
                Files.copy(from.resolve(CLEAN_MARK), to.resolve(CLEAN_MARK), StandardCopyOption.COPY_ATTRIBUTES);
            }
            return to;
        } catch (IOException | RuntimeException e) {
            // a copy cut short by a full disk would hold the space the next try needs
            try {
                delete(to);
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Fails, naming the figures, unless the disk has room for a copy of {@code from} with {@code newEntries} more
     * entries: Ehcache writes through memory-mapped files, and a disk that fills under them fails the write with a
     * failed memory access, or loses entries in silence (see {@link DiskFlush}).
     */
    void ensureRoom(Path from, long newEntries) throws IOException {
        long needed = size(from) + newEntries * ROOM_PER_ENTRY + MARGIN_BYTES;
        long free = Files.getFileStore(root).getUsableSpace();
        if (free < needed) {
            throw new IOException("not enough free space on the disk of " + root + ": " + (needed >> 10) + " KB"
                    + " needed for the next generation, " + (free >> 10) + " KB free");
        }
    }

    /** The bytes of a generation's files; 0 for none. */
    private static long size(Path gen) throws IOException {
        if (gen == null) {
            return 0;
        }
        try (Stream<Path> tree = Files.walk(gen)) {
            long bytes = 0;
            for (Path p : (Iterable<Path>) tree::iterator) {
                bytes += Files.isRegularFile(p) ? Files.size(p) : 0;
            }
            return bytes;
        }
    }

    /** Deletes a generation that a newer clean one replaces. */
    void retire(Path gen) throws IOException {
        if (gen != null) {
            delete(gen);
        }
    }

    /** Moves what cannot be read out of the way, keeping it for a look: a start never fails on it. */
    void setAside(Path damaged, String why) throws IOException {
        Path aside = damaged.resolveSibling(damaged.getFileName() + ".set-aside-" + clock.getAsLong());
        Files.move(damaged, aside, StandardCopyOption.ATOMIC_MOVE);
        LOG.warn("Session table on disk: {} cannot be read ({}); moved to {}, the table starts empty", damaged, why,
                aside);
    }

    /** The generations, oldest first. */
    private List<Path> generations() throws IOException {
        try (Stream<Path> children = Files.list(root)) {
            return children.filter(p -> GENERATION.matcher(p.getFileName().toString()).matches())
                    .filter(Files::isDirectory)
                    .sorted(Comparator.comparingLong(DiskGenerations::number))
                    .toList();
        }
    }

    private static long number(Path gen) {
        Matcher m = GENERATION.matcher(gen.getFileName().toString());
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> tree = Files.walk(from)) {
            for (Path source : (Iterable<Path>) tree::iterator) {
                String name = source.getFileName().toString();
                if (name.equals(LOCK) || name.equals(CLEAN_MARK)) {
                    continue;
                }
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    // Ehcache compares the index's time with the data file's: an index that looks older is rebuilt
                    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static void delete(Path tree) throws IOException {
        if (!Files.exists(tree)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(tree)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
