package org.jwd.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.jwd.demo.DemoBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator decides of a server lasts: {@code bin/jwd drain} holds across a restart (kept in the state file
 * the README names, in the work directory), {@code bin/jwd status} shows it, the configuration's
 * {@code server.<id>.state} applies at the start, and a change of that key ({@code bin/jwd reload}) overtakes the
 * earlier decision.
 */
@Timeout(180)
class OperatorStateIT {
    @TempDir
    Path dir;

    @Test
    void aDrainByTheCommandLineHoldsAcrossARestartUntilTheConfigurationSaysOtherwise() throws Exception {
        DemoBackend a = DemoBackend.start(DemoBackend.Options.j2ee("a"));
        DemoBackend b = DemoBackend.start(DemoBackend.Options.j2ee("b"));
        String servers = """
                server.a.url=%s
                server.a.type=j2ee
                server.a.state=drained
                server.b.url=%s
                server.b.type=j2ee
                """.formatted(a.url(), b.url());
        Path config = Files.writeString(dir.resolve("landscape.properties"), servers + AdminClient.CONFIG);
        Map<String, String> env = Map.of("JWD_ADMIN_PASSWORD", AdminClient.PASSWORD);
        Path stateFile = null;
        try {
            String drainedAt;
            try (JwdProcess jwd = JwdProcess.startWith(config, Map.of())) {
                AdminClient admin = new AdminClient(jwd);
                assertThat(admin.server("a")).as("server.a.state=drained").containsEntry("state", "drained");

                JwdProcess.Result drain = JwdProcess.runToEnd(Duration.ofSeconds(60), env, "drain", "b", "--url",
                        jwd.uri().toString());
                assertThat(drain.exitCode()).as(drain.output()).isZero();
                assertThat(drain.output()).startsWith("server b: drained (state drained since ")
                        .contains("kept file ").contains("/work/operator-state-landscape-");
                Map<String, Object> b1 = admin.server("b");
                drainedAt = (String) b1.get("state_since");
                @SuppressWarnings("unchecked")
                Map<String, Object> operator = (Map<String, Object>) b1.get("operator");
                assertThat(operator).containsEntry("by", "admin from 127.0.0.1");
                stateFile = Path.of(((String) operator.get("kept")).substring("file ".length()));
                assertThat(stateFile.getFileName().toString()).startsWith("operator-state-landscape-")
                        .endsWith(".properties");

                JwdProcess.Result status = JwdProcess.runToEnd(Duration.ofSeconds(60), env, "status", "--url",
                        jwd.uri().toString());
                assertThat(status.output()).containsPattern("(?m)^b +drained +drained ")
                        .containsPattern("(?m)^a +drained +drained ");
            }

            try (JwdProcess restarted = JwdProcess.startWith(config, Map.of())) {
                Map<String, Object> b2 = new AdminClient(restarted).server("b");
                assertThat(b2).as("after the restart").containsEntry("state", "drained")
                        .containsEntry("state_since", drainedAt);
                for (int i = 0; i < 4; i++) {
                    assertThat(new AdminClient(restarted).through("/irj/x").statusCode()).as("nobody takes new"
                            + " sessions").isEqualTo(503);
                }

                Files.writeString(config, servers + "server.b.state=disabled\n" + AdminClient.CONFIG);
                JwdProcess.Result reload = JwdProcess.runToEnd(Duration.ofSeconds(60), env, "reload", "--url",
                        restarted.uri().toString());
                // the file's watch may have applied the new file first: then the command finds it unchanged
                assertThat(reload.exitCode()).isZero();
                assertThat(reload.output()).containsPattern(": (applied|unchanged)");
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                        new AdminClient(restarted).server("b")).containsEntry("state", "disabled"));
                @SuppressWarnings("unchecked")
                Map<String, Object> operator = (Map<String, Object>) new AdminClient(restarted).server("b")
                        .get("operator");
                assertThat(operator).containsEntry("by", null).containsEntry("configured", "disabled");
                assertThat(Files.readString(stateFile)).doesNotContain("\nb=");
            }
        } finally {
            a.close();
            b.close();
            if (stateFile != null) {
                Files.deleteIfExists(stateFile);
            }
        }
    }

    /** Going back to an older jwd: its drains cannot be read, so the start stops; the file stays for the later jwd. */
    @Test
    void aStateFileALaterJwdWroteStopsTheStartNamingItAndIsLeftAsItIs() throws Exception {
        Path stateFile = dir.resolve("operator-state.properties");
        String later = "jwd operator state 2\nb=DRAINED|ACTIVE|1767225600000|ops from 10.0.0.7\n";
        Files.writeString(stateFile, later);
        Path config = Files.writeString(dir.resolve("jwd.properties"), "server.b.url=http://127.0.0.1:1\n"
                + "server.b.type=j2ee\njwd.state_file=" + stateFile + "\n");

        JwdProcess.Result result = JwdProcess.runToEnd(Duration.ofSeconds(120), "run", "--config", config.toString(),
                "--port", "0", "--host", "127.0.0.1");

        assertThat(result.exitCode()).isNotZero();
        assertThat(result.output()).contains("jwd.state_file: " + stateFile + ": operator state in format 2, written by"
                + " a later jwd; this jwd reads format 1: left as it is, not read").doesNotContain("jwd: ready");
        assertThat(Files.readString(stateFile)).isEqualTo(later);
    }

    @Test
    void theCommandsNameWhatIsWrong() throws Exception {
        JwdProcess.Result usage = JwdProcess.runToEnd(Duration.ofSeconds(60), "drain");
        JwdProcess.Result refused = JwdProcess.runToEnd(Duration.ofSeconds(60),
                Map.of("JWD_ADMIN_PASSWORD", "x"), "status", "--url", "http://127.0.0.1:9");

        assertThat(usage.exitCode()).isEqualTo(2);
        assertThat(usage.output()).contains("jwd: 'drain': expected drain|disable|enable SERVER, reload or status");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.output()).contains("jwd status: cannot connect to http://127.0.0.1:9: connection refused");
    }
}
