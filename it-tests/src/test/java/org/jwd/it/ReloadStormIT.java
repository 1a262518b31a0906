package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jwd.bench.ReloadStorm;
import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;

/**
 * A reload storm through the real distribution: the configuration file rewritten every second for 15 s (a server
 * added or removed each time, every capacity drawn anew) under sticky load. No request for a server that stayed
 * fails, no session of a server that stayed moves, and the rewrites are applied. Real time passes: the storm is
 * the file watch reading a file that keeps changing. The 5-minute version is {@code src/bench/reload-storm}; both run
 * {@link ReloadStorm}.
 */
class ReloadStormIT {

    @Test
    void aConfigurationRewrittenEverySecondFailsNoRequestAndMovesNoSessionOfTheServersThatStay() throws Exception {
        List<DemoBackend> servers = new ArrayList<>();
        try {
            Map<String, String> stable = start(servers, "s", 2);
            Map<String, String> transients = start(servers, "t", 3);
            Path config = Files.createTempFile(JwdProcess.target(), "reload-storm", ".properties");
            ReloadStorm.Settings draft = settings(null, config, stable, transients);
            Files.writeString(config, ReloadStorm.initial(draft));
            try (JwdProcess jwd = JwdProcess.startWith(config, Map.of())) {
                ReloadStorm.Result result = new ReloadStorm(settings(URI.create(jwd.uri() + "/"), config, stable,
                        transients), System.out).run();
                System.out.print("ReloadStormIT:\n" + result.report());

                assertThat(result.requests()).as(result.report()).isGreaterThan(500);
                assertThat(result.stayedErrors()).as(result.report()).isEmpty();
                assertThat(result.leftErrors()).as(result.report()).isEmpty();
                assertThat(result.lost()).as(result.report()).isZero();
                assertThat(result.moves()).as("sessions of removed servers rebound").isPositive();
                assertThat(result.rejected()).isZero();
                assertThat(result.applied()).as(result.report()).isGreaterThanOrEqualTo(result.writes() / 2);
                assertThat(jwd.isAlive()).isTrue();
            } finally {
                Files.deleteIfExists(config);
            }
        } finally {
            servers.forEach(DemoBackend::close);
        }
    }

    private static ReloadStorm.Settings settings(URI jwd, Path config, Map<String, String> stable,
                                                 Map<String, String> transients) {
        // the watch checks four times a second, so that a file rewritten every second is read between rewrites
        String base = AdminClient.CONFIG + "SessionTableTimeout=10m\njwd.config_watch=250ms\n";
        return new ReloadStorm.Settings(jwd, config, base, stable, transients, Duration.ofSeconds(15),
                Duration.ofSeconds(1), 8, 2, AdminClient.USER, AdminClient.PASSWORD);
    }

    private static Map<String, String> start(List<DemoBackend> servers, String prefix, int count) {
        Map<String, String> urls = new TreeMap<>();
        for (int i = 1; i <= count; i++) {
            DemoBackend server = DemoBackend.start(DemoBackend.Options.j2ee(prefix + i));
            servers.add(server);
            urls.put(prefix + i, server.url());
        }
        return urls;
    }
}
