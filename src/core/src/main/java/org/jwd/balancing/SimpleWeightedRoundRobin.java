package org.jwd.balancing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;

/**
 * {@code simple_weighted_round_robin}: each server with capacity k gets exactly k requests in succession,
 * then the next member in the group's order takes over. Deterministic, and blind to how busy a server is.
 *
 * <pre>
 * capacities a=1, b=2, c=3         -> a b b c c c a b b c c c ...
 * the same with b down or drained  -> a c c c a c c c ...
 * </pre>
 *
 * <p>A round is {@code sum(capacities)} slots; member i owns the slots {@code [ends[i-1], ends[i])}. One
 * shared ticket counter walks the slots: a pick is a single {@code getAndIncrement}, so threads never wait
 * for each other and no ticket is lost or given twice. A ticket that lands on a member that takes no new
 * requests moves the counter past the rest of that member's block, so its share is skipped rather than
 * handed to its neighbour.
 */
final class SimpleWeightedRoundRobin implements Balancer {
    private final ServerGroup group;
    private final Server[] servers;
    /** whether the group's requests go over HTTPS: then a member takes them by its HTTPS port's health */
    private final boolean secure;
    private final int[] capacities;
    /** ends[i] = capacities[0] + ... + capacities[i]: member i owns the slots before ends[i] from ends[i-1] */
    private final long[] ends;
    private final long round;
    private final AtomicLong ticket = new AtomicLong();

    SimpleWeightedRoundRobin(ServerGroup group) {
        this.group = group;
        this.servers = group.members().toArray(new Server[0]);
        this.secure = group.secure();
        this.capacities = new int[servers.length];
        this.ends = new long[servers.length];
        long sum = 0;
        for (int i = 0; i < servers.length; i++) {
            capacities[i] = Math.max(1, servers[i].capacity());
            sum += capacities[i];
            ends[i] = sum;
        }
        this.round = sum;
    }

    @Override
    public Server pick() {
        if (round == 0) {
            return null;
        }
        int skipped = 0;
        for (;;) {
            // The counter wraps after 2^63 picks; floorMod keeps the slot in range, one round comes out odd.
            long t = ticket.getAndIncrement();
            long slot = Math.floorMod(t, round);
            int i = owner(slot);
            Server s = servers[i];
            if (s.takesNewRequests(secure)) {
                return s;
            }
            // Jump past the rest of this member's block in one step instead of one ticket per slot. When
            // another thread moved the counter meanwhile the CAS fails, which is fine: it moved it further.
            ticket.compareAndSet(t + 1, t + (ends[i] - slot));
            if (++skipped >= servers.length) {
                if (!group.hasActiveMember()) {
                    return null;
                }
                skipped = 0;
            }
        }
    }

    /** The member owning this slot: the first with ends[i] > slot. */
    private int owner(long slot) {
        int i = Arrays.binarySearch(ends, slot);
        // an exact hit is the end of block i, so the slot belongs to i + 1
        return i >= 0 ? i + 1 : -i - 1;
    }

    /**
     * Each member's weight is the part of this round's share it has had already (0 = none of its k
     * requests, 1 = all of them); the favorite is the owner of the next slot that takes new requests.
     */
    @Override
    public BalancerSnapshot snapshot() {
        List<BalancerSnapshot.Member> members = new ArrayList<>(servers.length);
        if (round == 0) {
            return new BalancerSnapshot(DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN, members, null);
        }
        long slot = Math.floorMod(ticket.get(), round);
        for (int i = 0; i < servers.length; i++) {
            long start = ends[i] - capacities[i];
            double used = slot >= ends[i] ? 1.0 : slot <= start ? 0.0 : (double) (slot - start) / capacities[i];
            Server s = servers[i];
            members.add(new BalancerSnapshot.Member(s.id(), capacities[i], used, s.inFlight(), s.served()));
        }
        String favorite = null;
        int first = owner(slot);
        for (int k = 0; k < servers.length; k++) {
            Server s = servers[(first + k) % servers.length];
            if (s.takesNewRequests(secure)) {
                favorite = s.id();
                break;
            }
        }
        return new BalancerSnapshot(DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN, members, favorite);
    }

    @Override
    public String toString() {
        return DispatcherConfig.SIMPLE_WEIGHTED_ROUND_ROBIN + " over " + group + " capacities "
                + Arrays.toString(capacities) + ", ticket " + ticket.get() + " of round " + round;
    }
}
