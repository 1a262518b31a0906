package org.jwd.config;

import java.net.URI;
import java.util.Set;

import org.jwd.config.ServerType;

/**
 * One server process as configured by the {@code server.<id>.*} keys.
 *
 * @param url      where plain HTTP requests go: {@code http://host:port}; {@code null} for a server with only an
 *                 HTTPS port, which is a member of the secure groups alone
 * @param httpsUrl where HTTPS requests go, or {@code null}: a server with one is HTTPS-enabled
 * @param lbId     what this server's {@code saplb_*} cookie carries: the whole value or just its node part
 * @param name     the SAP server name its session ids carry ({@code host_SID_00}): ABAP's {@code sap-contextid},
 *                 AS Java's {@code JSESSIONID=(<name>)...End}
 * @param route    the suffix this server appends to its session ids ({@code <id>.<route>}), or {@code null}
 * @param healthPath what the active health check requests: {@code /}, or SAP's ping for ABAP servers
 * @param instanceId the {@code <instance>} of a {@code saplb_<group>=(<instance>)<node>} cookie that names this
 *                   server, whatever the node: the server stands for that AS Java instance
 * @param healthCheck its own health check settings; {@link ServerHealthCheck#DEFAULTS} for the {@code health.*} ones
 * @param state      {@code server.<id>.state}: what the configuration says, before any operator's action
 */
public record ServerConfig(String id, URI url, URI httpsUrl, ServerType type, int capacity,
                           Set<String> logonGroups, String lbId, String name, String route,
                           String healthPath, String instanceId, ServerHealthCheck healthCheck, ServerState state) {
    /** The ICM's ping service: what SAP's own web dispatcher checks ABAP servers with. */
    public static final String ABAP_PING_PATH = "/sap/public/icman/ping";

    public ServerConfig {
        logonGroups = Set.copyOf(logonGroups);
    }

    /** A server checked with the {@code health.*} defaults, its instance id the default one of its lb_id. */
    public ServerConfig(String id, URI url, URI httpsUrl, ServerType type, int capacity, Set<String> logonGroups,
                        String lbId, String name, String route, String healthPath) {
        this(id, url, httpsUrl, type, capacity, logonGroups, lbId, name, route, healthPath,
                defaultInstanceId(lbId), ServerHealthCheck.DEFAULTS, ServerState.ACTIVE);
    }

    /**
     * Whether {@code other} describes the same server process checked the same way, whatever its configured
     * {@link #state}: a change of that key alone keeps the running server (its counters and health).
     */
    public boolean sameServer(ServerConfig other) {
        return other != null && equals(new ServerConfig(other.id, other.url, other.httpsUrl, other.type,
                other.capacity, other.logonGroups, other.lbId, other.name, other.route, other.healthPath,
                other.instanceId, other.healthCheck, state));
    }

    /**
     * The instance an lb_id stands for: the part in parentheses of one written as the cookie is
     * ({@code J2EE6906720} of {@code (J2EE6906720)6906750}), else the lb_id itself (jwd writes the cookie of such a
     * server {@code (<lb_id>)<lb_id>}).
     */
    public static String defaultInstanceId(String lbId) {
        int close = lbId == null || !lbId.startsWith("(") ? -1 : lbId.indexOf(')');
        return close > 1 ? lbId.substring(1, close) : lbId;
    }

    @Override
    public String toString() {
        return id + "(" + type.key() + " " + (url == null ? httpsUrl : url) + " capacity " + capacity + ")";
    }
}
