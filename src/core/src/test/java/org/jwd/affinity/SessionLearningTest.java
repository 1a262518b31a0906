package org.jwd.affinity;

import org.jwd.runtime.ConfigReader;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.jwd.config.ConfigException;
import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Topology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.jwd.sessiontable.SessionTables;
import org.jwd.sessiontable.SessionTable;

class SessionLearningTest {
    private static final String LANDSCAPE = """
            server.j1.url = http://java1:50000
            server.j1.type = j2ee
            server.j1.lb_id = (J2EE1)j1
            server.a1.url = http://abap1:8000
            server.a1.type = abap
            """;

    private SessionTable table;
    private Topology topology;
    private final LearnedRoutes learnedRoutes = new LearnedRoutes();

    private SessionLearning learning(String extra) throws ConfigException {
        DispatcherConfig config = ConfigReader.parse(LANDSCAPE + extra, "test");
        topology = Topology.of(config);
        table = SessionTables.create(config);
        return new SessionLearning(config, topology, table, learnedRoutes);
    }

    @AfterEach
    void closeTable() throws Exception {
        table.close();
    }

    @Test
    void aJsessionidAServerSetsIsBoundToItAndTeachesItsRoute() throws ConfigException {
        SessionLearning learning = learning("");

        String added = learning.answered(topology.server("j1"), List.of("JSESSIONID=4F2A.n7; Path=/; HttpOnly"), false);

        assertThat(added).as("wdisp/add_saplb_cookie is off by default").isNull();
        assertThat(table.lookup("4F2A.n7")).isEqualTo("j1");
        assertThat(learnedRoutes.serverFor("n7")).isEqualTo("j1");
    }

    @Test
    void withAddSaplbCookieAJ2eeServerStartingASessionGetsASaplbCookieSecureOverHttps() throws ConfigException {
        SessionLearning learning = learning("wdisp/add_saplb_cookie = true\n");

        assertThat(learning.answered(topology.server("j1"), List.of("JSESSIONID=1; Path=/"), false))
                .isEqualTo("saplb_*=(J2EE1)j1; Path=/");
        assertThat(learning.answered(topology.server("j1"), List.of("JSESSIONID=2; Path=/"), true))
                .isEqualTo("saplb_*=(J2EE1)j1; Path=/; Secure");
    }

    @Test
    void noSaplbCookieIsAddedWhenTheServerSetsItsOwnOrStartsNoSessionOrIsAbap() throws ConfigException {
        SessionLearning learning = learning("wdisp/add_saplb_cookie = true\n");

        assertThat(learning.answered(topology.server("j1"),
                List.of("JSESSIONID=3; Path=/", "saplb_PORTAL=(J2EE1)j1; Path=/"), false)).isNull();
        assertThat(learning.answered(topology.server("j1"), List.of("theme=dark"), false)).isNull();
        assertThat(learning.answered(topology.server("j1"), List.of(), false)).isNull();
        assertThat(learning.answered(topology.server("a1"), List.of("JSESSIONID=4"), false)).isNull();
        assertThat(table.lookup("3")).as("learned all the same").isEqualTo("j1");
    }

    @Test
    void withoutTheJsessionidTableNothingIsBoundButTheRouteIsStillLearned() throws ConfigException {
        SessionLearning learning = learning("wdisp/HTTP/jsessionid_tab_support = false\n");

        learning.answered(topology.server("j1"), List.of("JSESSIONID=5.n9"), false);

        assertThat(table.lookup("5.n9")).isNull();
        assertThat(learnedRoutes.serverFor("n9")).isEqualTo("j1");
    }

    @Test
    void withoutTheJsessionidTableButWithTheTemporaryOneAJsessionidAServerSetIsBoundThere() throws ConfigException {
        SessionLearning learning = learning("wdisp/HTTP/jsessionid_tab_support = false\nSessionTableTimeout = 10m\n");

        learning.answered(topology.server("j1"), List.of("JSESSIONID=6.n9"), false);

        assertThat(table.lookup("6.n9")).isNull();
        assertThat(table.lookup(org.jwd.sessiontable.SessionTimeouts.temporaryKey("6.n9"))).isEqualTo("j1");
    }
}
