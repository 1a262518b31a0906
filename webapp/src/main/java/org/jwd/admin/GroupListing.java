package org.jwd.admin;

import java.util.ArrayList;
import java.util.List;

import org.jwd.balancing.BalancerSnapshot;
import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerType;
import org.jwd.routing.Router;
import org.jwd.runtime.DispatcherState;
import org.jwd.topology.ServerGroup;
import org.jwd.topology.Topology;

/**
 * {@code GET api/groups[?name=G][&system=SID]}: the groups requests are balanced over, each system's own with
 * {@code wdisp/system_<xx>} (its {@code !J2EE}, {@code !DIAG}, logon groups, each naming its {@code system}), in
 * entry order; without systems the one list as it always was.
 */
final class GroupListing {
    private GroupListing() {
    }

    /**
     * The groups of {@code state}.
     *
     * @param name   one group's name, or {@code null} for all
     * @param system one system's SID, or {@code null} for every system's; a SID the state has not: 404 naming the
     *               SIDs there are
     */
    static AdminApi.Answer groups(DispatcherState state, String name, String system) {
        List<SystemPart> parts = SystemPart.of(state);
        if (system != null) {
            parts = parts.stream().filter(p -> system.equals(p.sid())).toList();
            if (parts.isEmpty()) {
                return AdminApi.Answer.error(404, "no system " + system + ": " + sids(state));
            }
        }
        List<GroupView> list = new ArrayList<>();
        parts.forEach(part -> list.addAll(groups(part, name)));
        return AdminApi.Answer.ok(list);
    }

    /** {@code "the systems are ERP, PRT"}, or that there are none. */
    static String sids(DispatcherState state) {
        return state.hasSystems() ? "the systems are " + String.join(", ", state.systems().configs().configs().keySet())
                : "this jwd has no systems (no wdisp/system_<xx> is configured)";
    }

    /**
     * The groups of one part: its internal groups ({@code !J2EES} and {@code !DIAGS} only with members), then its
     * logon groups by server type and TLS; a logon group without any server is shown empty, so that an operator
     * sees it has none.
     */
    static List<GroupView> groups(SystemPart part, String name) {
        Topology topology = part.topology();
        List<GroupView> list = new ArrayList<>();
        for (ServerGroup g : topology.internalGroups().values()) {
            boolean secure = g.name().equals(ServerGroup.DIAGS) || g.name().equals(ServerGroup.J2EES);
            if ((name == null || name.equals(g.name())) && (!secure || !g.members().isEmpty())) {
                list.add(group(part, g, "internal", secure));
            }
        }
        for (LogonGroupConfig lg : part.config().logonGroups()) {
            if (name != null && !name.equals(lg.name())) {
                continue;
            }
            boolean shown = false;
            for (boolean secure : new boolean[] {false, true}) {
                for (ServerType type : ServerType.values()) {
                    ServerGroup g = topology.logonGroup(lg.name(), type, secure);
                    if (g != null && !g.members().isEmpty()) {
                        list.add(group(part, g, "logon", secure));
                        shown = true;
                    }
                }
            }
            if (!shown) {
                list.add(group(part, topology.logonGroup(lg.name(), ServerType.J2EE, false), "logon", false));
            }
        }
        return list;
    }

    private static GroupView group(SystemPart part, ServerGroup g, String kind, boolean secure) {
        return GroupView.of(g, balancer(part.router(), g), kind, secure, part.sid());
    }

    /** The group's balancer as it stands, or {@code null} when the group has none. */
    static BalancerSnapshot balancer(Router router, ServerGroup group) {
        var balancer = router.balancer(group);
        return balancer == null ? null : balancer.snapshot();
    }
}
