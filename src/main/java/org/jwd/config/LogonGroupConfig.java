package org.jwd.config;

import java.time.Duration;
import java.util.List;

/**
 * A logon group as configured by the {@code logon_group.<G>.*} keys.
 *
 * @param type              {@code B} best quality, {@code R} round robin, {@code W} weighted round robin
 * @param fallback          with no active member, fall back to the internal group instead of answering 503
 * @param extRfc            SAP's "Ext. RFC-enable": when false every dispatch goes to the favorite
 * @param refresh           how often the group's view (qualities, members) is refreshed
 * @param refreshDispatches refresh also after this many dispatches, whichever comes first
 */
public record LogonGroupConfig(String name, List<String> urlPrefixes, char type, boolean fallback,
                               boolean extRfc, Duration refresh, int refreshDispatches) {
    public LogonGroupConfig {
        urlPrefixes = List.copyOf(urlPrefixes);
    }

    @Override
    public String toString() {
        return "logon group " + name + " (type " + type + ", prefixes " + urlPrefixes + ")";
    }
}
