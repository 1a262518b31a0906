package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProcessTreeMemoryTest {
    @Test
    void readsVmRssOfAStatusText() {
        String status = "Name:\tjava\nVmPeak:\t 3912340 kB\nVmRSS:\t  204812 kB\nRssAnon:\t  180000 kB\n";

        assertThat(ProcessTreeMemory.residentKilobytes(status)).isEqualTo(204_812);
        assertThat(ProcessTreeMemory.residentKilobytes("Name:\tzombie\nState:\tZ (zombie)\n")).isZero();
    }

    @Test
    void thisJvmHoldsAtLeastItsHeapInUse() {
        Runtime runtime = Runtime.getRuntime();
        long heapInUseKb = (runtime.totalMemory() - runtime.freeMemory()) / 1024;

        assertThat(ProcessTreeMemory.kilobytes(ProcessHandle.current().pid())).isGreaterThan(heapInUseKb / 2);
    }

    @Test
    void anUnknownPidIsNamed() {
        assertThatThrownBy(() -> ProcessTreeMemory.kilobytes(Long.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("no process with pid " + Long.MAX_VALUE);
    }
}
