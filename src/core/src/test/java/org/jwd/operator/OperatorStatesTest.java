package org.jwd.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.config.ServerConfig;
import org.jwd.config.ServerHealthCheck;
import org.jwd.config.ServerState;
import org.jwd.config.ServerType;
import org.jwd.topology.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OperatorStatesTest {
    @TempDir
    Path dir;
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

    private static Server server(String id, ServerState state) {
        return new Server(new ServerConfig(id, URI.create("http://127.0.0.1:9001"), null, ServerType.J2EE, 1,
                Set.of(), id, id, null, "/", id, ServerHealthCheck.DEFAULTS, state));
    }

    private OperatorStates states(Path file) {
        return new OperatorStates(new StateFile(file), clock::get);
    }

    @Test
    void aDrainSurvivesARestartWithItsTimeAndWho() {
        Path file = dir.resolve("state.properties");
        Server b = server("b", ServerState.ACTIVE);
        OperatorStates before = states(file);
        before.apply(List.of(b));

        OperatorStates.Outcome outcome = before.act(b, Server.AdminState.DRAINED, "ops from 10.0.0.7");
        before.close();
        clock.addAndGet(60_000);
        Server restarted = server("b", ServerState.ACTIVE);
        states(file).apply(List.of(restarted));

        assertThat(outcome).isEqualTo(new OperatorStates.Outcome(Server.AdminState.DRAINED, null));
        assertThat(restarted.adminState()).isEqualTo(Server.AdminState.DRAINED);
        assertThat(restarted.adminChange()).isEqualTo(new Server.AdminChange(Server.AdminState.DRAINED,
                1_700_000_000_000L, "ops from 10.0.0.7"));
        assertThat(restarted.stateSinceMillis()).isEqualTo(1_700_000_000_000L);
        assertThat(Files.exists(file.resolveSibling("state.properties.new"))).as("written whole, then moved").isFalse();
    }

    @Test
    void theConfigurationsStateAppliesAndAChangeOfItOvertakesTheOperatorsDecision() {
        Path file = dir.resolve("state.properties");
        OperatorStates states = states(file);
        Server b = server("b", ServerState.DISABLED);
        states.apply(List.of(b));
        assertThat(b.adminState()).as("server.b.state=disabled").isEqualTo(Server.AdminState.DISABLED);
        assertThat(b.adminChange().by()).isNull();

        states.act(b, Server.AdminState.ENABLED, "ops from 10.0.0.7");
        Server sameFile = server("b", ServerState.DISABLED);
        states(file).apply(List.of(sameFile));
        assertThat(sameFile.adminState()).as("the file still says disabled: the decision holds")
                .isEqualTo(Server.AdminState.ENABLED);

        Server edited = server("b", ServerState.DRAINED);
        OperatorStates afterEdit = states(file);
        afterEdit.apply(List.of(edited));

        assertThat(edited.adminState()).as("the file now says drained").isEqualTo(Server.AdminState.DRAINED);
        assertThat(afterEdit.decision("b")).isNull();
        assertThat(states(file).decision("b")).as("forgotten in the file too").isNull();
    }

    @Test
    void decisionsOfOtherServersStayUntilTheirServerComesBack() {
        Path file = dir.resolve("state.properties");
        OperatorStates states = states(file);
        Server gone = server("n1", ServerState.ACTIVE);
        states.act(gone, Server.AdminState.DISABLED, "ops from 10.0.0.7");

        OperatorStates next = states(file);
        next.apply(List.of(server("a", ServerState.ACTIVE)));
        Server back = server("n1", ServerState.ACTIVE);
        next.apply(List.of(back));

        assertThat(back.adminState()).isEqualTo(Server.AdminState.DISABLED);
    }

    @Test
    void aStoreThatCannotBeWrittenKeepsTheDecisionOnThisNodeAndSaysWhy() throws Exception {
        Path blocker = Files.writeString(dir.resolve("not-a-directory"), "x");
        OperatorStates states = states(blocker.resolve("state.properties"));
        Server b = server("b", ServerState.ACTIVE);

        OperatorStates.Outcome outcome = states.act(b, Server.AdminState.DISABLED, "ops from 10.0.0.7");

        assertThat(b.adminState()).isEqualTo(Server.AdminState.DISABLED);
        assertThat(outcome.problem()).startsWith("cannot ").contains(blocker.resolve("state.properties").toString())
                .endsWith("Not a directory");
        assertThat(states.lastFailure()).isEqualTo(outcome.problem());
    }

    @Test
    void twoNodesSharingAStoreSeeEachOthersDecisionsAtTheirNextRefresh() {
        Path file = dir.resolve("shared.properties");
        OperatorStates node1 = states(file);
        OperatorStates node2 = states(file);
        Server b1 = server("b", ServerState.ACTIVE);
        Server b2 = server("b", ServerState.ACTIVE);
        node1.apply(List.of(b1));
        node2.apply(List.of(b2));

        node1.act(b1, Server.AdminState.DRAINED, "ops from 10.0.0.7");
        node2.refresh(List.of(b2));

        assertThat(b2.adminState()).isEqualTo(Server.AdminState.DRAINED);
        assertThat(b2.adminChange().by()).isEqualTo("ops from 10.0.0.7");
    }

    @Test
    void withoutAStoreDecisionsHoldUntilTheRestartOnly() throws Exception {
        OperatorStates memory = OperatorStates.open(new OperatorConfig(null, null), clock::get);
        Server b = server("b", ServerState.ACTIVE);

        memory.act(b, Server.AdminState.DRAINED, "ops from 10.0.0.7");
        Server rebuilt = server("b", ServerState.ACTIVE);
        memory.apply(List.of(rebuilt));

        assertThat(rebuilt.adminState()).as("a rebuild (reload) keeps it").isEqualTo(Server.AdminState.DRAINED);
        assertThat(memory.where()).isEqualTo("until the restart only");
    }

    @Test
    void aDamagedLineIsLeftOutAndItsServerFollowsTheConfiguration() throws Exception {
        Path file = Files.writeString(dir.resolve("state.properties"), "# jwd\nb=DRAINED|ACTIVE|1|ops\nc=SLEEPY|x\n");
        OperatorStates states = states(file);
        Server b = server("b", ServerState.ACTIVE);
        Server c = server("c", ServerState.ACTIVE);

        states.apply(List.of(b, c));

        assertThat(b.adminState()).isEqualTo(Server.AdminState.DRAINED);
        assertThat(c.adminState()).isEqualTo(Server.AdminState.ENABLED);
    }
}
