package org.jwd.routing;

import org.jwd.runtime.ConfigReader;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.jwd.runtime.Bootstrap;
import org.jwd.runtime.Dispatcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Balanced requests and servers whose connection slots are all taken (server.<id>.max_connections). */
class RouterConnectionLimitTest {
    private Bootstrap boot;
    private Dispatcher dispatcher;

    private Router router(String strategy) throws Exception {
        return router(strategy, "");
    }

    private Router router(String strategy, String moreLimits) throws Exception {
        boot = Bootstrap.build(ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                server.a.capacity=9
                server.a.max_connections=1
                server.b.url=http://127.0.0.1:9002
                server.b.type=j2ee
                server.c.url=http://127.0.0.1:9003
                server.c.type=j2ee
                server.c.max_connections=1
                wdisp/load_balancing_strategy=%s
                SessionTableTimeout=60s
                """.formatted(strategy) + moreLimits, "test.properties"), null);
        dispatcher = boot.dispatcher();
        return dispatcher.state().router();
    }

    @AfterEach
    void close() {
        boot.close();
    }

    private static RoutingRequest get(String... cookies) {
        return RoutingRequest.of("GET", "/irj/x", null, List.of(cookies), false);
    }

    private List<String> route(Router router, int requests) {
        List<String> servers = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            servers.add(router.route(get()).server().id());
        }
        return servers;
    }

    @Test
    void balancedRequestsGoToTheMembersWithRoomOnceTheLimitedOnesAreFull() throws Exception {
        for (String strategy : List.of("weighted_round_robin", "simple_weighted_round_robin")) {
            Router router = router(strategy);

            // Nothing finishes: a and c hold one request each, all the others go to b.
            List<String> servers = route(router, 12);

            assertThat(servers).as(strategy).filteredOn("a"::equals).hasSize(1);
            assertThat(servers).as(strategy).filteredOn("c"::equals).hasSize(1);
            assertThat(servers).as(strategy).filteredOn("b"::equals).hasSize(10);
            close();
        }
    }

    @Test
    void whenEveryMemberIsFullTheBalancersPickStandsAndTheRequestWaitsThere() throws Exception {
        Router router = router("weighted_round_robin", "server.b.max_connections=1\nserver.b.max_queue=5\n");
        route(router, 3);

        RoutingDecision fourth = router.route(get());

        assertThat(fourth.server()).isNotNull();
        assertThat(fourth.reason()).isEqualTo("balanced");
    }

    @Test
    void aBoundRequestGoesToItsFullServer() throws Exception {
        Router router = router("weighted_round_robin");
        dispatcher.sessionTable().bind("s1", "a");
        route(router, 3);

        RoutingDecision bound = router.route(get("JSESSIONID=s1"));

        assertThat(bound.server().id()).isEqualTo("a");
        assertThat(bound.reason()).isEqualTo("session table");
    }
}
