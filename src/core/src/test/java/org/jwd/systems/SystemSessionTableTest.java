package org.jwd.systems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jwd.systems.Props.systems;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.config.ConfigException;
import org.jwd.sessiontable.DisabledSessionTable;
import org.jwd.sessiontable.EhcacheSessionTable;
import org.jwd.sessiontable.SessionTimeouts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SystemSessionTableTest {
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private EhcacheSessionTable shared;
    private SystemSessionTable erp;
    private SystemSessionTable prt;

    @BeforeEach
    void setUp() throws ConfigException {
        Systems systems = systems("wdisp/system_0", "SID=ERP, SRCURL=/sap/", "wdisp/system_1", "SID=PRT, SRCURL=/irj/");
        shared = new EhcacheSessionTable(Duration.ofMinutes(30), 2, 2, 0, clock::get, null);
        erp = new SystemSessionTable(shared, systems.system("ERP"));
        prt = new SystemSessionTable(shared, systems.system("PRT"));
    }

    @AfterEach
    void tearDown() {
        shared.close();
    }

    @Test
    void bindsLooksUpAndRebindsUnderTheSystemsSidInTheSharedTable() {
        assertThat(erp.bind("s", "j1")).isEqualTo("j1");

        assertThat(shared.peek("ERP/s")).isEqualTo("j1");
        assertThat(erp.peek("s")).isEqualTo("j1");
        assertThat(erp.lookup("s")).isEqualTo("j1");
        assertThat(prt.peek("s")).isNull();

        assertThat(erp.rebind("s", "j1", "j2")).isEqualTo("j2");
        assertThat(shared.peek("ERP/s")).isEqualTo("j2");
    }

    @Test
    void aTouchRenewsTheSystemsEntryAndIdleLeftReadsIt() {
        erp.bind("s", "j1");
        clock.addAndGet(Duration.ofMinutes(20).toMillis());
        assertThat(erp.idleLeft("s")).isEqualTo(Duration.ofMinutes(10));

        erp.touch("s");

        assertThat(erp.idleLeft("s")).isEqualTo(Duration.ofMinutes(30));
        assertThat(prt.idleLeft("s")).isNull();
    }

    @Test
    void theTablesFiguresStateAndTimeoutsAreTheSharedTables() {
        erp.bind("a", "j1");
        prt.bind("a", "j1");

        assertThat(erp.isFull()).isTrue();
        assertThat(erp.stats()).isEqualTo(shared.stats());
        assertThat(erp.stats().entries()).isEqualTo(2);
        assertThat(erp.clusterState()).isEqualTo(shared.clusterState()).isNotNull();
        assertThat(erp.clusterStatus()).isEqualTo(shared.clusterStatus()).isNotNull();
        assertThat(erp.persistence()).isEqualTo(shared.persistence()).isNotNull();
        assertThat(erp.canChangeTimeout()).isTrue();

        erp.changeTimeouts(SessionTimeouts.both(Duration.ofMinutes(5)));

        assertThat(shared.timeouts()).isEqualTo(SessionTimeouts.both(Duration.ofMinutes(5)));
    }

    @Test
    void closingOneSystemsViewLeavesTheSharedTableOpen() {
        erp.close();

        assertThat(prt.bind("s", "j1")).isEqualTo("j1");
        assertThat(erp).hasToString("system ERP in " + shared);
    }
    @Test
    void aSystemsViewOfATableThatKeepsItsTimeoutCannotChangeItEither() {
        SystemSessionTable view = new SystemSessionTable(DisabledSessionTable.INSTANCE, SystemEntry.implicit());

        assertThat(view.canChangeTimeout()).isFalse();
    }
}
