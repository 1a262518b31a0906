package org.jwd.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.sessiontable.DisabledSessionTable;
import org.jwd.sessiontable.EhcacheSessionTable;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTables;
import org.jwd.sessiontable.SessionTimeouts;
import org.jwd.runtime.Bootstrap;
import org.jwd.config.DispatcherConfig;
import org.jwd.routing.RoutingDecision;
import org.jwd.routing.RoutingRequest;
import org.jwd.systems.Selection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each system's entries in the one shared session table expire after that system's own timeouts
 * ({@code system.<SID>.SessionTableTimeout}, {@code system.<SID>.wdisp/HTTP/context_timeout}); a reload that changes
 * them applies live; a system that alone keeps a table gets one. The table's clock moves by hand.
 */
class SystemSessionTimeoutsTest {
    private static final String TWO_SYSTEMS = """
            wdisp/system_0=SID=ERP, SRCURL=/sap/
            wdisp/system_1=SID=PRT, SRCURL=/irj/
            system.ERP.server.erp1.url=http://127.0.0.1:9001
            system.ERP.server.erp1.type=j2ee
            system.PRT.server.prt1.url=http://127.0.0.1:9002
            system.PRT.server.prt1.type=j2ee
            SessionTableTimeout=1h
            system.ERP.SessionTableTimeout=10m
            system.ERP.wdisp/HTTP/context_timeout=20m
            health.interval=1h
            jwd.config_watch=0
            """;

    @TempDir
    Path dir;
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private Bootstrap boot;
    private SessionTable table;

    @AfterEach
    void close() {
        if (boot != null) {
            boot.close();
        }
        if (table != null) {
            table.close();
        }
    }

    private static DispatcherConfig parse(String properties) throws Exception {
        return ConfigReader.parse(properties, "test.properties");
    }

    @Test
    void eachSystemsEntriesTakeItsOwnTimeoutsAndTheUnscopedOnesWhereItHasNone() throws Exception {
        SessionTimeouts timeouts = SessionTimeouts.of(parse(TWO_SYSTEMS));

        assertThat(timeouts.forKey("ERP/" + SessionTimeouts.temporaryKey("4711"))).isEqualTo(Duration.ofMinutes(10));
        assertThat(timeouts.forKey("ERP/4711")).as("learned: context_timeout").isEqualTo(Duration.ofMinutes(20));
        assertThat(timeouts.forKey("ERP/" + SessionTimeouts.esidKey("E1"))).isEqualTo(Duration.ofMinutes(20));
        assertThat(timeouts.forKey("PRT/" + SessionTimeouts.temporaryKey("4711"))).isEqualTo(Duration.ofHours(1));
        assertThat(timeouts.forKey("PRT/4711")).isEqualTo(Duration.ofHours(1));
        assertThat(timeouts.forKey("PRT/" + SessionTimeouts.esidKey("E1"))).isEqualTo(Duration.ofHours(1));
        assertThat(timeouts.longest()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void anErpEntryExpiresAfterErpsTimeoutWhileAprtEntryWithTheSameIdLivesOn() throws Exception {
        table = SessionTables.create(parse(TWO_SYSTEMS), clock::get);
        String erp4711 = "ERP/" + SessionTimeouts.temporaryKey("4711");
        String prt4711 = "PRT/" + SessionTimeouts.temporaryKey("4711");
        table.bind(erp4711, "erp1");
        table.bind(prt4711, "prt1");

        clock.addAndGet(Duration.ofMinutes(9).toMillis());
        assertThat(table.peek(erp4711)).isEqualTo("erp1");
        clock.addAndGet(Duration.ofMinutes(2).toMillis());

        assertThat(table.lookup(erp4711)).as("idle 11 minutes, past ERP's 10").isNull();
        assertThat(table.lookup(prt4711)).as("PRT's timeout is the unscoped hour").isEqualTo("prt1");
        clock.addAndGet(Duration.ofMinutes(59).toMillis());
        assertThat(table.lookup(prt4711)).as("59 minutes after its last use").isEqualTo("prt1");
        clock.addAndGet(Duration.ofMinutes(61).toMillis());
        assertThat(table.lookup(prt4711)).isNull();
    }

    @Test
    void aSystemThatAloneTurnsTheTemporaryTableOnGetsAtableAndItsRequestTimeBindings() throws Exception {
        DispatcherConfig config = parse("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                wdisp/system_1=SID=PRT, SRCURL=/irj/
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                system.PRT.server.prt1.url=http://127.0.0.1:9002
                system.PRT.server.prt1.type=j2ee
                SessionTableTimeout=0
                wdisp/HTTP/esid_support=false
                wdisp/HTTP/jsessionid_tab_support=false
                system.ERP.SessionTableTimeout=10m
                health.interval=1h
                """);
        assertThat(config.sessionTableEnabled()).isTrue();
        boot = Bootstrap.build(config, null);
        DispatcherState state = boot.dispatcher().state();

        RoutingDecision erp = route(state, "/sap/bc/x", "JSESSIONID=FIRST0123456789");
        RoutingDecision prt = route(state, "/irj/portal", "JSESSIONID=FIRST0123456789");

        assertThat(boot.dispatcher().sessionTable()).isNotInstanceOf(DisabledSessionTable.class);
        assertThat(erp.server().id()).isEqualTo("erp1");
        assertThat(boot.dispatcher().sessionTable().peek("ERP/temporary:FIRST0123456789")).as("bound at request time")
                .isEqualTo("erp1");
        assertThat(prt.server().id()).isEqualTo("prt1");
        assertThat(boot.dispatcher().sessionTable().peek("PRT/temporary:FIRST0123456789")).as("PRT keeps no table")
                .isNull();
        assertThat(SessionTimeouts.of(config).forKey("ERP/temporary:FIRST0123456789")).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void withoutAnySystemKeepingAtableThereIsNone() throws Exception {
        DispatcherConfig config = parse("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                wdisp/HTTP/esid_support=false
                wdisp/HTTP/jsessionid_tab_support=false
                """);

        assertThat(config.sessionTableEnabled()).isFalse();
    }

    @Test
    void aReloadThatChangesAsystemsTimeoutAppliesLiveAndKeepsEveryBinding() throws Exception {
        Path file = dir.resolve("jwd.properties");
        Files.writeString(file, TWO_SYSTEMS);
        boot = Bootstrap.build(ConfigReader.load(file), null);
        Reloader reloader = new Reloader(file, boot.dispatcher(), clock::get);
        SessionTable shared = boot.dispatcher().sessionTable();
        shared.bind("ERP/4711", "erp1");

        Files.writeString(file, TWO_SYSTEMS.replace("system.ERP.SessionTableTimeout=10m",
                "system.ERP.SessionTableTimeout=30s"));
        Reloader.Result result = reloader.reload("api");

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(result.pending()).isEmpty();
        assertThat(boot.dispatcher().sessionTable()).isSameAs(shared);
        SessionTimeouts timeouts = ((EhcacheSessionTable) shared).timeouts();
        assertThat(timeouts.forKey("ERP/" + SessionTimeouts.temporaryKey("4711"))).isEqualTo(Duration.ofSeconds(30));
        assertThat(timeouts.forKey("PRT/" + SessionTimeouts.temporaryKey("4711"))).isEqualTo(Duration.ofHours(1));
        assertThat(shared.peek("ERP/4711")).isEqualTo("erp1");
    }

    @Test
    void aSystemsKeyThatWouldCreateTheTableWaitsForArestart() throws Exception {
        String off = TWO_SYSTEMS.replace("SessionTableTimeout=1h\nsystem.ERP.SessionTableTimeout=10m\n"
                + "system.ERP.wdisp/HTTP/context_timeout=20m\n", "SessionTableTimeout=0\n"
                + "wdisp/HTTP/esid_support=false\nwdisp/HTTP/jsessionid_tab_support=false\n");
        Path file = dir.resolve("jwd.properties");
        Files.writeString(file, off);
        boot = Bootstrap.build(ConfigReader.load(file), null);
        Reloader reloader = new Reloader(file, boot.dispatcher(), clock::get);

        Files.writeString(file, off + "system.ERP.SessionTableTimeout=10m\n");
        Reloader.Result result = reloader.reload("api");

        assertThat(result.outcome()).isEqualTo(Reloader.Outcome.APPLIED);
        assertThat(result.pending()).extracting(Reloader.Pending::key).containsExactly("system.ERP.SessionTableTimeout");
        assertThat(boot.dispatcher().config().sessionTableEnabled()).as("the running value stays").isFalse();
    }

    /** Selects as the servlet does and routes with the selected system's router. */
    private static RoutingDecision route(DispatcherState state, String path, String cookie) {
        Selection selection = state.select("127.0.0.1", 8080, "jwd.example.com", get(path));
        return state.router(selection.system()).route(RoutingRequest.of("GET", path, null, List.of(cookie), false));
    }

    /** A GET of {@code path}, as the servlet would hand it to system selection. */
    private static RoutingRequest get(String path) {
        return RoutingRequest.of("GET", path, null, List.of(), false);
    }
}
