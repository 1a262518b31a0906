package org.jwd.topology;

import java.util.List;
import java.util.function.Predicate;

import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerType;

/**
 * The servers that may serve a request: an internal group ({@code !J2EE}, {@code !DIAG}, ...) or a logon
 * group restricted to the servers of the request's type.
 *
 * @param name       {@code !J2EE}, {@code !DIAG}, {@code !J2EES}, {@code !DIAGS}, {@code !ALL}, or a logon group's name
 * @param members    in configuration order (by id)
 * @param logonGroup the logon group's configuration, or {@code null} for an internal group
 * @param secure     whether requests to this group go over HTTPS: its members are HTTPS-enabled, and whether
 *                   they take a request is the health of their HTTPS port ({@code !DIAGS}, {@code !J2EES}, the
 *                   secure {@code !ALL} and logon groups)
 */
public record ServerGroup(String name, ServerType type, List<Server> members, LogonGroupConfig logonGroup,
                          boolean secure) {
    public static final String DIAG = "!DIAG";
    public static final String DIAGS = "!DIAGS";
    public static final String J2EE = "!J2EE";
    public static final String J2EES = "!J2EES";
    public static final String ALL = "!ALL";

    public ServerGroup {
        members = List.copyOf(members);
    }

    public boolean isLogonGroup() {
        return logonGroup != null;
    }

    /** The member with this id, or {@code null}. */
    public Server member(String id) {
        for (Server s : members) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        return null;
    }

    /** Whether a member takes new requests through the port this group's requests use. */
    /**
     * The member that takes new requests (on this group's port) and passes {@code also}, with the fewest requests in
     * flight per capacity (the balancers' own first measure); the first such member on a tie; {@code null} when none.
     */
    public Server leastLoaded(Predicate<Server> also) {
        Server best = null;
        for (Server member : members) {
            if (member.takesNewRequests(secure) && also.test(member) && (best == null
                    || (long) member.inFlight() * best.capacity() < (long) best.inFlight() * member.capacity())) {
                best = member;
            }
        }
        return best;
    }

    public boolean hasActiveMember() {
        for (Server s : members) {
            if (s.takesNewRequests(secure)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return name + (type == null ? "" : "/" + type.key()) + (secure ? "/https" : "") + members.stream().map(Server::id).toList();
    }
}
