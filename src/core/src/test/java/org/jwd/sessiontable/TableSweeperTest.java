package org.jwd.sessiontable;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.routing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When sweeps run: for room at most once a second, on the binding thread or handed to the scheduler. */
class TableSweeperTest {
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final AtomicInteger sweeps = new AtomicInteger();
    private final List<ScheduledThreadPoolExecutor> schedulers = new ArrayList<>();

    @AfterEach
    void stop() {
        schedulers.forEach(ScheduledThreadPoolExecutor::shutdownNow);
    }

    /** A scheduler whose {@code execute} keeps the task for the test to run; periodic sweeps a day apart. */
    private final class HeldTasks extends ScheduledThreadPoolExecutor {
        final List<Runnable> held = new ArrayList<>();
        boolean refusing;

        HeldTasks() {
            super(1);
            schedulers.add(this);
        }

        @Override
        public void execute(Runnable command) {
            if (refusing) {
                throw new RejectedExecutionException("stopped");
            }
            held.add(command);
        }
    }

    @Test
    void aFullTableSweepsOnTheBindingThreadAtMostOnceASecond() {
        TableSweeper sweeper = new TableSweeper(sweeps::incrementAndGet, clock::get, null);

        assertThat(sweeper.sweepForRoom()).isTrue();
        clock.addAndGet(TableSweeper.MIN_SWEEP_GAP_MILLIS - 1);
        assertThat(sweeper.sweepForRoom()).as("within the gap: no sweep").isFalse();
        assertThat(sweeps).hasValue(1);
        clock.addAndGet(1);
        assertThat(sweeper.sweepForRoom()).as("a second after the last one").isTrue();
        assertThat(sweeps).hasValue(2);
    }

    @Test
    void withASchedulerTheSweepForRoomIsHandedOverOnceAndTheBindDoesNotWait() {
        HeldTasks scheduler = new HeldTasks();
        TableSweeper sweeper = new TableSweeper(sweeps::incrementAndGet, clock::get,
                new SweepSchedule(scheduler, Duration.ofDays(1)));

        assertThat(sweeper.sweepForRoom()).isFalse();
        assertThat(sweeper.sweepForRoom()).isFalse();
        assertThat(scheduler.held).as("one request while one is pending").hasSize(1);
        assertThat(sweeps).hasValue(0);

        scheduler.held.get(0).run();
        assertThat(sweeps).hasValue(1);
        clock.addAndGet(TableSweeper.MIN_SWEEP_GAP_MILLIS);
        assertThat(sweeper.sweepForRoom()).isFalse();
        assertThat(scheduler.held).as("handed over again once the first ran").hasSize(2);

        sweeper.close(() -> { });
        clock.addAndGet(TableSweeper.MIN_SWEEP_GAP_MILLIS);
        scheduler.held.get(1).run();
        assertThat(sweeper.sweepForRoom()).isFalse();
        assertThat(scheduler.held).as("none after the close").hasSize(2);
        assertThat(sweeps).hasValue(1);
    }

    @Test
    void aRequestTheSchedulerRefusedIsMadeAgainNextTime() {
        HeldTasks scheduler = new HeldTasks();
        TableSweeper sweeper = new TableSweeper(sweeps::incrementAndGet, clock::get,
                new SweepSchedule(scheduler, Duration.ofDays(1)));
        scheduler.refusing = true;
        assertThat(sweeper.sweepForRoom()).isFalse();
        scheduler.refusing = false;

        assertThat(sweeper.sweepForRoom()).isFalse();
        assertThat(scheduler.held).hasSize(1);
    }

    @Test
    void aBackgroundSweepThatFailsIsWarnedAboutUntilTheClose() {
        HeldTasks scheduler = new HeldTasks();
        TableSweeper sweeper = new TableSweeper(() -> {
            throw new IllegalStateException("the store broke");
        }, clock::get, new SweepSchedule(scheduler, Duration.ofDays(1)));
        try (LogCapture log = new LogCapture(TableSweeper.class)) {
            sweeper.sweepForRoom();
            scheduler.held.get(0).run();
            assertThat(log.text()).contains("Session table sweep failed", "the store broke");
        }
    }

    @Test
    void aClosedSweeperSweepsNoMoreFromAnyThread() throws Exception {
        TableSweeper sweeper = new TableSweeper(() -> sweeps.incrementAndGet(), clock::get, null);
        List<String> released = new ArrayList<>();

        sweeper.close(() -> released.add("store"));

        assertThat(released).containsExactly("store");
        assertThat(CompletableFuture.supplyAsync(sweeper::sweep).get(10, TimeUnit.SECONDS)).isZero();
        assertThat(sweeps).hasValue(0);
    }

    @Test
    void aBindThatFindsASweepRunningDoesNotWaitForIt() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        TableSweeper sweeper = new TableSweeper(() -> {
            inside.countDown();
            await(release);
            return sweeps.incrementAndGet();
        }, clock::get, null);
        CompletableFuture<Long> running = CompletableFuture.supplyAsync(sweeper::sweep);
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        clock.addAndGet(TableSweeper.MIN_SWEEP_GAP_MILLIS);

        assertThat(sweeper.sweepForRoom()).as("another thread is sweeping").isFalse();

        release.countDown();
        assertThat(running.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(sweeps).hasValue(1);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
