package org.jwd.balancing;

import java.util.List;

/**
 * What a balancer knows at one instant, for the admin page and {@code lgtst}.
 *
 * @param strategy  {@code weighted_round_robin}, {@code simple_weighted_round_robin}, or {@code B}, {@code R}, {@code W}
 * @param members   one entry per member, in the group's order
 * @param favorite  the id of the member the next new request would go to, or {@code null} when none is up
 */
public record BalancerSnapshot(String strategy, List<Member> members, String favorite) {
    public BalancerSnapshot {
        members = List.copyOf(members);
    }

    /**
     * @param weight load factor (round robin strategies; lower is preferred) or quality (logon groups;
     *               higher is preferred)
     */
    public record Member(String serverId, int capacity, double weight, int inFlight, long served) {
    }
}
