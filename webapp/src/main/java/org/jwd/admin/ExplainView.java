package org.jwd.admin;

import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonInclude;

import org.jwd.affinity.SaplbCookie;
import org.jwd.affinity.SessionIdentifiers;
import org.jwd.filter.PermissionTable;
import org.jwd.routing.Classification;
import org.jwd.routing.Explanation;
import org.jwd.topology.Server;

/**
 * {@code GET api/explain?url=<path>}: where a request for {@code url} would go, and why.
 *
 * @param path           the path normalized as the server would see it; {@code null} when it is bad
 * @param rule           how its type was found: {@code root}, {@code icf_prefix} or {@code default}
 * @param classification the whole classification in words
 * @param members        the members of its group and whether they take it
 * @param server         the server it would go to; {@code null} when it would be refused
 * @param reason         why that server ({@code balanced}, {@code saplb cookie}, {@code session table}, ...)
 * @param bound          whether it would follow a session rather than the balancer
 * @param target         the URI it would be forwarded to, or {@code null}
 * @param status         200, or the status the client would get instead
 * @param error          with an error status, what the client would be told
 * @param system         with {@code wdisp/system_<xx>}, the request's system and why
 *                       ({@code system ERP: SRCURL /sap/ matched}); absent without entries
 */
public record ExplainView(String url, String path, String type, String rule, String matchedPrefix, String group,
                          String classification, List<Member> members, Session session, String server,
                          String reason, boolean bound, String target, int status, String error,
                          Permission permission, @JsonInclude(JsonInclude.Include.NON_NULL) String system,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Modifications modification) {
    /**
     * What the modification handler's rules would do ({@code icm/HTTP/mod_<xx>}); absent without handlers.
     *
     * @param fired  each rule that would take effect: {@code actions.txt:3 SetHeader ...: header set ...}
     * @param url    the URL the request would go on with, when a rule rewrote it; else {@code null}
     * @param system the system a rule named ({@code x-sap-webdisp-target-sid}), or {@code null}
     */
    public record Modifications(List<String> fired, String url, String system) {
    }

    /** A member of the request's group. */
    public record Member(String id, String state, boolean takesNewRequests, boolean servesItsSessions) {
    }

    /** The session identifiers the request carries; {@code saplb} as the cookies read. */
    public record Session(String jsessionid, List<String> saplb, String sapContextid, String sapExtSid) {
    }

    /**
     * The URL filter's part: the permission table's line that matched ({@code null} when none did) and the verdict
     * in words.
     */
    public record Permission(Rule rule, String verdict) {
    }

    /** A line of the permission table. */
    public record Rule(String file, int line, String text) {
    }

    /**
     * A request the modification handler would answer itself: {@code status} (a redirect to {@code location}, or
     * 403, 410 with {@code error}), no system, no server.
     */
    static ExplainView answered(String url, String reason, int status, String location, String error,
                                Modifications modification) {
        return new ExplainView(url, null, null, null, null, null, null, List.of(), null, null, reason, false,
                location, status, error, null, null, modification);
    }

    static ExplainView of(String url, Explanation e, PermissionTable table, String system,
                          Modifications modification) {
        Classification c = e.classification();
        boolean secure = e.group() != null && e.group().secure();
        List<Member> members = e.group() == null ? List.of() : e.group().members().stream()
                .map(s -> new Member(s.id(), s.state(secure).name().toLowerCase(Locale.ROOT),
                        s.takesNewRequests(secure), s.servesItsSessions(secure)))
                .toList();
        SessionIdentifiers ids = e.sessionIds();
        Session session = new Session(ids.jsessionid(), ids.saplbCookies().stream().map(SaplbCookie::toString).toList(),
                ids.sapContextId(), ids.sapExtSid());
        Server server = e.server();
        return new ExplainView(url, c == null ? null : c.path(), c == null ? null : c.typeKey(),
                c == null ? null : c.rule(), c == null ? null : c.matchedPrefix(), c == null ? null : c.groupName(),
                c == null ? null : c.reason(), members, session, server == null ? null : server.id(), e.reason(),
                e.bound(), e.target(), e.errorStatus() == 0 ? 200 : e.errorStatus(), e.errorMessage(),
                permission(table, e.permissionRule()), system, modification);
    }

    private static Permission permission(PermissionTable table, PermissionTable.Rule rule) {
        if (rule == null) {
            return new Permission(null, table.isConfigured() ? "no rule matched: permitted"
                    : "no permission table: permitted");
        }
        String verdict = switch (rule.action()) {
            case PERMIT -> "permitted";
            case DENY -> "denied";
            case SECURE_ONLY -> "permitted over HTTPS only";
        };
        return new Permission(new Rule(rule.file(), rule.line(), rule.text()), verdict);
    }
}
