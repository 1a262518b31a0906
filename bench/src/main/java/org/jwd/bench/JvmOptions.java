package org.jwd.bench;

import java.util.Arrays;
import java.util.List;

/**
 * The check that a JVM target runs with the options {@code bench/run} gave it ({@code BENCH_JAVA_OPTS}): each JVM
 * is started by a different launcher ({@code bin/jwd}, Jetty's {@code start.jar}, plain {@code java}), and a
 * comparison of two proxies holds only when both have the same collector and heap. The JVM's own command line is
 * read ({@link ProcessHandle.Info#arguments()}, {@code /proc/PID/cmdline} on Linux).
 */
final class JvmOptions {
    private JvmOptions() {
    }

    /** The options (blank-separated, as the script passes them to java) missing from the JVM's arguments. */
    static List<String> missing(List<String> arguments, String options) {
        return Arrays.stream(options.trim().split("\\s+")).filter(option -> !option.isEmpty())
                .filter(option -> !arguments.contains(option)).toList();
    }

    /** @throws IllegalArgumentException when the process is gone or its arguments cannot be read */
    static List<String> arguments(long pid) {
        ProcessHandle process = ProcessHandle.of(pid)
                .orElseThrow(() -> new IllegalArgumentException("no process with pid " + pid));
        return process.info().arguments().map(List::of).orElseThrow(() -> new IllegalArgumentException(
                "the arguments of process " + pid + " cannot be read"));
    }
}
