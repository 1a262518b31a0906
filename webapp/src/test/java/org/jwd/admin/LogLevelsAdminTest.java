package org.jwd.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import org.jwd.boot.LoggingSystems;
import org.jwd.runtime.Bootstrap;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code api/loglevels} on the logging system the WAR brings for other servlet containers (Jetty's SLF4J
 * implementation, as in these tests): a level set shows at once in a logger below it, the answer says until when and
 * what it returns to, {@code reset} returns it, and wrong requests are refused naming what is wrong.
 */
class LogLevelsAdminTest {
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final Logger routing = LoggerFactory.getLogger("org.jwd.routing.LogLevelsAdminTest");
    private Bootstrap boot;
    private AdminApi api;
    private AdminActions actions;

    @BeforeEach
    void start() throws Exception {
        boot = Bootstrap.build(ConfigReader.parse("""
                server.a.url=http://127.0.0.1:9001
                server.a.type=j2ee
                health.interval=1h
                """, "test.properties"), null, LoggingSystems.detect());
        api = new AdminApi(AdminContext.of(boot), new RequestHistory(10, 5000, clock::get), clock::get);
        actions = new AdminActions(AdminContext.of(boot), api);
    }

    @AfterEach
    void close() {
        boot.close();
    }

    @Test
    void aLevelSetShowsAtOnceAndResetReturnsTheConfiguredLevel() {
        assertThat(routing.isDebugEnabled()).isFalse();

        AdminApi.Answer set = actions.setLogLevel("{\"logger\":\"org.jwd.routing\",\"level\":\"debug\",\"for\":\"10m\"}",
                "oncall from 10.0.0.7");

        assertThat(set.status()).isEqualTo(200);
        assertThat(routing.isDebugEnabled()).isTrue();
        LogLevelsView view = (LogLevelsView) set.body();
        assertThat(view.changeable()).isTrue();
        assertThat(view.kept()).isEqualTo("this node only, until it restarts");
        assertThat(view.levels()).singleElement().satisfies(l -> {
            assertThat(l.logger()).isEqualTo("org.jwd.routing");
            assertThat(l.level()).isEqualTo("DEBUG");
            assertThat(l.configured()).isEqualTo("INFO");
            assertThat(l.by()).isEqualTo("oncall from 10.0.0.7");
        });
        assertThat(AdminJson.write(api.logLevels())).contains("\"default_for\":\"30m\",\"max_for\":\"24h\"",
                "{\"logger\":\"org.jwd\",\"level\":\"INFO\"}");

        assertThat(actions.setLogLevel("{\"logger\":\"org.jwd.routing\",\"level\":\"reset\"}", "oncall").status())
                .isEqualTo(200);

        assertThat(routing.isDebugEnabled()).isFalse();
        assertThat(api.logLevels().levels()).isEmpty();
    }

    @Test
    void wrongRequestsAreRefusedNamingWhatIsWrong() {
        assertThat(actions.setLogLevel("{\"logger\":\"org.jwd\",\"level\":\"loud\"}", "ops"))
                .isEqualTo(AdminApi.Answer.error(400, "level 'loud': expected TRACE, DEBUG, INFO, WARN, ERROR, OFF"));
        assertThat(actions.setLogLevel("{\"logger\":\"org.jwd\",\"level\":\"DEBUG\",\"for\":\"2d\"}", "ops").status())
                .isEqualTo(400);
        assertThat(actions.setLogLevel("{\"level\":\"DEBUG\"}", "ops").status()).isEqualTo(400);
        assertThat(actions.setLogLevel("not json", "ops").status()).isEqualTo(400);
        assertThat(actions.setLogLevel("{\"logger\":\"org.jwd\",\"level\":\"reset\"}", "ops"))
                .isEqualTo(AdminApi.Answer.error(404, "no level is set for org.jwd: it has its configured level"));
        assertThat(api.logLevels().levels()).isEmpty();
    }
}
