package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.jwd.config.DispatcherConfig;
import org.jwd.runtime.ConfigReader;

/**
 * The systemd unit the distribution ships ({@code jwd.service}), read as systemd reads it, agrees with the README
 * and with jwd: it listens where the quick start does, may bind ports below 1024 and nothing more, gives a stop the
 * time jwd may take, and runs in a directory its user may write.
 */
class ServiceUnitTest {
    /**
     * How fast a stop writes the persistent session table: about 20,000 bindings a second (docs/performance.md,
     * "Persistent session table cost": a million in 47 s on a loaded machine).
     */
    private static final long BINDINGS_WRITTEN_PER_SECOND = 20_000;
    private static final String MINIMAL = "server.a.url=http://10.0.0.11:50000\nserver.a.type=j2ee\n";

    @Test
    void theServiceListensOnEveryInterfaceAsTheQuickStartDoes() throws IOException {
        Matcher quickStart = Pattern.compile("/opt/jwd/bin/jwd run --config (\\S+) --host (\\S+)").matcher(
                Files.readString(JwdProcess.projectDir().resolve("README.md")));
        assertThat(quickStart.find()).as("the README's quick start").isTrue();

        List<String> execStart = Arrays.asList(one("ExecStart").split(" +"));

        assertThat(execStart.subList(0, 2)).containsExactly("/opt/jwd/bin/jwd", "run");
        assertThat(option(execStart, "--config")).isEqualTo(quickStart.group(1));
        assertThat(option(execStart, "--host")).isEqualTo(quickStart.group(2)).isEqualTo("0.0.0.0");
    }

    @Test
    void theServiceMayBindPortsBelow1024AndNothingElse() throws IOException {
        assertThat(one("User")).isEqualTo("jwd");
        assertThat(one("AmbientCapabilities")).isEqualTo("CAP_NET_BIND_SERVICE");
        assertThat(one("CapabilityBoundingSet")).isEqualTo("CAP_NET_BIND_SERVICE");
        assertThat(one("NoNewPrivileges")).isEqualTo("yes");
    }

    /** jwd.stop_delay, jwd.stop_timeout for the requests in flight, then the last write of a full persistent table. */
    @Test
    void aStopHasTheTimeJwdMayTakeBeforeSystemdKillsIt() throws Exception {
        DispatcherConfig defaults = ConfigReader.parse(MINIMAL, "jwd.properties");
        Duration lastWrite = Duration.ofSeconds(defaults.sessions().maxSessionTableEntries()
                / BINDINGS_WRITTEN_PER_SECOND);

        Duration timeoutStop = Duration.ofSeconds(Long.parseLong(one("TimeoutStopSec")));

        assertThat(defaults.forwarding().stop().timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(timeoutStop).isGreaterThanOrEqualTo(defaults.forwarding().stop().delay()
                .plus(defaults.forwarding().stop().timeout()).plus(lastWrite));
        assertThat(one("KillMode")).as("SIGTERM to the launcher, which stops the JVM").isEqualTo("mixed");
    }

    @Test
    void theServiceRunsInItsWorkDirectoryWhichItsUserMayWrite() throws IOException {
        String work = service().get("Environment").stream().filter(e -> e.startsWith("JWD_WORK="))
                .map(e -> e.substring("JWD_WORK=".length())).findFirst().orElseThrow();

        assertThat(one("WorkingDirectory")).isEqualTo(work);
        assertThat(one("ReadWritePaths").split(" ")).contains(work);
    }

    private static String option(List<String> command, String name) {
        int at = command.indexOf(name);
        assertThat(at).as(name + " in " + command).isPositive();
        return command.get(at + 1);
    }

    /** The one value of {@code key} in the unit's [Service] section. */
    private static String one(String key) throws IOException {
        List<String> values = service().getOrDefault(key, List.of());
        assertThat(values).as(key).hasSize(1);
        return values.get(0);
    }

    /**
     * The [Service] section of the distribution's unit, each key with its values in order: systemd's syntax
     * ({@code #} and {@code ;} comments, {@code Key=value}, a value in double quotes as one).
     */
    private static Map<String, List<String>> service() throws IOException {
        Map<String, List<String>> service = new LinkedHashMap<>();
        String section = "";
        for (String line : Files.readAllLines(JwdProcess.dist().resolve("jwd.service"))) {
            String text = line.strip();
            if (text.isEmpty() || text.startsWith("#") || text.startsWith(";")) {
                continue;
            }
            if (text.startsWith("[")) {
                section = text;
            } else if (section.equals("[Service]")) {
                int eq = text.indexOf('=');
                String value = text.substring(eq + 1).strip();
                service.computeIfAbsent(text.substring(0, eq).strip(), k -> new ArrayList<>())
                        .add(value.startsWith("\"") && value.endsWith("\"") ? value.substring(1, value.length() - 1)
                                : value);
            }
        }
        return service;
    }
}
