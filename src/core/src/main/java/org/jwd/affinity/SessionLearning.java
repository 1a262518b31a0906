package org.jwd.affinity;

import java.util.List;

import org.jwd.config.DispatcherConfig;
import org.jwd.topology.Server;
import org.jwd.config.ServerType;
import org.jwd.topology.Topology;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTimeouts;

/**
 * What jwd learns from a server's answer, and the {@code saplb} cookie it adds to it. A JSESSIONID the server sets
 * teaches its route suffix ({@link LearnedRoutes}, unless the server's route is configured) and is bound to the
 * server (unless bound already) in SAP's session ID table ({@code wdisp/HTTP/jsessionid_tab_support}, idle timeout
 * {@code wdisp/HTTP/context_timeout}), else in the temporary table when that is on; not when it names the server
 * itself ({@code (<name>)...End}, SAP's form): the session ID table is for ids that name no server. With
 * {@code wdisp/add_saplb_cookie}, a J2EE server that starts a session without a {@code saplb_*} cookie of its own
 * gets one added for it:
 *
 * <pre>
 * j2ee server a (lb_id (J2EE1)a) sets JSESSIONID=4F2A.n1      -> learns n1 for a, binds 4F2A.n1 -> a,
 *                                                               adds saplb_*=(J2EE1)a; Path=/
 * j2ee server a sets JSESSIONID and its own saplb_PORTAL      -> learns and binds, adds nothing
 * abap server sets sap-contextid                              -> nothing
 * </pre>
 */
public final class SessionLearning {
    private final DispatcherConfig config;
    private final Topology topology;
    private final SessionTable sessionTable;
    private final LearnedRoutes learnedRoutes;

    public SessionLearning(DispatcherConfig config, Topology topology, SessionTable sessionTable,
                           LearnedRoutes learnedRoutes) {
        this.config = config;
        this.topology = topology;
        this.sessionTable = sessionTable;
        this.learnedRoutes = learnedRoutes;
    }

    /**
     * {@code server} answered with these {@code Set-Cookie} values: learns from them.
     *
     * @param secure whether the client's request came over HTTPS (the added cookie is {@code Secure} then)
     * @return the {@code Set-Cookie} value to add to the answer, or {@code null}
     */
    public String answered(Server server, List<String> setCookieHeaders, boolean secure) {
        if (setCookieHeaders.isEmpty()) {
            return null;
        }
        learn(server, setCookieHeaders);
        return saplbCookieFor(server, setCookieHeaders, secure);
    }

    /** Learns the route suffix of each JSESSIONID {@code server} sets, and binds the JSESSIONID to it. */
    public void learn(Server server, List<String> setCookieHeaders) {
        for (String header : setCookieHeaders) {
            String id = SetCookieHeaders.jsessionid(header);
            if (id == null) {
                continue;
            }
            learnedRoutes.learn(topology, server, id);
            String key = config.sessions().jsessionidTabSupport() ? id
                    : config.sessions().temporaryTableEnabled() ? SessionTimeouts.temporaryKey(id) : null;
            if (key != null && !server.config().name().equals(SessionCookies.serverName(id))) {
                sessionTable.bind(key, server.id());
            }
        }
    }

    private String saplbCookieFor(Server server, List<String> setCookieHeaders, boolean secure) {
        if (!config.sessions().addSaplbCookie() || server.type() != ServerType.J2EE
                || !SaplbCookieWriter.canWrite(server.config().lbId())) {
            return null;
        }
        boolean startsSession = false;
        for (String header : setCookieHeaders) {
            if (SetCookieHeaders.isSaplb(header)) {
                return null;
            }
            startsSession |= SetCookieHeaders.jsessionid(header) != null;
        }
        return startsSession ? SaplbCookieWriter.setCookieHeader(server.config().lbId(), secure) : null;
    }
}
