package org.jwd.admin;

import java.util.ArrayList;
import java.util.List;

import org.jwd.config.DispatcherConfig;
import org.jwd.routing.Router;
import org.jwd.runtime.DispatcherState;
import org.jwd.topology.Topology;

/**
 * One system's share of a {@link DispatcherState}, as the administration shows it: its configuration (the file's
 * with the servers and logon groups discovery found) and its
 * router, whose topology holds its servers and its groups. Without {@code wdisp/system_<xx>} the one part is the
 * whole state's, with no SID; with systems, each system has its own {@code !J2EE}, {@code !DIAG} and logon groups.
 *
 * @param sid the system's SID; {@code null} for the implicit system of a jwd without systems (and for the servers
 *            of no system: registered ones)
 */
record SystemPart(String sid, DispatcherConfig config, Router router) {
    /** The servers and groups of this part. */
    Topology topology() {
        return router.topology();
    }

    /** The parts of {@code state}: each system in entry order, or the one implicit part. */
    static List<SystemPart> of(DispatcherState state) {
        if (!state.hasSystems()) {
            return List.of(whole(state));
        }
        List<SystemPart> parts = new ArrayList<>();
        // the router's configuration: the file's with what discovery found (its servers, logon groups)
        state.systems().configs().configs().forEach((sid, config) -> {
            Router router = state.systems().routers().get(sid);
            parts.add(new SystemPart(sid, router.config(), router));
        });
        return parts;
    }

    /** The part of {@code state} whose groups the server is balanced in: its system's, or the whole state's. */
    static SystemPart ofServer(DispatcherState state, String serverId) {
        String sid = state.systemOf(serverId);
        Router router = sid == null ? null : state.systems().routers().get(sid);
        return router == null ? whole(state) : new SystemPart(sid, router.config(), router);
    }

    /** The whole state as one part: its router's configuration (with what discovery found) and router, no SID. */
    private static SystemPart whole(DispatcherState state) {
        return new SystemPart(null, state.router().config(), state.router());
    }

    @Override
    public String toString() {
        return (sid == null ? "the implicit system" : "system " + sid) + " (" + topology().servers().size()
                + " servers)";
    }
}
