package org.jwd.admin;

import java.time.Instant;
import java.util.List;

import org.jwd.discovery.Discovery;
import org.jwd.discovery.SystemStatus;

/**
 * {@code GET api/discovery}: for each system that asks SAP for its landscape, where it asks, when its lists last
 * answered, whether jwd runs on a kept view, the last error and the last changes. Empty {@code systems} when
 * nothing is discovered.
 *
 * @param keptFile  where the last good view is kept ({@code jwd.discovery_file}); {@code null}: nowhere
 * @param keptError why the kept file could not be read at the start (a newer format, damaged); else {@code null}
 */
public record DiscoveryView(List<SystemDiscovery> systems, String keptFile, String keptError) {
    /**
     * One system.
     *
     * @param system       its SID, {@code -} for the one system without {@code wdisp/system_<xx>}
     * @param source       the message server's URL (or the server list's file)
     * @param icfSource    the server that answered the ICF's lists last; {@code null} before
     * @param refreshedAt  when the lists last answered (ISO-8601); {@code null} before
     * @param keptSince    when the view kept from an earlier run was fetched, while jwd runs on it; else {@code null}
     * @param failingSince since when the message server does not answer (ISO-8601); {@code null} while it does
     * @param lastError    why the last refresh failed; {@code null} when it succeeded
     * @param changes      the last 20 changes, the newest first
     * @param problems     what the last answers had that was left out or read with a default
     */
    public record SystemDiscovery(String system, String source, String icfSource, String refreshedAt,
                                  String keptSince, String failingSince, String lastError, int servers,
                                  List<Change> changes, List<String> problems) {
    }

    /** One change: when (ISO-8601) and what. */
    public record Change(String at, String text) {
    }

    static DiscoveryView of(Discovery discovery) {
        List<SystemDiscovery> systems = discovery.status().stream().map(DiscoveryView::system).toList();
        return new DiscoveryView(systems, discovery.kept().file() == null ? null : discovery.kept().file().toString(),
                discovery.keptError());
    }

    private static SystemDiscovery system(SystemStatus s) {
        return new SystemDiscovery(s.system(), s.source(), s.icfSource(), time(s.refreshedAt()), time(s.keptSince()),
                time(s.failingSince()), s.lastError(), s.servers(),
                s.changes().stream().map(c -> new Change(time(c.atMillis()), c.text())).toList(), s.problems());
    }

    private static String time(long millis) {
        return millis <= 0 ? null : Instant.ofEpochMilli(millis).toString();
    }
}
