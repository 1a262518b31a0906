package org.jwd.runtime;

import org.jwd.config.DispatcherConfig;
import org.jwd.config.LogonGroupConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the dispatcher warns of in a configuration it accepts, at the start and at every reload. */
final class ConfigWarnings {
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private ConfigWarnings() {
    }

    /** At start and on every reload: an operator who set it by mistake must see it whichever way it came in. */
    static void favoriteOnlyGroups(DispatcherConfig config) {
        for (LogonGroupConfig group : config.logonGroups()) {
            // Without ext_rfc the quality view hands everything to its favorite; it only chooses HTTP requests
            // when the group opts in: otherwise ext_rfc is what lgtst reports, as SAP's message server does.
            if (!group.extRfc() && group.httpBalancing() == LogonGroupConfig.HttpBalancing.QUALITY) {
                LOG.warn("jwd: logon group {} has ext_rfc=false and http_balancing=quality: every request goes to its "
                        + "favorite server, none is balanced among its members (SAP floods one server this way)",
                        group.name());
            }
        }
    }
}
