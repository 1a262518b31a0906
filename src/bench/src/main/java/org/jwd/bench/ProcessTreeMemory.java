package org.jwd.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The resident memory of a proxy: the process and all its descendants (nginx's master and workers, HAProxy, the
 * JVM under {@code bin/jwd}), the sum of their {@code VmRSS} in {@code /proc/PID/status} (Linux). Pages shared
 * between nginx's processes count once per process, as {@code ps} shows them: the figure is an upper bound for
 * nginx, exact for the single-process proxies.
 */
public final class ProcessTreeMemory {
    private static final Pattern VM_RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+) kB\\s*$");

    private ProcessTreeMemory() {
    }

    /** @throws IllegalArgumentException when no process has this pid */
    public static long kilobytes(long pid) {
        ProcessHandle root = ProcessHandle.of(pid)
                .orElseThrow(() -> new IllegalArgumentException("no process with pid " + pid));
        return Stream.concat(Stream.of(root), root.descendants()).mapToLong(p -> residentKilobytes(p.pid())).sum();
    }

    private static long residentKilobytes(long pid) {
        try {
            return residentKilobytes(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
        } catch (NoSuchFileException e) {
            return 0; // ended in between: it holds no memory any more
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code VmRSS} of a {@code /proc/PID/status} text; 0 for a process without one (a zombie). */
    static long residentKilobytes(String status) {
        Matcher m = VM_RSS.matcher(status);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
