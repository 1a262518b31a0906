package org.jwd.admin;

import java.time.Instant;

import org.jwd.affinity.ClusterStatus;
import org.jwd.affinity.SessionTableStats;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;

/**
 * {@code GET api/sessiontable}: the temporary session table's figures.
 *
 * @param timeout       {@code SessionTableTimeout} as a duration ({@code 1m})
 * @param cluster       the cluster state's name, {@code NONE} when the table is not shared
 * @param clusterStatus in cluster mode, the cluster's figures; else {@code null}
 */
public record SessionTableView(boolean enabled, String timeout, long maxEntries, long entries, long hits, long misses,
                               long bindings, long rebindings, long expirations, long rejected, String cluster,
                               Cluster clusterStatus) {
    /**
     * The shared table of cluster mode.
     *
     * @param state         the state's name ({@code CONNECTED}, ...)
     * @param since         when it entered that state (ISO-8601)
     * @param servedLocally requests bound on this node alone while the cluster was away
     */
    public record Cluster(String uri, String state, String since, long outages, long servedLocally, long carriedOver,
                          long freshStarts) {
    }

    static SessionTableView of(DispatcherConfig config, SessionTableStats stats, ClusterStatus cluster) {
        return new SessionTableView(config.sessionTableEnabled(), Durations.format(config.sessionTableTimeout()),
                config.maxSessionTableEntries(), stats.entries(), stats.hits(), stats.misses(), stats.bindings(),
                stats.rebindings(), stats.expirations(), stats.rejected(), String.valueOf(cluster.state()),
                cluster.clustered() ? new Cluster(cluster.uri(), cluster.state().name(),
                        Instant.ofEpochMilli(cluster.sinceMillis()).toString(), cluster.outages(),
                        cluster.servedLocally(), cluster.carriedOver(), cluster.freshStarts()) : null);
    }
}
