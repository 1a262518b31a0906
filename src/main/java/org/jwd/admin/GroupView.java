package org.jwd.admin;

import java.util.List;

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
}
