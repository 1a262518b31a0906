package org.jwd.admin;

import java.util.List;
import java.util.Locale;

import org.jwd.balancing.BalancerSnapshot;
import org.jwd.config.LogonGroupConfig;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;

/**
 * {@code GET api/groups} (a list of these): a group requests are balanced over, its members and its favorite, the
 * server the next new request goes to. {@code lgtst} reads the same.
 *
 * @param kind           {@code internal} or {@code logon}
 * @param type           {@code j2ee}, {@code abap}, or {@code any} ({@code !ALL})
 * @param secure         whether it is the group of requests forwarded over HTTPS
 * @param logonGroupType a logon group's SMLG type {@code B}, {@code R} or {@code W}; else {@code null}
 * @param strategy       {@code null} when the group has no balancer
 * @param measure        what the members' {@code value} is: {@code load factor}, {@code share used} or
 *                       {@code quality}
 * @param favorite       the id of the member the next new request would go to; {@code null} when none would
 */
public record GroupView(String name, String kind, String type, boolean secure, String logonGroupType,
                        List<String> urlPrefixes, String strategy, String measure, String favorite,
                        List<Member> members) {
    /**
     * A member as the balancer sees it.
     *
     * @param value its load factor or quality, rounded to three decimals
     * @param state {@code null} when the server left the group since the balancer was built
     */
    public record Member(String id, int capacity, double value, int inFlight, long served, String state, String url) {
    }

    /** {@code g} as its balancer {@code b} sees it ({@code null}: the group has none). */
    static GroupView of(ServerGroup g, BalancerSnapshot b, String kind, boolean secure) {
        List<Member> members = b == null ? List.of() : b.members().stream().map(m -> {
            Server s = g.member(m.serverId());
            return new Member(m.serverId(), m.capacity(), rounded(m.weight()), m.inFlight(), m.served(),
                    s == null ? null : s.state().name().toLowerCase(Locale.ROOT),
                    s == null ? null : s.config().url().toString());
        }).toList();
        LogonGroupConfig lg = g.logonGroup();
        return new GroupView(g.name(), kind, g.type() == null ? "any" : g.type().key(), secure,
                lg == null ? null : String.valueOf(lg.type()), lg == null ? List.of() : lg.urlPrefixes(),
                b == null ? null : b.strategy(), b == null ? null : measure(b.strategy()),
                b == null ? null : b.favorite(), members);
    }

    /** What a balancer's weights are: qualities for logon groups (higher is preferred), else load factors. */
    static String measure(String strategy) {
        return switch (strategy) {
            case "B", "R", "W" -> "quality";
            case "simple_weighted_round_robin" -> "share used";
            default -> "load factor";
        };
    }

    /** A weight to three decimals: enough to compare, short to read. */
    static double rounded(double weight) {
        return Math.round(weight * 1000) / 1000.0;
    }
}
