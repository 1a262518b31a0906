package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.nio.file.Path;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.config.DispatcherConfig;
import org.jwd.runtime.ConfigReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionTablesTest {

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

    private static DispatcherConfig config(String extra) throws Exception {
        return ConfigReader.parse("server.s1.url = http://localhost:8001\nserver.s1.type = j2ee\n" + extra, "test");
    }

    @Test
    void everyPartOffTurnsTheTableOff() throws Exception {
        DispatcherConfig config = config("""
                SessionTableTimeout = 0
                wdisp/HTTP/esid_support = false
                wdisp/HTTP/jsessionid_tab_support = false
                """);
        assertThat(config.sessionTableEnabled()).isFalse();
        assertThat(SessionTables.create(config)).isSameAs(DisabledSessionTable.INSTANCE);
        assertThat(SessionTables.create(config, clock::get)).isSameAs(DisabledSessionTable.INSTANCE);
    }

    @Test
    void sapsSessionIdTableIsOnByDefaultWithSapsTimeoutAndTheTemporaryTableOff() throws Exception {
        DispatcherConfig config = config("");
        assertThat(config.sessionTableEnabled()).isTrue();
        assertThat(config.sessions().temporaryTableEnabled()).isFalse();
        try (SessionTable table = SessionTables.create(config, clock::get)) {
            assertThat(((EhcacheSessionTable) table).timeouts()).isEqualTo(SessionTimeouts.both(Duration.ofHours(1)));
            assertThat(((EhcacheSessionTable) table).capacity()).isEqualTo(1_000_000);
        }
    }

    @Test
    void theTemporaryTablesTimeoutGovernsRequestTimeBindingsAndContextTimeoutTheSessionIdTable() throws Exception {
        DispatcherConfig config = config("SessionTableTimeout = 10m\nwdisp/HTTP/context_timeout = 1800\n");
        try (SessionTable table = SessionTables.create(config, clock::get)) {
            table.bind(SessionTimeouts.temporaryKey("bound"), "s1");
            table.bind("learned", "s3");
            table.bind(SessionTimeouts.esidKey("esid"), "s2");
            clock.addAndGet(Duration.ofMinutes(10).plusSeconds(1).toMillis());
            assertThat(table.peek(SessionTimeouts.temporaryKey("bound"))).isNull();
            assertThat(table.peek("learned")).isEqualTo("s3");
            assertThat(table.peek(SessionTimeouts.esidKey("esid"))).isEqualTo("s2");
            clock.addAndGet(Duration.ofMinutes(20).toMillis());
            assertThat(table.peek("learned")).isNull();
            assertThat(table.peek(SessionTimeouts.esidKey("esid"))).isNull();
        }
    }

    @Test
    void aPeekLeavesTheIdleTimeAsItIs() throws Exception {
        try (SessionTable table = SessionTables.create(config("SessionTableTimeout = 10m\n"), clock::get)) {
            String id = SessionTimeouts.temporaryKey("id");
            table.bind(id, "s1");
            clock.addAndGet(Duration.ofMinutes(6).toMillis());
            assertThat(table.peek(id)).isEqualTo("s1");
            clock.addAndGet(Duration.ofMinutes(6).toMillis());
            assertThat(table.peek(id)).as("the peek did not renew it").isNull();
            table.bind(id, "s1");
            clock.addAndGet(Duration.ofMinutes(6).toMillis());
            table.touch(id);
            clock.addAndGet(Duration.ofMinutes(6).toMillis());
            assertThat(table.peek(id)).as("the touch renewed it").isEqualTo("s1");
            assertThat(table.stats().hits() + table.stats().misses()).as("neither counts").isZero();
        }
    }

    @Test
    void disabledTableStoresNothingAndBindReturnsTheGivenServer() {
        SessionTable table = DisabledSessionTable.INSTANCE;
        assertThat(table.bind("id", "s1")).isEqualTo("s1");
        assertThat(table.bind("id", "s2")).isEqualTo("s2");
        assertThat(table.lookup("id")).isNull();
        assertThat(table.rebind("id", "s1", "s3")).isEqualTo("s3");
        assertThat(table.lookup("id")).isNull();
        assertThat(table.stats()).isEqualTo(new SessionTableStats(0, 0, 0, 0, 0, 0, 0));
        table.close();
        assertThat(table.bind("id", "s4")).isEqualTo("s4");
    }

    @Test
    void enabledTableTakesTheConfiguredFigures() throws Exception {
        DispatcherConfig config = config("""
                SessionTableTimeout = 10m
                wdisp/HTTP/max_session_tab_entries = 3
                """);
        try (SessionTable table = SessionTables.create(config, clock::get)) {
            assertThat(table).isInstanceOf(EhcacheSessionTable.class);
            EhcacheSessionTable ehcache = (EhcacheSessionTable) table;
            assertThat(ehcache.timeouts()).isEqualTo(new SessionTimeouts(Duration.ofHours(1), Duration.ofHours(1),
                    Duration.ofMinutes(10)));
            assertThat(ehcache.capacity()).isEqualTo(3);
            assertThat(ehcache.offHeap()).isFalse();
            table.bind(SessionTimeouts.temporaryKey("a"), "s1");
            clock.addAndGet(Duration.ofMinutes(10).plusSeconds(1).toMillis());
            assertThat(table.lookup(SessionTimeouts.temporaryKey("a"))).isNull();
            assertThat(table.stats().expirations()).isEqualTo(1);
        }
    }

    @Test
    void offHeapConfiguration() throws Exception {
        DispatcherConfig config = config("""
                SessionTableTimeout = 30s
                wdisp/HTTP/max_session_tab_entries = 1000
                SessionTable.heap_entries = 100
                SessionTable.offheap_MB = 4
                """);
        try (EhcacheSessionTable table = (EhcacheSessionTable) SessionTables.create(config)) {
            assertThat(table.offHeap()).isTrue();
            assertThat(table.capacity()).isEqualTo(1000);
            assertThat(table.bind("a", "s1")).isEqualTo("s1");
            assertThat(table.lookup("a")).isEqualTo("s1");
        }
    }

    @Test
    void sweepIntervalIsTheTimeoutWithinOneSecondAndOneMinute() {
        assertThat(SessionTables.sweepInterval(Duration.ofMillis(200))).isEqualTo(Duration.ofSeconds(1));
        assertThat(SessionTables.sweepInterval(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(30));
        assertThat(SessionTables.sweepInterval(Duration.ofHours(2))).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void aTableOnDiskKeepsBindingsToEverySystemsServersAcrossARestart(@TempDir Path dir) throws Exception {
        DispatcherConfig config = ConfigReader.parse("""
                wdisp/system_0=SID=ERP, SRCURL=/sap/
                system.ERP.server.erp1.url=http://127.0.0.1:9001
                system.ERP.server.erp1.type=j2ee
                SessionTable.disk_path=table
                """, "test", dir);
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
        try {
            try (SessionTable table = SessionTables.create(config, scheduler)) {
                assertThat(table).isInstanceOf(PersistentSessionTable.class);
                table.bind("s1", "erp1");
            }
            try (SessionTable table = SessionTables.create(config, scheduler)) {
                assertThat(table.peek("s1")).isEqualTo("erp1");
            }
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void aTableOffAnswersAsAnEmptyTableThatCannotChangeItsTimeout() {
        SessionTable off = DisabledSessionTable.INSTANCE;
        off.bind("s1", "a");

        assertThat(off.peek("s1")).isNull();
        assertThat(off.isFull()).isFalse();
        assertThat(off.canChangeTimeout()).isFalse();
        assertThat(off.clusterStatus().clustered()).isFalse();
        assertThat(off).hasToString("DisabledSessionTable");
    }

    @Test
    void serverIdsAreSharedUpToTheLimitThenKeptAsGiven() {
        ServerIds ids = new ServerIds();
        for (int i = 0; i < ServerIds.MAX_SHARED; i++) {
            ids.shared("server" + i);
        }
        String first = new String("late");
        String second = new String("late");

        assertThat(ids.shared(first)).isSameAs(first);
        assertThat(ids.shared(second)).as("not shared: the limit was reached").isSameAs(second);
        String known = new String("server7");
        assertThat(ids.shared(known)).isEqualTo("server7").isNotSameAs(known);
    }

    @Test
    void closingTheCacheClosesEhcachesManager() {
        SessionCache cache = new SessionCache(10, 0, new IdleExpiry(SessionTimeouts.both(Duration.ofMinutes(1))),
                clock::get);
        cache.cache().put("s1", "a");

        cache.close();

        assertThatThrownBy(() -> cache.cache().get("s1")).isInstanceOf(IllegalStateException.class);
    }
}
