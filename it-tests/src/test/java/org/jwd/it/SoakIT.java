package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jwd.bench.SoakLoad;
import org.jwd.bench.SoakLoad.Backend;
import org.junit.jupiter.api.Test;

/**
 * Half a minute of steady load through jwd in the Jetty distribution while two of its four backend processes are
 * killed (SIGKILL) in turn, at 10 s and 20 s (later if the first is not back yet), and restarted 4 s later: requests
 * not bound to the killed server
 * never fail, bound ones fail only when they were in flight at the kill, and jwd's heap and descriptors do not
 * grow. The 10-minute version is {@code src/bench/soak}; both run {@link SoakLoad}.
 *
 * <p>The resource bounds are generous (a leak shows as steady growth, far beyond them): 50% or 32 MB of heap
 * after a full GC, 50 descriptors.
 */
class SoakIT {

    @Test
    void killedBackendsCostOnlyTheRequestsInFlightAtTheKillAndNothingLeaks() throws Exception {
        Path logDir = Files.createTempDirectory("jwd-soak");
        String classpath = Backend.testClasspath(JwdProcess.projectDir());
        List<Backend> backends = new ArrayList<>();
        for (String id : List.of("a", "b", "c", "d")) {
            backends.add(new Backend(id, Backend.freePort(), classpath, logDir, null));
        }
        try {
            StringBuilder config = new StringBuilder(AdminClient.CONFIG);
            for (Backend b : backends) {
                b.start();
                config.append("server.").append(b.id()).append(".url=").append(b.url()).append('\n')
                        .append("server.").append(b.id()).append(".type=j2ee\n")
                        .append("server.").append(b.id()).append(".health_path=/sap/public/icman/ping\n");
            }
            // health.timeout above the default 2 s: on a busy 2-core machine a check of the servers left under the
            // whole load may take longer, and marking them down too would turn a kill into 503s for everyone
            config.append("SessionTableTimeout=10m\nhealth.interval=1s\nhealth.timeout=5s\n");
            try (JwdProcess jwd = JwdProcess.start(config.toString(), Map.of("JWD_JAVA_OPTS", "-Xmx256m"))) {
                SoakLoad.Settings settings = new SoakLoad.Settings(URI.create(jwd.uri() + "/"), jwd.jettyPid(),
                        Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(4),
                        6, 2, Duration.ofSeconds(10), AdminClient.USER, AdminClient.PASSWORD,
                        new SoakLoad.Limits(50, 32, 50));

                SoakLoad.Result result = new SoakLoad(settings, backends, System.out).run();
                String report = result.report() + "jwd's log (warnings):\n" + String.join("\n",
                        jwd.log().stream().filter(line -> line.contains("WARN")).toList()) + "\n";
                System.out.print(report);

                assertThat(result.kills()).as(report).hasSize(2);
                assertThat(result.requests()).as(report).isGreaterThan(1000);
                assertThat(result.boundRequests()).as("requests of sessions bound to a killed server")
                        .isPositive();
                assertThat(result.unboundErrors()).as(report).isEmpty();
                assertThat(result.boundLateErrors()).as(report).isEmpty();
                assertThat(result.tableRebindingsEnd()).as("the session table rebound the killed servers' sessions")
                        .isGreaterThan(result.tableRebindingsStart());
                assertThat(result.last().heapUsedKb()).as(report).isLessThanOrEqualTo(result.heapLimitKb());
                assertThat(result.last().fds()).as(report).isLessThanOrEqualTo(result.fdLimit());
                assertThat(jwd.isAlive()).isTrue();
            }
        } finally {
            backends.forEach(Backend::close);
        }
    }
}
