package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileSummaryTest {
    @TempDir
    Path dir;

    @Test
    void givesEachTargetsFiguresPerRequestOfItsLoad() throws IOException {
        record("jwd-cpu.collapsed");
        record("jwd-cpu.wrk.txt");
        record("jwd-lock.collapsed");
        Files.writeString(dir.resolve("jwd-lock.wrk.txt"), Recorded.text("profiles/jwd-cpu.wrk.txt"));

        String summary = ProfileSummary.render(dir);

        // 35 ns sampled over wrk's 6,268 requests; locks: 1,862 ns waited; no allocation profile.
        // No sample of the recorded excerpt ends in jwd's code: its three stacks with jwd's frames end in Jetty's.
        assertThat(summary).contains("| jwd | 0.0 | 42.9 % | 0.0 % | 0.0 % | 0.0 % | 48.6 % | - | 0.00 |\n");
        assertThat(summary).contains("jwd, cpu, heaviest frames:\n- 37.1 % finish_task_switch.isra.0_[k]\n");
        assertThat(summary).contains("jwd, lock, heaviest frames:\n- 73.7 % java.util.concurrent.Semaphore$NonfairSync_[i]\n"
                + "- 25.2 % java.lang.Object_[i]\n");
    }

    @Test
    void aDirectoryWithoutProfilesIsAnError() {
        assertThatThrownBy(() -> ProfileSummary.render(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no TARGET-cpu.collapsed in " + dir);
    }

    private void record(String name) throws IOException {
        Files.writeString(dir.resolve(name), Recorded.text("profiles/" + name));
    }
}
