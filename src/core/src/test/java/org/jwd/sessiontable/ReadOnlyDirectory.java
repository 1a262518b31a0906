package org.jwd.sessiontable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Assumptions;

/**
 * A directory made read-only for this process, and writable again at {@link #close()}. Root ignores a directory's
 * permissions, so as root it is marked immutable ({@code chattr +i}, which holds for root too: no entry can be
 * created, removed or renamed in it); elsewhere its write permissions are taken away ({@code chmod a-w}).
 */
final class ReadOnlyDirectory implements AutoCloseable {
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private final Path dir;
    private final Set<PosixFilePermission> before;

    private ReadOnlyDirectory(Path dir, Set<PosixFilePermission> before) {
        this.dir = dir;
        this.before = before;
    }

    static ReadOnlyDirectory of(Path dir) throws IOException, InterruptedException {
        if (ROOT) {
            Assumptions.assumeTrue(run("chattr", "+i", dir.toString()) == 0, "chattr +i is refused here (a file "
                    + "system without the attribute, or no CAP_LINUX_IMMUTABLE): no way to make " + dir
                    + " read-only for root");
            return new ReadOnlyDirectory(dir, null);
        }
        Set<PosixFilePermission> before = Files.getPosixFilePermissions(dir);
        Set<PosixFilePermission> readOnly = EnumSet.copyOf(before);
        readOnly.removeAll(List.of(PosixFilePermission.OWNER_WRITE, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_WRITE));
        Files.setPosixFilePermissions(dir, readOnly);
        return new ReadOnlyDirectory(dir, before);
    }

    private static int run(String... command) throws IOException, InterruptedException {
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start().waitFor();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (before == null) {
            if (run("chattr", "-i", dir.toString()) != 0) {
                throw new IOException("chattr -i " + dir + " failed: the directory stays immutable");
            }
        } else {
            Files.setPosixFilePermissions(dir, before);
        }
    }
}
