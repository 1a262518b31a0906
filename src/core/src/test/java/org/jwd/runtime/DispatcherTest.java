package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.jwd.runtime.Bootstrap;
import org.jwd.config.ConfigException;
import org.jwd.config.ServerConfig;
import org.jwd.registry.ServerRegistry;
import org.jwd.routing.RoutingDecision;
import org.jwd.routing.RoutingRequest;
import org.jwd.topology.Server;
import org.jwd.config.ServerType;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DispatcherTest {
    private final Bootstrap boot;
    private final Dispatcher dispatcher;

    DispatcherTest() throws Exception {
        boot = Bootstrap.build(ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                logon_group.PORTAL.url_prefixes=/irj/portal
                rdisp/autoabaptime=1
                health.interval=1h
                """, "test.properties"), null);
        dispatcher = boot.dispatcher();
    }

    @AfterEach
    void close() {
        boot.close();
    }

    private static ServerConfig registered(String id, int capacity) {
        return new ServerConfig(id, URI.create("http://127.0.0.1:9100"), null, ServerType.J2EE, capacity,
                Set.of("PORTAL"), id, id, null, "/");
    }

    private static RoutingRequest get(String path) {
        return RoutingRequest.of("GET", path, null, List.of(), false);
    }

    @Test
    void anIcfEntryOfTheRootFailsTheStartNamingTheKeyAndTheValue() throws Exception {
        var config = ConfigReader.parse("server.a.url=http://127.0.0.1:9001\nserver.a.type=j2ee\n"
                + "icf.url_prefixes=/sap/bc/, icase:/./\n", "test.properties");

        assertThatThrownBy(() -> Bootstrap.build(config, null).close())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("icf.url_prefixes = '/sap/bc/,icase:/./': URL prefix '/' refused: it "
                        + "covers every URL");
    }

    @Test
    void aRegisteredServerJoinsTheTopologyAndTheServersThatStayKeepTheirObjects() {
        Server a = dispatcher.state().topology().server("a");
        dispatcher.operator().act(a, Server.AdminState.DRAINED, "ops from 127.0.0.1");
        DispatcherState before = dispatcher.state();

        assertThat(dispatcher.register(registered("n1", 2))).isEqualTo(ServerRegistry.Outcome.REGISTERED);

        DispatcherState after = dispatcher.state();
        assertThat(after).isNotSameAs(before);
        assertThat(after.router()).isNotSameAs(before.router());
        assertThat(after.topology().server("a")).isSameAs(a);
        assertThat(a.adminState()).isEqualTo(Server.AdminState.DRAINED);
        assertThat(after.topology().internalGroup("!J2EE").members()).extracting(Server::id).containsExactly("a", "n1");
        assertThat(after.topology().logonGroup("PORTAL", ServerType.J2EE, false).members()).extracting(Server::id)
                .containsExactly("n1");
        assertThat(dispatcher.health().servers()).extracting(Server::id).containsExactly("a", "n1");
        // a drained server takes no new requests: the new one gets them
        RoutingDecision d = dispatcher.state().router().route(get("/irj/x"));
        assertThat(d.server().id()).isEqualTo("n1");
        d.finish(false);
    }

    @Test
    void learnedRoutesOutliveARebuiltRouterAndLeaveWithTheirServer() {
        RoutingDecision toA = dispatcher.state().router().route(get("/irj/x"));
        dispatcher.state().router().sessionLearning().learn(toA.server(), List.of("JSESSIONID=4F2A.tcA; Path=/; HttpOnly"));
        toA.finish(false);
        dispatcher.register(registered("n1", 1));
        RoutingDecision toN1 = dispatcher.state().router().route(RoutingRequest.of("GET", "/irj/portal", null,
                List.of(), false));
        dispatcher.state().router().sessionLearning().learn(toN1.server(), List.of("JSESSIONID=77C0.tcN"));
        toN1.finish(false);

        assertThat(dispatcher.deregister("n1")).isTrue();

        RoutingDecision next = dispatcher.state().router().route(RoutingRequest.of("GET", "/irj/x", null,
                List.of("JSESSIONID=9B31.tcA"), false));
        assertThat(next.server().id()).isEqualTo("a");
        assertThat(next.reason()).isEqualTo("route suffix (learned)");
        next.finish(false);
        assertThat(dispatcher.state().router().learnedRoutes().routeOf("a")).isEqualTo("tcA");
        assertThat(dispatcher.state().router().learnedRoutes().serverFor("tcN")).isNull();
    }

    @Test
    void aHeartbeatChangesNothing() {
        dispatcher.register(registered("n1", 2));
        DispatcherState before = dispatcher.state();

        assertThat(dispatcher.register(registered("n1", 2))).isEqualTo(ServerRegistry.Outcome.RENEWED);

        assertThat(dispatcher.state()).isSameAs(before);
    }

    @Test
    void aChangedDescriptionMakesANewServerThatKeepsTheOperatorsChoice() {
        dispatcher.register(registered("n1", 2));
        Server first = dispatcher.state().topology().server("n1");
        dispatcher.operator().act(first, Server.AdminState.DISABLED, "ops from 127.0.0.1");

        assertThat(dispatcher.register(registered("n1", 3))).isEqualTo(ServerRegistry.Outcome.CHANGED);

        Server second = dispatcher.state().topology().server("n1");
        assertThat(second).isNotSameAs(first);
        assertThat(second.capacity()).isEqualTo(3);
        assertThat(second.adminState()).isEqualTo(Server.AdminState.DISABLED);
        assertThat(dispatcher.health().servers()).contains(second).doesNotContain(first);
    }

    @Test
    void aRequestInFlightFinishesOnItsOwnServerObjectWhileTheTopologyChanges() {
        dispatcher.register(registered("n1", 1));
        dispatcher.state().topology().server("a").setState(Server.State.DISABLED);
        RoutingDecision inFlight = dispatcher.state().router().route(get("/irj/x"));
        Server n1 = inFlight.server();
        assertThat(n1.inFlight()).isEqualTo(1);

        dispatcher.deregister("n1");
        inFlight.finish(false);

        assertThat(dispatcher.state().topology().server("n1")).isNull();
        assertThat(n1.inFlight()).isZero();
        assertThat(n1.served()).isEqualTo(1);
        assertThat(dispatcher.health().servers()).extracting(Server::id).containsExactly("a");
    }

    @Test
    void serversOfTheConfigurationFileCannotRegister() {
        assertThatThrownBy(() -> dispatcher.register(registered("a", 1))).isInstanceOf(IllegalArgumentException.class);
        assertThat(dispatcher.deregister("a")).isFalse();
    }

    @Test
    void registeredServersExpireWhenTheyStopReportingAndConfiguredOnesStay() {
        boot.start();
        dispatcher.register(registered("n1", 1));

        await().atMost(Duration.ofSeconds(5)).until(() -> dispatcher.state().topology().server("n1") == null);

        assertThat(dispatcher.state().topology().servers().keySet()).containsExactly("a");
        assertThat(dispatcher.registry().servers()).isEmpty();
    }
}
