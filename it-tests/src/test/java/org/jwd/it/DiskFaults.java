package org.jwd.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Assumptions;

/**
 * Faults of the local disk under a dispatcher: a directory made read-only, a file system that fills up. Both need
 * root (the tests run as root here); where they cannot be made the test is aborted, naming why.
 *
 * <p><b>Read-only</b> is the immutable attribute ({@code chattr +i}) on a directory and the files in it. Root
 * ignores permissions, so {@code chmod 555} changes nothing for it; and a read-only bind mount or remount is
 * refused while a file under it is open for writing (the access log's always is) and would not reach a file
 * opened before. The immutable attribute holds for root and fails even writes to a file that is open already
 * ({@code Operation not permitted}), as a file system that the kernel turned read-only after an error fails them
 * ({@code Read-only file system}). It needs a file system that has it (ext4, xfs, btrfs: not tmpfs).
 *
 * <p><b>A full disk</b> is a tmpfs of a few megabytes mounted on a directory, filled with a file until the next
 * write fails ({@code No space left on device}); deleting that file makes room again.
 */
final class DiskFaults {
    private DiskFaults() {
    }

    /** Makes {@code dir} and every file in it immutable: nothing in it can be created, written or removed. */
    static void readOnly(Path dir) {
        Assumptions.assumeTrue(run("chattr", "-R", "+i", dir.toString()) == 0, "chattr +i is refused for " + dir
                + " (not root, a file system without the attribute, or no CAP_LINUX_IMMUTABLE): no way to make"
                + " it read-only for a root process here");
    }

    /** Undoes {@link #readOnly}. */
    static void writable(Path dir) {
        if (run("chattr", "-R", "-i", dir.toString()) != 0) {
            throw new IllegalStateException("chattr -R -i " + dir + " failed: it stays immutable");
        }
    }

    /** A tmpfs of {@code size} ({@code 2m}) mounted on {@code dir}, which must exist and be empty. */
    static SmallDisk smallDisk(Path dir, String size) {
        Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString()) == 0,
                "mount -t tmpfs is refused here (not root, or no CAP_SYS_ADMIN): no size-limited file system");
        return new SmallDisk(dir);
    }

    /** A size-limited file system, unmounted at {@link #close()} (once the processes writing to it are stopped). */
    static final class SmallDisk implements AutoCloseable {
        private final Path dir;
        private final Path filler;

        private SmallDisk(Path dir) {
            this.dir = dir;
            this.filler = dir.resolve("filler");
        }

        Path dir() {
            return dir;
        }

        /** Fills what is left with a file, until a write fails for want of room; returns the bytes it took. */
        long fill() {
            ByteBuffer block = ByteBuffer.wrap("x".repeat(4096).getBytes(StandardCharsets.US_ASCII));
            long written = 0;
            try (FileChannel out = FileChannel.open(filler, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND)) {
                while (true) {
                    block.rewind();
                    written += out.write(block);
                }
            } catch (IOException full) {
                if (!String.valueOf(full.getMessage()).contains("No space left on device")) {
                    throw new UncheckedIOException(full);
                }
                return written;
            }
        }

        /** Deletes the file {@link #fill()} wrote. */
        void makeRoom() {
            try {
                Files.deleteIfExists(filler);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Unmounts; lazily when something still holds a file (the test failed before stopping a process). */
        @Override
        public void close() {
            if (run("umount", dir.toString()) != 0 && run("umount", "-l", dir.toString()) != 0) {
                throw new IllegalStateException("cannot unmount the tmpfs on " + dir);
            }
        }
    }

    private static int run(String... command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
