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
 * @param name     ABAP: the server name inside {@code sap-contextid} ({@code host_SID_00})
 * @param route    the suffix this server appends to its session ids ({@code <id>.<route>}), or {@code null}
 * @param healthPath what the active health check requests: {@code /}, or SAP's ping for ABAP servers
 */
public record ServerConfig(String id, URI url, URI httpsUrl, ServerType type, int capacity,
                           Set<String> logonGroups, String lbId, String name, String route,
                           String healthPath) {
    /** The ICM's ping service: what SAP's own web dispatcher checks ABAP servers with. */
    public static final String ABAP_PING_PATH = "/sap/public/icman/ping";

    public ServerConfig {
        logonGroups = Set.copyOf(logonGroups);
    }

    @Override
    public String toString() {
        return id + "(" + type.key() + " " + (url == null ? httpsUrl : url) + " capacity " + capacity + ")";
    }
}
