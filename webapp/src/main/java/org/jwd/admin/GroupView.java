package org.jwd.admin;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonInclude;

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
 * @param extRfc         a logon group's external RFC flag ({@code logon_group.<G>.ext_rfc}); else {@code null}
 * @param httpBalancing  a logon group's {@code http_balancing}: {@code strategy} or {@code quality}; else {@code null}
 * @param strategy       what chooses the group's HTTP requests; {@code null} when the group has no balancer
 * @param measure        what the members' {@code value} is: {@code load factor}, {@code share used} or
 *                       {@code quality}
 * @param favorite       the favorite as the group's members are shown: a logon group's by its type's quality, as its
 *                       message server would report it; else the member the next new request would go to;
 *                       {@code null} when none would
 * @param nextRequest    the member the next new HTTP request would go to; {@code null} when none would
 * @param system         with {@code wdisp/system_<xx>}, the SID of the group's system (each has its own groups);
 *                       absent without entries
 */
public record GroupView(String name, String kind, String type, boolean secure, String logonGroupType,
                        Boolean extRfc, String httpBalancing, List<String> urlPrefixes, String strategy,
                        String measure, String favorite, String nextRequest, List<Member> members,
                        @JsonInclude(JsonInclude.Include.NON_NULL) String system) {
    /**
     * A member as the balancer sees it.
     *
     * @param value its load factor or quality, rounded to three decimals
     * @param state {@code null} when the server left the group since the balancer was built
     */
    public record Member(String id, int capacity, double value, int inFlight, long served, String state, String url) {
    }

    /**
     * {@code g} as its balancer {@code b} sees it ({@code null}: the group has none). A logon group shows what its
     * message server would (its type's qualities and favorite), whatever chooses its HTTP requests:
     * {@code strategy} says that, and {@code next_request} where the next one goes.
     *
     * @param system the SID of the group's system; {@code null} without systems
     */
    static GroupView of(ServerGroup g, BalancerSnapshot b, String kind, boolean secure, String system) {
        BalancerSnapshot shown = b == null || b.qualityView() == null ? b : b.qualityView();
        List<Member> members = shown == null ? List.of() : shown.members().stream().map(m -> {
            Server s = g.member(m.serverId());
            return new Member(m.serverId(), m.capacity(), rounded(m.weight()), m.inFlight(), m.served(),
                    s == null ? null : s.state(g.secure()).name().toLowerCase(Locale.ROOT),
                    s == null ? null : String.valueOf(g.secure() ? s.config().httpsUrl() : s.config().url()));
        }).toList();
        LogonGroupConfig lg = g.logonGroup();
        return new GroupView(g.name(), kind, g.type() == null ? "any" : g.type().key(), secure,
                lg == null ? null : String.valueOf(lg.type()), lg == null ? null : lg.extRfc(),
                lg == null ? null : lg.httpBalancing().key(), lg == null ? List.of() : lg.urlPrefixes(),
                b == null ? null : b.strategy(), shown == null ? null : measure(shown.strategy()),
                shown == null ? null : shown.favorite(), b == null ? null : b.favorite(), members, system);
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
