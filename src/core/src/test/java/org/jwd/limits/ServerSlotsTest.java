package org.jwd.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.jwd.limits.ServerSlots.Admission;
import org.junit.jupiter.api.Test;

class ServerSlotsTest {
    private final List<String> admitted = new ArrayList<>();

    private ServerSlots.Waiter waiter(String name) {
        return () -> admitted.add(name);
    }

    @Test
    void admitsUpToMaxConnectionsQueuesUpToMaxQueueAndRejectsTheRest() {
        ServerSlots slots = new ServerSlots(2, 1);

        assertThat(slots.acquire(waiter("a"))).isEqualTo(Admission.ADMITTED);
        assertThat(slots.acquire(waiter("b"))).isEqualTo(Admission.ADMITTED);
        assertThat(slots.hasRoom()).isFalse();
        assertThat(slots.acquire(waiter("c"))).isEqualTo(Admission.QUEUED);
        assertThat(slots.acquire(waiter("d"))).isEqualTo(Admission.REJECTED);

        assertThat(slots.active()).isEqualTo(2);
        assertThat(slots.queued()).isEqualTo(1);
        assertThat(slots.rejected()).isEqualTo(1);
        assertThat(admitted).isEmpty();
    }

    @Test
    void aReleasedSlotPassesToTheFirstWaiterInOrder() {
        ServerSlots slots = new ServerSlots(1, LimitsConfig.ServerLimit.UNBOUNDED);
        slots.acquire(waiter("a"));
        for (String name : List.of("b", "c", "d")) {
            assertThat(slots.acquire(waiter(name))).isEqualTo(Admission.QUEUED);
        }

        slots.release();
        slots.release();

        assertThat(admitted).containsExactly("b", "c");
        assertThat(slots.active()).isEqualTo(1);
        assertThat(slots.queued()).isEqualTo(1);
        slots.release();
        slots.release();
        assertThat(admitted).containsExactly("b", "c", "d");
        assertThat(slots.active()).isZero();
        assertThat(slots.hasRoom()).isTrue();
    }

    @Test
    void anAbandonedWaiterIsNeverAdmittedAndOneAdmittedCannotBeAbandoned() {
        ServerSlots slots = new ServerSlots(1, 5);
        slots.acquire(waiter("a"));
        ServerSlots.Waiter b = waiter("b");
        ServerSlots.Waiter c = waiter("c");
        slots.acquire(b);
        slots.acquire(c);

        assertThat(slots.abandon(b, true)).isTrue();
        slots.release();

        assertThat(admitted).containsExactly("c");
        assertThat(slots.abandon(c, true)).isFalse();
        assertThat(slots.timedOut()).isEqualTo(1);
        assertThat(slots.queued()).isZero();
    }

    @Test
    void withoutALimitEveryRequestIsAdmittedAndNothingIsCounted() {
        ServerSlots slots = ServerSlots.UNLIMITED;
        for (int i = 0; i < 1000; i++) {
            assertThat(slots.acquire(waiter("x"))).isEqualTo(Admission.ADMITTED);
        }
        slots.release();

        assertThat(slots.isLimited()).isFalse();
        assertThat(slots.hasRoom()).isTrue();
        assertThat(slots.active()).isZero();
    }

    @Test
    void aZeroQueueRejectsAsSoonAsTheSlotsAreTaken() {
        ServerSlots slots = new ServerSlots(1, 0);
        slots.acquire(waiter("a"));

        assertThat(slots.acquire(waiter("b"))).isEqualTo(Admission.REJECTED);
    }
}
