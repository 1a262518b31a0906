package org.jwd.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class ClientAddressTableTest {
    private final AtomicLong now = new AtomicLong();
    private final ClientAddressTable table = new ClientAddressTable(TimeUnit.SECONDS.toNanos(60), 2, now::get);

    private void at(long seconds) {
        now.set(TimeUnit.SECONDS.toNanos(seconds));
    }

    @Test
    void followsTheSequenceOfItsJavadoc() {
        at(0);
        table.bind("A", "s1");
        at(10);
        table.bind("B", "s2");
        at(20);
        assertThat(table.lookup("A")).isEqualTo("s1");
        at(30);
        table.bind("C", "s1");
        assertThat(table.size()).isEqualTo(2);
        assertThat(table.forgotten()).isEqualTo(1);
        assertThat(table.lookup("B")).isNull();
        at(85);
        assertThat(table.lookup("C")).isEqualTo("s1");
        at(95);
        assertThat(table.lookup("A")).isNull();
        assertThat(table.lookup("C")).isEqualTo("s1");
    }

    @Test
    void anEntryExpiresOneTimeoutAfterItWasLastSeen() {
        at(0);
        table.bind("A", "s1");
        at(59);
        assertThat(table.lookup("A")).isEqualTo("s1");
        at(118);
        assertThat(table.lookup("A")).isEqualTo("s1");
        at(178);
        assertThat(table.lookup("A")).isNull();
    }

    @Test
    void expiredEntriesAreDroppedWhenTheNextIsBoundNotCountedAsForgotten() {
        at(0);
        table.bind("A", "s1");
        table.bind("B", "s1");
        at(100);
        table.bind("C", "s2");

        assertThat(table.size()).isEqualTo(1);
        assertThat(table.forgotten()).isZero();
    }

    @Test
    void rebindingReplacesTheServer() {
        table.bind("A", "s1");
        table.bind("A", "s2");

        assertThat(table.lookup("A")).isEqualTo("s2");
        assertThat(table.size()).isEqualTo(1);
    }
}
