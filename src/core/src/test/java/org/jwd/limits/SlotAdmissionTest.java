package org.jwd.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.Test;

class SlotAdmissionTest {
    private static final Duration QUEUE_TIMEOUT = Duration.ofSeconds(5);

    /** A clock moved by hand: scheduled tasks run when it passes their time, in time order. */
    private static final class ManualTimer implements SlotAdmission.Timer {
        private record Task(Duration at, Runnable task) {
        }

        private final List<Task> tasks = new ArrayList<>();
        private Duration now = Duration.ZERO;

        @Override
        public void schedule(Runnable task, Duration delay) {
            tasks.add(new Task(now.plus(delay), task));
        }

        void advance(Duration by) {
            now = now.plus(by);
            List<Task> due = tasks.stream().filter(t -> t.at().compareTo(now) <= 0)
                    .sorted(Comparator.comparing(Task::at)).toList();
            tasks.removeAll(due);
            due.forEach(t -> t.task().run());
        }
    }

    private final ManualTimer timer = new ManualTimer();
    private final SlotAdmission admission = new SlotAdmission(timer);
    private final List<String> events = new ArrayList<>();

    private SlotAdmission.Candidate candidate(String name) {
        return new SlotAdmission.Candidate() {
            @Override
            public void admitted(ServerSlots slots) {
                events.add(name + " admitted");
            }

            @Override
            public void refused(String message) {
                events.add(name + " refused: " + message);
            }
        };
    }

    @Test
    void admitsAtOnceWhileASlotIsFreeAndRefusesWhenTheQueueIsFull() {
        ServerSlots slots = new ServerSlots(1, 1);

        admission.admit("a", slots, QUEUE_TIMEOUT, candidate("r1"));
        admission.admit("a", slots, QUEUE_TIMEOUT, candidate("r2"));
        admission.admit("a", slots, QUEUE_TIMEOUT, candidate("r3"));

        assertThat(events).containsExactly("r1 admitted", "r3 refused: jwd: server a has all its connection slots"
                + " taken and its queue full (server.a.max_connections 1, server.a.max_queue 1)");
        assertThat(slots.rejected()).isEqualTo(1);
    }

    @Test
    void aWaitingRequestGoesWhenTheSlotPassesToItBeforeItsQueueTimeout() {
        ServerSlots slots = new ServerSlots(1, 1);
        admission.admit("a", slots, QUEUE_TIMEOUT, candidate("r1"));
        admission.admit("a", slots, QUEUE_TIMEOUT, candidate("r2"));

        timer.advance(Duration.ofSeconds(4));
        slots.release();
        timer.advance(Duration.ofSeconds(10));

        assertThat(events).containsExactly("r1 admitted", "r2 admitted");
        assertThat(slots.timedOut()).isZero();
    }

    @Test
    void aRequestStillWaitingAtItsQueueTimeoutIsRefusedAndNeverAdmitted() {
        ServerSlots slots = new ServerSlots(1, LimitsConfig.ServerLimit.UNBOUNDED);
        admission.admit("b", slots, QUEUE_TIMEOUT, candidate("r1"));
        admission.admit("b", slots, QUEUE_TIMEOUT, candidate("r2"));

        timer.advance(Duration.ofMillis(4999));
        assertThat(events).containsExactly("r1 admitted");
        timer.advance(Duration.ofMillis(1));
        slots.release();

        assertThat(events).containsExactly("r1 admitted", "r2 refused: jwd: server b waited 5s (jwd.queue_timeout)"
                + " in the queue for a connection slot (server.b.max_connections 1, server.b.max_queue unbounded)");
        assertThat(slots.timedOut()).isEqualTo(1);
        assertThat(slots.active()).isZero();
    }

    @Test
    void withoutALimitEveryRequestIsAdmittedAndNothingIsScheduled() {
        for (int i = 0; i < 3; i++) {
            admission.admit("c", ServerSlots.UNLIMITED, QUEUE_TIMEOUT, candidate("r" + i));
        }

        assertThat(events).containsExactly("r0 admitted", "r1 admitted", "r2 admitted");
        assertThat(timer.tasks).isEmpty();
    }
}
