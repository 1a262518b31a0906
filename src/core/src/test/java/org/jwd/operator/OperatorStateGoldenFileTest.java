package org.jwd.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.jwd.config.ConfigException;
import org.jwd.config.ServerConfig;
import org.jwd.config.ServerHealthCheck;
import org.jwd.config.ServerState;
import org.jwd.config.ServerType;
import org.jwd.topology.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's state file ({@code jwd.state_file}) as jwd wrote it, kept under
 * {@code src/test/resources/org/jwd/operator/golden/}: format 1 as jwd 1.0 writes it, and the file of the jwd before
 * formats were named. Every later jwd must read both. {@code -Djwd.golden.write=<src/core>} writes a fixture of the
 * latest format, for a new format's first commit; the fixtures already there are never written again.
 */
class OperatorStateGoldenFileTest {
    /** When the fixture's decisions were taken: 2026-01-01 00:00 UTC. */
    private static final long DECIDED_AT = 1_767_225_600_000L;

    @TempDir
    Path dir;

    private static Server server(String id, ServerState state) {
        return new Server(new ServerConfig(id, URI.create("http://127.0.0.1:9001"), null, ServerType.J2EE, 1,
                Set.of(), id, id, null, "/", id, ServerHealthCheck.DEFAULTS, state));
    }

    private Path copy(String fixture) throws IOException {
        Path file = dir.resolve("operator-state.properties");
        try (InputStream in = getClass().getResourceAsStream("golden/" + fixture)) {
            Files.copy(in, file);
        }
        return file;
    }

    private static void assertDecisionsRead(Path file) throws ConfigException {
        Server b = server("b", ServerState.ACTIVE);
        Server c = server("c", ServerState.ACTIVE);
        Server d = server("d", ServerState.DRAINED);
        try (OperatorStates states = OperatorStates.open(new OperatorConfig(file, null), () -> DECIDED_AT + 60_000)) {
            states.apply(List.of(b, c, d));
            assertThat(states.decision("d")).as("enabled while the configuration said drained").isEqualTo(
                    new Decision(Server.AdminState.ENABLED, ServerState.DRAINED, DECIDED_AT + 2000, "ops from 10.0.0.7"));
        }
        assertThat(b.adminChange()).isEqualTo(new Server.AdminChange(Server.AdminState.DRAINED, DECIDED_AT,
                "ops from 10.0.0.7"));
        assertThat(c.adminChange()).isEqualTo(new Server.AdminChange(Server.AdminState.DISABLED, DECIDED_AT + 1000,
                "admin from 10.0.0.8"));
        assertThat(d.adminState()).isEqualTo(Server.AdminState.ENABLED);
        assertThat(d.adminChange().by()).isEqualTo("ops from 10.0.0.7");
    }

    @Test
    void theFileJwd10WroteIsRead() throws Exception {
        Path file = copy("operator-state-format-1.properties");
        assertThat(Files.readAllLines(file).get(0)).isEqualTo("jwd operator state 1");
        assertDecisionsRead(file);
    }

    @Test
    void theFileOfTheJwdBeforeFormatsWereNamedIsReadAsFormat1() throws Exception {
        assertDecisionsRead(copy("operator-state-unnamed.properties"));
    }

    @Test
    void aFileOfANewerFormatStopsTheStartNamingTheKeyTheFileAndBothFormatsAndIsLeftAsItIs() throws Exception {
        Path file = copy("operator-state-format-1.properties");
        String newer = Files.readString(file).replace("jwd operator state 1", "jwd operator state 2");
        Files.writeString(file, newer);

        assertThatThrownBy(() -> OperatorStates.open(new OperatorConfig(file, null), () -> DECIDED_AT))
                .isInstanceOf(ConfigException.class)
                .hasMessage("jwd.state_file: " + file + ": operator state in format 2, written by a later jwd; this"
                        + " jwd reads format 1: left as it is, not read; the operator's drains and disables in it"
                        + " cannot be read, so jwd does not start: start the later jwd again, or move the file away"
                        + " (its servers then follow the configuration)");
        assertThat(Files.readString(file)).isEqualTo(newer);
    }

    /** The decisions the tests above read: b drained, c disabled, d enabled against its drained configuration. */
    @Test
    @EnabledIfSystemProperty(named = "jwd.golden.write", matches = ".+")
    void writeTheFixture() {
        Path file = Path.of(System.getProperty("jwd.golden.write"), "src/test/resources/org/jwd/operator/golden",
                "operator-state-format-" + StateFile.FORMAT.latest() + ".properties");
        long[] now = {DECIDED_AT};
        OperatorStates states = new OperatorStates(new StateFile(file), () -> now[0]);
        states.act(server("b", ServerState.ACTIVE), Server.AdminState.DRAINED, "ops from 10.0.0.7");
        now[0] += 1000;
        states.act(server("c", ServerState.ACTIVE), Server.AdminState.DISABLED, "admin from 10.0.0.8");
        now[0] += 1000;
        states.act(server("d", ServerState.DRAINED), Server.AdminState.ENABLED, "ops from 10.0.0.7");
        states.close();
    }
}
