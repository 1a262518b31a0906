package org.jwd.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.eclipse.jetty.util.Pool;
import org.junit.jupiter.api.Test;

/** The server connections' pool: its order, its bound, removal and termination, and one holder per entry. */
class IdleStackPoolTest {
    private static Pool.Entry<String> idle(Pool<String> pool, String object) {
        Pool.Entry<String> entry = pool.reserve();
        assertThat(entry.enable(object, false)).isTrue();
        return entry;
    }

    private static <T> List<T> acquireAll(Pool<T> pool) {
        List<T> acquired = new ArrayList<>();
        for (Pool.Entry<T> entry = pool.acquire(); entry != null; entry = pool.acquire()) {
            acquired.add(entry.getPooled());
        }
        return acquired;
    }

    @Test
    void theMostRecentlyReleasedIdleEntryIsAcquiredFirst() {
        Pool<String> pool = new IdleStackPool<>(3);
        idle(pool, "a");
        idle(pool, "b");
        idle(pool, "c");

        Pool.Entry<String> c = pool.acquire();
        Pool.Entry<String> b = pool.acquire();
        Pool.Entry<String> a = pool.acquire();
        assertThat(List.of(c.getPooled(), b.getPooled(), a.getPooled())).containsExactly("c", "b", "a");
        assertThat(pool.acquire()).isNull();

        assertThat(b.release()).isTrue();
        assertThat(a.release()).isTrue();
        assertThat(acquireAll(pool)).containsExactly("a", "b");
        assertThat(pool.getInUseCount()).isEqualTo(3);
    }

    @Test
    void aFullPoolRefusesReservationsUntilAnEntryIsRemoved() {
        Pool<String> pool = new IdleStackPool<>(2);
        Pool.Entry<String> a = idle(pool, "a");
        Pool.Entry<String> pending = pool.reserve();

        assertThat(pool.reserve()).isNull();
        assertThat(pool.size()).isEqualTo(2);
        assertThat(pool.getReservedCount()).isEqualTo(1);
        assertThat(acquireAll(pool)).as("a reserved entry has nothing to lend yet").containsExactly("a");

        assertThat(pending.remove()).isTrue();
        assertThat(pool.size()).isEqualTo(1);
        assertThat(pool.reserve()).isNotNull();
        assertThat(a.isInUse()).isTrue();
    }

    @Test
    void anEntryEnabledInUseIsLentOnlyOnceReleased() {
        Pool<String> pool = new IdleStackPool<>(1);
        Pool.Entry<String> entry = pool.reserve();

        assertThat(entry.enable("a", true)).isTrue();
        assertThat(pool.acquire()).isNull();
        assertThat(entry.release()).isTrue();
        assertThat(entry.release()).as("an idle entry is not released twice").isFalse();
        assertThat(acquireAll(pool)).containsExactly("a");
        assertThatThrownBy(() -> entry.enable("b", false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already enabled");
    }

    @Test
    void aRemovedIdleEntryIsNeverLentAgainAndFreesItsPlace() {
        Pool<String> pool = new IdleStackPool<>(2);
        Pool.Entry<String> a = idle(pool, "a");
        idle(pool, "b");

        assertThat(a.remove()).isTrue();
        assertThat(a.remove()).as("removed once only").isFalse();
        assertThat(a.isTerminated()).isTrue();
        assertThat(pool.size()).isEqualTo(1);
        assertThat(pool.getIdleCount()).isEqualTo(1);
        assertThat(acquireAll(pool)).containsExactly("b");
        assertThat(pool.reserve()).isNotNull();
    }

    @Test
    void anEntryRemovedWhileInUseCannotBeReleasedBack() {
        Pool<String> pool = new IdleStackPool<>(2);
        idle(pool, "a");
        Pool.Entry<String> lent = pool.acquire();

        assertThat(lent.remove()).isTrue();
        assertThat(lent.isInUse()).isFalse();
        assertThat(lent.release()).isFalse();
        assertThat(pool.acquire()).isNull();
        assertThat(pool.size()).isZero();
    }

    @Test
    void terminateEndsEveryEntryAndRefusesNewOnes() {
        Pool<String> pool = new IdleStackPool<>(3);
        idle(pool, "a");
        idle(pool, "b");
        Pool.Entry<String> lent = pool.acquire();
        Pool.Entry<String> pending = pool.reserve();

        assertThat(pool.terminate()).hasSize(3).allMatch(Pool.Entry::isTerminated);

        assertThat(pool.isTerminated()).isTrue();
        assertThat(pool.reserve()).isNull();
        assertThat(pool.acquire()).isNull();
        assertThat(lent.release()).isFalse();
        assertThat(pending.enable("c", false)).as("a connection made for a stopped pool is refused").isFalse();
        pool.stream().toList().forEach(Pool.Entry::remove);
        assertThat(pool.size()).isZero();
    }

    @Test
    void aPoolNeedsRoomForOneEntry() {
        assertThatThrownBy(() -> new IdleStackPool<String>(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
    }

    /**
     * Eight threads take, hold and give back four entries at once, and now and then remove one (a connection that
     * closed): never an entry with two holders, never more than four, and every one left idle at the end.
     */
    @Test
    void concurrentHoldersNeverShareAnEntryAndTheBoundHolds() throws Exception {
        int threads = 8;
        int max = 4;
        Pool<AtomicBoolean> pool = new IdleStackPool<>(max);
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(executor.submit(() -> {
                    start.await();
                    int held = 0;
                    for (int i = 0; i < 20_000; i++) {
                        Pool.Entry<AtomicBoolean> entry = pool.acquire();
                        if (entry == null) {
                            entry = pool.reserve();
                            if (entry == null || !entry.enable(new AtomicBoolean(), true)) {
                                continue;
                            }
                        }
                        assertThat(entry.getPooled().compareAndSet(false, true)).as("held by another").isTrue();
                        held++;
                        entry.getPooled().set(false);
                        if (i % 97 == 0) {
                            assertThat(entry.remove()).isTrue();
                        } else {
                            assertThat(entry.release()).isTrue();
                        }
                    }
                    return held;
                }));
            }
            int held = 0;
            for (Future<Integer> result : results) {
                held += result.get(60, TimeUnit.SECONDS);
            }
            assertThat(held).isPositive();
            assertThat(pool.size()).isBetween(0, max);
            assertThat(pool.stream().count()).isEqualTo(pool.size());
            assertThat(pool.getIdleCount()).isEqualTo(pool.size());
            assertThat(acquireAll(pool)).hasSize(pool.size()).doesNotHaveDuplicates();
        } finally {
            executor.shutdownNow();
        }
    }
}
