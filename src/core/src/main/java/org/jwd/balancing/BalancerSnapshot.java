package org.jwd.balancing;

import java.util.List;

/**
 * What a balancer knows at one instant, for the admin page and {@code lgtst}.
 *
 * @param strategy    what chooses the group's HTTP requests: {@code weighted_round_robin},
 *                    {@code simple_weighted_round_robin}, or {@code B}, {@code R}, {@code W} (a logon group that
 *                    opted in with {@code http_balancing=quality})
 * @param members     one entry per member, in the group's order
 * @param favorite    the id of the member the next new request would go to, or {@code null} when none is up
 * @param qualityView for a logon group, the message server's view of it (type {@code B}, {@code R} or {@code W}:
 *                    the qualities and the favorite it would hand a logon client), whether or not it chooses
 *                    the HTTP requests; {@code null} for an internal group
 */
public record BalancerSnapshot(String strategy, List<Member> members, String favorite,
                               BalancerSnapshot qualityView) {
    public BalancerSnapshot {
        members = List.copyOf(members);
    }

    /** The snapshot of an internal group's balancer, which has no quality view. */
    public BalancerSnapshot(String strategy, List<Member> members, String favorite) {
        this(strategy, members, favorite, null);
    }

    /** The same figures with the message server's view of the logon group beside them. */
    BalancerSnapshot withQualityView(BalancerSnapshot view) {
        return new BalancerSnapshot(strategy, members, favorite, view);
    }

    /**
     * @param weight load factor (round robin strategies; lower is preferred) or quality (logon groups;
     *               higher is preferred)
     */
    public record Member(String serverId, int capacity, double weight, int inFlight, long served) {
    }
}
