package org.jwd.bench;

import java.time.Duration;
import java.util.stream.Stream;

/**
 * The CPU time (user + system, all threads) a proxy has used so far: the process and all its descendants (nginx's
 * master and workers, HAProxy, the JVM under {@code bin/jwd}), as the kernel accounts it ({@link ProcessHandle},
 * which reads {@code /proc/PID/stat} on Linux). A descendant that has ended no longer counts, so {@code src/bench/run}
 * reads it just before and just after a measured run, while the proxy's processes stay the same.
 */
public final class ProcessTreeCpu {
    private ProcessTreeCpu() {
    }

    /** @throws IllegalArgumentException when no process has this pid */
    public static Duration of(long pid) {
        ProcessHandle root = ProcessHandle.of(pid)
                .orElseThrow(() -> new IllegalArgumentException("no process with pid " + pid));
        return Stream.concat(Stream.of(root), root.descendants())
                // a process that ended in between has no CPU time left to read
                .flatMap(p -> p.info().totalCpuDuration().stream())
                .reduce(Duration.ZERO, Duration::plus);
    }
}
