package org.jwd.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Outputs recorded from real runs (src/test/resources/org/jwd/bench/): wrk 4.1.0 against src/bench/run's targets
 * (a short src/bench/run on 2026-12-01), against a server answering 404, one closing every other connection, and a
 * closed port; results.tsv of three rounds with the table the awk report that this code replaced printed for it;
 * profiles/: async-profiler 4.2's collapsed stacks of jwd under src/bench/run's sticky load (a short attribution run
 * on 2026-12-01, weights in samples: the CPU profile cut to its 15 stacks named in the tests) with wrk's output;
 * syscalls/: perf stat's counts ({@code -x,}, {@link SyscallCount#PERF_EVENTS}) of nginx's and jwd's processes under
 * 5 s of src/bench/run's sticky load, with wrk's output of the same 5 s (2026-12-02); ss/: {@code ss -tinH state
 * established '( dport = :PORT )'} (iproute2 6.1.0) before and after traffic over loopback connections to one port,
 * one of them idle before and one opened in between (2026-12-03); capacity/: both nodes' metrics before and after one
 * step of a short src/bench/run cluster-capacity (cut to the session table's series) and their wrk outputs (2026-12-05).
 */
final class Recorded {
    private Recorded() {
    }

    static String text(String name) {
        try (InputStream in = Recorded.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no recorded output " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
