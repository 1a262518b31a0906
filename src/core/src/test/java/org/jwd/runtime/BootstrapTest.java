package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BootstrapTest {
    /** Two servers, so two health checks; every job's period long enough that each waits in the queue. */
    private static final String CONFIG = """
            server.a.url=http://127.0.0.1:9001
            server.a.type=j2ee
            server.b.url=http://127.0.0.1:9002
            server.b.type=abap
            health.interval=1h
            jwd.config_watch=1h
            """;
    /** The threads each periodic job started for itself before they shared one scheduler. */
    private static final Set<String> OWN_THREADS = Set.of("jwd-health-scheduler", "jwd-registry",
            "jwd-config-watch", "jwd-url-prefix-loader", "jwd-admin-history", "jwd-session-table-sweeper",
            "jwd-session-table-cluster-probe");

    @TempDir
    Path dir;
    private Bootstrap boot;

    @AfterEach
    void close() {
        if (boot != null) {
            boot.close();
        }
    }

    @Test
    void everyPeriodicJobRunsOnTheOneSharedSchedulerAndClosingItStopsThemAll() throws Exception {
        Path file = Files.writeString(dir.resolve("jwd.properties"), CONFIG);
        boot = Bootstrap.build(ConfigReader.load(file), file);
        boot.start();
        ScheduledThreadPoolExecutor scheduler = (ScheduledThreadPoolExecutor) boot.scheduler();

        // the health checks of a and b (waiting again once their first, sent at once, is out), the expiry of
        // registered servers, the file's watch, the session table's sweeps, the log levels' expiry
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(scheduler.getQueue()).hasSize(6));
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .doesNotContainAnyElementsOf(OWN_THREADS);
        assertThat(Thread.getAllStackTraces().keySet()).filteredOn(t -> t.getName().startsWith("jwd-scheduler-"))
                .isNotEmpty().allMatch(Thread::isDaemon);

        boot.close();

        assertThat(scheduler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(boot.watch()).isNotNull();
        assertThat(boot.reloader().file()).isEqualTo(file);
    }

    @Test
    void withoutAFileThereIsNothingToWatchOrReload() throws Exception {
        boot = Bootstrap.build(ConfigReader.parse(CONFIG, "test.properties"), null);
        boot.start();

        assertThat(boot.reloader()).isNull();
        assertThat(boot.watch()).isNull();
        // the health checks of a and b, the expiry of registered servers, the session table's sweeps, the log
        // levels' expiry
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(((ScheduledThreadPoolExecutor) boot.scheduler()).getQueue()).hasSize(5));
    }

    @Test
    void theServletsPartsAreTheOnesItBuilt() throws Exception {
        boot = Bootstrap.build(ConfigReader.parse(CONFIG, "test.properties"), null);

        assertThat(boot.dispatcher().state().topology().servers().keySet()).containsExactlyElementsOf(List.of("a",
                "b"));
        assertThat(boot.dispatcher().health().servers()).extracting(s -> s.id()).containsExactly("a", "b");
    }
}
