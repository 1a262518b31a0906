package org.jwd.discovery;

import java.util.List;

/**
 * What the page, the API and the health URL say of one system's discovery, as of one moment.
 *
 * @param source         where the server list is asked (the message server's URL, or a file)
 * @param icfSource      which server answered the ICF's lists last, or {@code null}
 * @param refreshedAt    when the lists last answered (epoch ms), 0 before
 * @param lastError      why the last refresh failed, or {@code null} when it succeeded
 * @param failingSince   since when every refresh failed (epoch ms), 0 while they succeed
 * @param keptSince      when the view in force was fetched, if it comes from the kept file (jwd started while
 *                       SAP was away), else 0
 * @param changes        the last {@value Changes#KEPT} changes, the newest first
 * @param problems       what the last answers had that was left out or read with a default
 */
public record SystemStatus(String system, String source, String icfSource, long refreshedAt, String lastError,
                           long failingSince, long keptSince, int servers, List<Change> changes,
                           List<String> problems) {
    public SystemStatus {
        changes = List.copyOf(changes);
        problems = List.copyOf(problems);
    }

    /** One change of the view: an instance added or removed, a capacity, a group's members, the URL mapping. */
    public record Change(long atMillis, String text) {
        @Override
        public String toString() {
            return java.time.Instant.ofEpochMilli(atMillis) + " " + text;
        }
    }

    /** Whether the view in force is older than the last try: the kept file's, or the last good before a failure. */
    public boolean onKeptView() {
        return keptSince > 0 || failingSince > 0;
    }
}
