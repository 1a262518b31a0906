package org.jwd.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The check that a JVM target runs with the options {@code src/bench/run} gave it ({@code BENCH_JAVA_OPTS}): each JVM
 * is started by a different launcher ({@code bin/jwd}, Jetty's {@code start.jar}, plain {@code java}), and a
 * comparison of two proxies holds only when both have the same collector and heap. The JVM's own command line is
 * read ({@code /proc/PID/cmdline}: Linux, as the rest of src/bench/run).
 */
final class JvmOptions {
    private JvmOptions() {
    }

    /** The options (blank-separated, as the script passes them to java) missing from the JVM's arguments. */
    static List<String> missing(List<String> arguments, String options) {
        return Arrays.stream(options.trim().split("\\s+")).filter(option -> !option.isEmpty())
                .filter(option -> !arguments.contains(option)).toList();
    }

    /**
     * The JVM's command line from {@code /proc/PID/cmdline} ({@link ProcessHandle.Info#arguments()} gives nothing
     * for a command line as long as an embedded target's class path).
     *
     * @throws IllegalArgumentException when the process is gone
     */
    static List<String> arguments(long pid) {
        try {
            String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.UTF_8);
            return List.of(cmdline.split("\0"));
        } catch (IOException e) {
            throw new IllegalArgumentException("no process with pid " + pid + " (" + e.getMessage() + ")", e);
        }
    }
}
