package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class SyscallCountTest {
    private static SyscallCount recorded(String target) {
        long requests = WrkResult.parse(Recorded.text("syscalls/wrk-" + target + ".txt")).orElseThrow().requests();
        return SyscallCount.of(target, requests, Recorded.text("syscalls/perf-" + target + ".txt"));
    }

    @Test
    void sortsPerfsCountsIntoTheirKinds() {
        // nginx reads with recvfrom, jwd's JVM with read; both write with writev; only the JVM changes epoll
        // interest and wakes threads for each request
        assertThat(recorded("nginx-hash")).isEqualTo(
                new SyscallCount("nginx-hash", 174_115, 892_515, 348_359, 348_328, 151, 21_303, 0, 54_432));
        assertThat(recorded("jwd")).isEqualTo(
                new SyscallCount("jwd", 65_777, 760_724, 298_731, 139_836, 223_720, 20_346, 74_420, 50_065));
    }

    @Test
    void reportsEachKindPerRequestAndWhatIsLeftAsOther() {
        String table = SyscallCount.report(List.of(recorded("nginx-hash"), recorded("jwd")),
                List.of("nginx-hash", "balancer", "jwd"));

        assertThat(table).isEqualTo("""

                | target | system calls / req | reads | writes | epoll_ctl | epoll waits | futex | other \
                | context switches / req |
                |---|---:|---:|---:|---:|---:|---:|---:|---:|
                | nginx-hash | 5.13 | 2.00 | 2.00 | 0.00 | 0.12 | 0.00 | 1.00 | 0.31 |
                | jwd | 11.57 | 4.54 | 2.13 | 3.40 | 0.31 | 1.13 | 0.06 | 0.76 |
                """);
    }

    @Test
    void addsUpATargetCountedMoreThanOnce() {
        List<SyscallCount> lines = List.of(new SyscallCount("jwd", 100, 1_000, 400, 200, 300, 30, 70, 50),
                new SyscallCount("jwd", 300, 3_400, 1_400, 600, 1_000, 90, 302, 150));

        assertThat(SyscallCount.report(lines, List.of("jwd"))).endsWith(
                "| jwd | 11.00 | 4.50 | 2.00 | 3.25 | 0.30 | 0.93 | 0.02 | 0.50 |\n");
    }

    @Test
    void namesTheEventPerfCouldNotCount() {
        String notCounted = Recorded.text("syscalls/perf-jwd.txt")
                .replace("74420,,syscalls:sys_enter_futex", "<not counted>,,syscalls:sys_enter_futex");
        String missing = Recorded.text("syscalls/perf-jwd.txt").replaceAll("(?m)^.*sys_enter_epoll_pwait.*\n", "");

        assertThatThrownBy(() -> SyscallCount.of("jwd", 1, notCounted)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("perf did not count syscalls:sys_enter_futex for jwd: '<not counted>'");
        assertThatThrownBy(() -> SyscallCount.of("jwd", 1, missing)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no count of syscalls:sys_enter_epoll_pwait");
    }

    @Test
    void readsBackWhatItWrites() {
        SyscallCount line = new SyscallCount("haproxy-stick", 120_000, 600_000, 240_000, 240_000, 12, 9_000, 0, 30);

        assertThat(SyscallCount.parse(line.toTsv())).isEqualTo(line);
        assertThatThrownBy(() -> SyscallCount.parse("jwd\tmany\t1\t2\t3\t4\t5\t6\t7"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'jwd\tmany\t1");
    }

    @Test
    void summarizesALineForTheLog() {
        assertThat(recorded("jwd").summary()).isEqualTo("system calls jwd              11.57 per request (reads 4.54,"
                + " writes 2.13, epoll_ctl 3.40, epoll waits 0.31, futex 1.13), context switches 0.76");
    }
}
