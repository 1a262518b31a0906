package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class CapacityAccountingTest {

    private final AtomicLong removed = new AtomicLong();
    private final AtomicInteger removalReads = new AtomicInteger();

    private CapacityAccounting accounting(long capacity) {
        return new CapacityAccounting(capacity, () -> {
            removalReads.incrementAndGet();
            return removed.get();
        });
    }

    @Test
    void reservesUpToTheCapacityAndNoMore() {
        CapacityAccounting places = accounting(2);
        assertThat(places.reserve()).isTrue();
        assertThat(places.reserve()).isTrue();
        assertThat(places.hasRoom()).isFalse();
        assertThat(places.reserve()).isFalse();
        assertThat(places.live()).isEqualTo(2);
    }

    @Test
    void aRemovalMakesRoomOnceTheRemovalsAreReadAgain() {
        CapacityAccounting places = accounting(2);
        places.reserve();
        places.reserve();
        removed.set(1);
        assertThat(places.hasRoom()).isTrue();
        assertThat(places.reserve()).isTrue();
        assertThat(places.reserve()).isFalse();
        assertThat(places.live()).isEqualTo(2);
    }

    @Test
    void aReservationReadsTheRemovalsAgainWhenTheTableLooksFull() {
        CapacityAccounting places = accounting(2);
        places.reserve();
        places.reserve();
        removed.set(1);

        assertThat(places.reserve()).isTrue();
        assertThat(places.reserve()).isFalse();
    }

    @Test
    void removalsReadOnceServeEveryCheckUntilTheTableLooksFullAgain() {
        CapacityAccounting places = accounting(10);
        for (int i = 0; i < 10; i++) {
            places.reserve();
        }
        removed.set(5);
        assertThat(places.hasRoom()).isTrue();
        assertThat(removalReads).hasValue(1);

        for (int i = 0; i < 3; i++) {
            assertThat(places.reserve()).isTrue();
        }
        assertThat(places.hasRoom()).isTrue();
        assertThat(removalReads).as("8 of 10 by the removals read before").hasValue(1);
        assertThat(places).hasToString("CapacityAccounting[8 of 10]");
    }

    @Test
    void aReleasedReservationFreesItsPlace() {
        CapacityAccounting places = accounting(1);
        assertThat(places.reserve()).isTrue();
        places.release();
        assertThat(places.live()).isZero();
        assertThat(places.reserve()).isTrue();
    }

    @Test
    void whileThereIsRoomTheRemovalsAreNotReadAgain() {
        CapacityAccounting places = accounting(100);
        for (int i = 0; i < 99; i++) {
            places.reserve();
            places.hasRoom();
        }
        assertThat(removalReads).as("one read per check only once it looks full").hasValue(0);
        places.reserve();
        assertThat(places.hasRoom()).isFalse();
        assertThat(removalReads).hasValue(1);
    }

    @Test
    void liveNeverGoesBelowZero() {
        CapacityAccounting places = accounting(3);
        removed.set(5);
        assertThat(places.live()).isZero();
    }

    @Test
    void concurrentReservationsNeverExceedTheCapacity() throws Exception {
        CapacityAccounting places = accounting(100);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        AtomicInteger granted = new AtomicInteger();
        try {
            CyclicBarrier start = new CyclicBarrier(8);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 50; i++) {
                        if (places.reserve()) {
                            granted.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(granted).hasValue(100);
        assertThat(places.live()).isEqualTo(100);
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThatThrownBy(() -> accounting(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity must be positive: 0");
    }
}
