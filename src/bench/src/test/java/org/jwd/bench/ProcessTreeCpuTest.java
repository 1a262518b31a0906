package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ProcessTreeCpuTest {
    /** The CPU a shell burns in a grandchild counts for the child it runs under, as a worker's does for nginx. */
    @Test
    void countsTheCpuOfTheWholeProcessTree() throws Exception {
        Process parent = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' & wait").start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> parent.descendants().count() == 1);

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> ProcessTreeCpu.of(parent.pid()).compareTo(Duration.ofMillis(300)) >= 0);

            // the parent only waits: the CPU counted is its child's
            assertThat(parent.info().totalCpuDuration().orElseThrow()).isLessThan(Duration.ofMillis(300));
        } finally {
            List<ProcessHandle> all = parent.descendants().toList();
            all.forEach(ProcessHandle::destroyForcibly);
            parent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void anUnknownPidIsNamed() {
        assertThatThrownBy(() -> ProcessTreeCpu.of(Integer.MAX_VALUE)).hasMessage("no process with pid 2147483647");
    }
}
