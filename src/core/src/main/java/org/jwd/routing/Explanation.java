package org.jwd.routing;

import org.jwd.affinity.SessionIdentifiers;
import org.jwd.filter.PermissionTable;
import org.jwd.topology.Server;
import org.jwd.topology.ServerGroup;

/**
 * Where a request would go and why, as {@link Router#explain} found it without routing it: what the explain
 * endpoint of the admin interface shows.
 *
 * @param rawPath        the path as given
 * @param classification type, rule and group, with the reason in words; {@code null} when the path is bad
 * @param sessionIds     the session identifiers the request carries
 * @param server         the server it would go to, or {@code null} when it would be refused
 * @param reason         why that server: {@code balanced}, {@code saplb cookie}, {@code session table}, ...
 * @param bound          whether it would follow a session rather than the balancer
 * @param errorStatus    0, or the status the client would get instead (400 bad path, 403 not permitted,
 *                       503 no server)
 * @param errorMessage   with an error, what the client would be told; else {@code null}
 * @param target         the URI it would be forwarded to, or {@code null}
 * @param permissionRule the permission table's line that matched the path, or {@code null} when none did
 *                       (then the URL is permitted)
 */
public record Explanation(String rawPath, Classification classification, SessionIdentifiers sessionIds,
                          Server server, String reason, boolean bound, int errorStatus, String errorMessage,
                          String target, PermissionTable.Rule permissionRule) {
    /** The group the request belongs to, or {@code null}. */
    public ServerGroup group() {
        return classification == null ? null : classification.group();
    }

    @Override
    public String toString() {
        return "Explanation[" + rawPath + " -> " + (server == null ? errorStatus + " " + errorMessage
                : server.id() + " (" + reason + ")") + "]";
    }
}
