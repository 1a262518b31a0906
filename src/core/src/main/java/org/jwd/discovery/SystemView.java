package org.jwd.discovery;

import java.util.List;

import org.jwd.config.LogonGroupConfig;
import org.jwd.config.ServerConfig;
import org.jwd.routing.UrlPrefix;

/**
 * What SAP says of one system, immutable: its servers (each a {@link ServerConfig} like any other, its id derived
 * from the SAP instance name, its {@code name} that instance name), its logon groups with their URL prefixes, and
 * the ABAP prefixes of its URL mapping table. The runtime builds its topology and routers from it as from the
 * configuration file's servers.
 *
 * @param system       the system's SID, or {@code -} for the one implicit system
 * @param abapPrefixes the URL mapping table's ABAP entries
 * @param answers      the answers it was built from
 */
public record SystemView(String system, List<ServerConfig> servers, List<LogonGroupConfig> logonGroups,
                         List<UrlPrefix> abapPrefixes, Answers answers) {
    public SystemView {
        servers = List.copyOf(servers);
        logonGroups = List.copyOf(logonGroups);
        abapPrefixes = List.copyOf(abapPrefixes);
    }

    /** The SID of the system, {@code null} for the implicit one. */
    public String sid() {
        return system.equals("-") ? null : system;
    }

    @Override
    public String toString() {
        return "SystemView[" + system + ": " + servers + ", groups "
                + logonGroups.stream().map(LogonGroupConfig::name).toList() + ", " + abapPrefixes.size()
                + " ABAP prefixes]";
    }
}
