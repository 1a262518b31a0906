package org.jwd.routing;

import org.jwd.sessiontable.SessionTimeouts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jwd.runtime.Bootstrap;
import org.jwd.runtime.Dispatcher;
import org.jwd.sessiontable.SessionTableStats;
import org.jwd.topology.Server;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RouterExplainTest {
    private final Bootstrap boot;
    private final Dispatcher dispatcher;
    private final Router router;

    RouterExplainTest() throws Exception {
        boot = Bootstrap.build(ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                server.b.url=http://127.0.0.1:9002
                server.b.type=j2ee
                server.b.capacity=2
                icf.url_prefixes=/sap/
                SessionTableTimeout=60s
                """, "test.properties"), null);
        dispatcher = boot.dispatcher();
        router = dispatcher.state().router();
    }

    @AfterEach
    void close() {
        boot.close();
    }

    private static RoutingRequest get(String path, String... cookies) {
        return RoutingRequest.of("GET", path, null, List.of(cookies), false);
    }

    private String counts() {
        StringBuilder sb = new StringBuilder();
        for (Server s : dispatcher.state().topology().servers().values()) {
            sb.append(s.id()).append(' ').append(s.inFlight()).append(' ').append(s.served()).append(' ')
                    .append(s.statefulRequests()).append("; ");
        }
        return sb + dispatcher.sessionTable().stats().toString()
                + router.balancer(dispatcher.state().topology().internalGroup("!J2EE")).snapshot();
    }

    @Test
    void explainsAStatelessRequestWithTheFavoriteAndChangesNothing() {
        String before = counts();

        Explanation first = router.explain(get("/irj/x"));
        Explanation second = router.explain(get("/irj/x"));

        assertThat(counts()).isEqualTo(before);
        assertThat(first.server()).isSameAs(second.server()).isNotNull();
        assertThat(first.reason()).isEqualTo("balanced");
        assertThat(first.bound()).isFalse();
        assertThat(first.group().name()).isEqualTo("!J2EE");
        assertThat(first.classification().rule()).isEqualTo(Classification.DEFAULT);
        assertThat(first.target()).isEqualTo(first.server().config().url() + "/irj/x");
        // the favorite is where the next request goes
        RoutingDecision routed = router.route(get("/irj/x"));
        assertThat(routed.server()).isSameAs(first.server());
        routed.finish(false);
    }

    @Test
    void explainsAFirstSessionRequestWithoutBindingIt() {
        SessionTableStats before = dispatcher.sessionTable().stats();

        Explanation e = router.explain(get("/irj/x", "JSESSIONID=s1"));

        assertThat(e.reason()).isEqualTo("session table bind");
        assertThat(e.sessionIds().jsessionid()).isEqualTo("s1");
        assertThat(dispatcher.sessionTable().stats()).isEqualTo(before);
        assertThat(dispatcher.sessionTable().peek("s1")).isNull();
    }

    @Test
    void explainsABoundSessionWithoutCountingAHit() {
        RoutingDecision routed = router.route(get("/irj/x", "JSESSIONID=s2"));
        routed.finish(false);
        SessionTableStats before = dispatcher.sessionTable().stats();

        Explanation e = router.explain(get("/irj/x", "JSESSIONID=s2"));

        assertThat(e.server()).isSameAs(routed.server());
        assertThat(e.reason()).isEqualTo("session table");
        assertThat(e.bound()).isTrue();
        assertThat(dispatcher.sessionTable().stats()).isEqualTo(before);
    }

    @Test
    void explainsARebindWithoutRebinding() {
        RoutingDecision routed = router.route(get("/irj/x", "JSESSIONID=s3"));
        routed.finish(false);
        routed.server().setState(Server.State.DOWN);

        Explanation e = router.explain(get("/irj/x", "JSESSIONID=s3"));

        assertThat(e.server()).isNotSameAs(routed.server());
        assertThat(e.reason()).isEqualTo("session table rebind from " + routed.server().id());
        assertThat(dispatcher.sessionTable().peek(SessionTimeouts.temporaryKey("s3"))).isEqualTo(routed.server().id());
    }

    @Test
    void explainsRefusals() {
        Explanation abap = router.explain(get("/sap/bc/gui"));
        assertThat(abap.errorStatus()).isEqualTo(503);
        assertThat(abap.classification().rule()).isEqualTo(Classification.ICF_PREFIX);
        assertThat(abap.classification().matchedPrefix()).isEqualTo("/sap/");
        assertThat(abap.server()).isNull();

        Explanation bad = router.explain(get("/a/%2e%2e/%2e%2e/etc"));
        assertThat(bad.errorStatus()).isEqualTo(400);
        assertThat(bad.classification()).isNull();
    }

    @Test
    void explainsWithNoActiveServer() {
        dispatcher.state().topology().servers().values().forEach(s -> s.setState(Server.State.DISABLED));

        Explanation e = router.explain(get("/irj/x"));

        assertThat(e.errorStatus()).isEqualTo(503);
        assertThat(e.server()).isNull();
    }
}
