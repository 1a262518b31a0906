package org.jwd.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class JvmOptionsTest {
    @Test
    void namesTheOptionsAJvmWasNotStartedWith() {
        List<String> jwd = List.of("-XX:+UseParallelGC", "-XX:CICompilerCount=8", "-Xms512m", "-Xmx512m",
                "-Djwd.war=/x/jwd.war", "-jar", "start.jar");

        assertThat(JvmOptions.missing(jwd, " -Xms512m  -Xmx512m -XX:+UseParallelGC ")).isEmpty();
        assertThat(JvmOptions.missing(jwd, "-Xms512m -Xmx1g -XX:+UseG1GC")).containsExactly("-Xmx1g", "-XX:+UseG1GC");
        assertThat(JvmOptions.missing(jwd, "")).isEmpty();
    }

    @Test
    void readsARunningJvmsArguments() {
        List<String> mine = JvmOptions.arguments(ProcessHandle.current().pid());

        assertThat(mine).isNotEmpty();
        assertThat(JvmOptions.missing(mine, mine.get(0))).isEmpty();
        assertThatThrownBy(() -> JvmOptions.arguments(Long.MAX_VALUE)).hasMessageContaining("no process with pid");
    }
}
