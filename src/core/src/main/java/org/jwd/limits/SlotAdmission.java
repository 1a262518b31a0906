package org.jwd.limits;

import java.time.Duration;

import org.jwd.config.Durations;

/**
 * Lets a request go to its server once it holds one of the server's connection slots ({@link ServerSlots}): at
 * once, or when a request ahead of it ends. A full queue, or a wait past {@code jwd.queue_timeout}, refuses it
 * with the 503's text. No thread is held while a request waits.
 *
 * <pre>
 * max_connections 1, max_queue 1, queue_timeout 5s:
 *   a -> admitted at once; b -> waits; c -> refused ("... its queue full")
 *   a ends within 5s  -> b admitted (the slot passes on)
 *   a still busy at 5s -> b refused ("waited 5s (jwd.queue_timeout) ...")
 * </pre>
 */
public final class SlotAdmission {
    /** Runs a task once, after a delay; the proxy's HTTP client's scheduler, or a clock a test moves. */
    @FunctionalInterface
    public interface Timer {
        void schedule(Runnable task, Duration delay);
    }

    /** A request asking for a slot; exactly one of its methods is called, once. */
    public interface Candidate {
        /** It holds a slot of {@code slots} now and goes; runs on the thread that freed the slot, must not block. */
        void admitted(ServerSlots slots);

        /** It got no slot and never reaches the server: {@code message} is its 503's text. */
        void refused(String message);
    }

    private final Timer timer;

    public SlotAdmission(Timer timer) {
        this.timer = timer;
    }

    /** Asks {@code slots}, the slots of server {@code serverId}, for a slot for {@code candidate}. */
    public void admit(String serverId, ServerSlots slots, Duration queueTimeout, Candidate candidate) {
        ServerSlots.Waiter waiter = () -> candidate.admitted(slots);
        switch (slots.acquire(waiter)) {
            case ADMITTED -> waiter.admitted();
            case QUEUED -> timer.schedule(() -> {
                if (slots.abandon(waiter, true)) {
                    candidate.refused(refusal(serverId, slots, "waited " + Durations.format(queueTimeout) + " ("
                            + LimitsConfig.QUEUE_TIMEOUT + ") in the queue for a connection slot"));
                }
            }, queueTimeout);
            case REJECTED -> candidate.refused(refusal(serverId, slots,
                    "has all its connection slots taken and its queue full"));
        }
    }

    private static String refusal(String serverId, ServerSlots slots, String what) {
        return "jwd: server " + serverId + " " + what + " (server." + serverId + "."
                + slots.describe().replace(", max_queue", ", server." + serverId + ".max_queue") + ")";
    }
}
