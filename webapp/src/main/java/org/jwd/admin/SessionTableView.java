package org.jwd.admin;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import org.jwd.sessiontable.ClusterStatus;
import org.jwd.sessiontable.PersistenceStatus;
import org.jwd.sessiontable.SessionTable;
import org.jwd.sessiontable.SessionTableStats;
import org.jwd.config.DispatcherConfig;
import org.jwd.config.Durations;
import org.jwd.config.PerSystemConfigs;

/**
 * {@code GET api/sessiontable}: the session table's parts and figures: SAP's session ID table and the temporary
 * table share one store.
 *
 * @param enabled              any part on
 * @param timeout              {@code SessionTableTimeout} as a duration ({@code 1m}; {@code 0ms}: temporary table off)
 * @param esidSupport          {@code wdisp/HTTP/esid_support}
 * @param jsessionidTabSupport {@code wdisp/HTTP/jsessionid_tab_support}
 * @param contextTimeout       {@code wdisp/HTTP/context_timeout}: the idle timeout of ESID entries
 * @param temporaryTable       the temporary table binds JSESSIONIDs at request time
 * @param jsessionidTimeout    the idle timeout of the JSESSIONIDs servers set (those bound at request time: {@code timeout})
 * @param full                 the table is full: requests it does not hold go to their group's default server
 * @param cluster              the cluster state's name, {@code NONE} when the table is not shared
 * @param clusterStatus        in cluster mode, the cluster's figures; else {@code null}
 * @param persistence          with {@code SessionTable.disk_path}, the persistent tier's figures; else {@code null}
 * @param systems              with {@code wdisp/system_<xx>}, what each system keeps in the one table and for how
 *                             long (its scoped session keys, else the unscoped ones); absent without systems
 */
public record SessionTableView(boolean enabled, String timeout, boolean esidSupport, boolean jsessionidTabSupport,
                               String contextTimeout, boolean temporaryTable, String jsessionidTimeout, boolean full,
                               long maxEntries, long entries, long hits, long misses, long bindings, long rebindings,
                               long expirations, long rejected, String cluster, Cluster clusterStatus,
                               Persistence persistence,
                               @JsonInclude(JsonInclude.Include.NON_NULL) List<SystemSessions> systems) {
    /**
     * One system's part of the table: its entries ({@code ERP/<id>}) are bound and timed by these.
     *
     * @param timeout           the system's {@code SessionTableTimeout} ({@code 0ms}: its temporary table off)
     * @param contextTimeout    the system's {@code wdisp/HTTP/context_timeout}: the idle timeout of its ESID entries
     * @param jsessionidTimeout the idle timeout of the JSESSIONIDs its servers set
     */
    public record SystemSessions(String sid, boolean esidSupport, boolean jsessionidTabSupport,
                                 String contextTimeout, boolean temporaryTable, String timeout,
                                 String jsessionidTimeout) {
        static List<SystemSessions> of(DispatcherConfig config) {
            Map<String, DispatcherConfig> systems = PerSystemConfigs.of(config);
            return systems.isEmpty() ? null : systems.entrySet().stream().map(e -> {
                DispatcherConfig own = e.getValue();
                return new SystemSessions(e.getKey(), own.sessions().esidSupport(), own.sessions().jsessionidTabSupport(),
                        Durations.format(own.sessions().contextTimeout()), own.sessions().temporaryTableEnabled(),
                        Durations.format(own.sessions().sessionTableTimeout()), Durations.format(own.sessions().jsessionidTimeout()));
            }).toList();
        }
    }

    /**
     * The shared table of cluster mode.
     *
     * @param state         the state's name ({@code CONNECTED}, ...)
     * @param since         when it entered that state (ISO-8601)
     * @param servedLocally requests bound on this node alone while the cluster was away
     * @param writes        writes of sessions' entries the server answered since the start
     * @param writeMeanMicros their mean latency since the start, as this node saw it (0 without writes; the
     *                      metrics give it over any interval)
     */
    public record Cluster(String uri, String state, String since, long outages, long servedLocally, long carriedOver,
                          long freshStarts, long writes, long writeMeanMicros) {
    }

    /**
     * The persistent tier ({@code SessionTable.disk_path}).
     *
     * @param directory  where the bindings are written
     * @param restored   bindings read back at the start
     * @param restoredAt when the restore ended (ISO-8601)
     * @param dropped    bindings on disk not restored: idle past their timeout, or bound to a server gone
     * @param lastFlush  when the bindings were last written (ISO-8601), {@code null} before the first time
     * @param flushFailures writes that failed (the last good one stays on disk)
     * @param flushFailure  why the last write failed (a full or read-only disk), {@code null} when it worked
     */
    public record Persistence(String directory, long restored, String restoredAt, long dropped, String lastFlush,
                              long flushFailures, String flushFailure) {
        static Persistence of(PersistenceStatus status) {
            return !status.persistent() ? null : new Persistence(status.directory(), status.restored(),
                    Instant.ofEpochMilli(status.restoredAtMillis()).toString(), status.dropped(),
                    status.lastFlushMillis() == 0 ? null : Instant.ofEpochMilli(status.lastFlushMillis()).toString(),
                    status.flushFailures(), status.flushFailure());
        }
    }

    static SessionTableView of(DispatcherConfig config, SessionTable table) {
        SessionTableStats stats = table.stats();
        ClusterStatus cluster = table.clusterStatus();
        return new SessionTableView(config.sessionTableEnabled(), Durations.format(config.sessions().sessionTableTimeout()),
                config.sessions().esidSupport(), config.sessions().jsessionidTabSupport(), Durations.format(config.sessions().contextTimeout()),
                config.sessions().temporaryTableEnabled(), Durations.format(config.sessions().jsessionidTimeout()), table.isFull(),
                config.sessions().maxSessionTableEntries(), stats.entries(), stats.hits(), stats.misses(), stats.bindings(),
                stats.rebindings(), stats.expirations(), stats.rejected(), String.valueOf(cluster.state()),
                cluster.clustered() ? new Cluster(cluster.uri(), cluster.state().name(),
                        Instant.ofEpochMilli(cluster.sinceMillis()).toString(), cluster.outages(),
                        cluster.servedLocally(), cluster.carriedOver(), cluster.freshStarts(), cluster.writes(),
                        cluster.writes() == 0 ? 0 : cluster.writeNanos() / 1_000 / cluster.writes()) : null,
                Persistence.of(table.persistence()), SystemSessions.of(config));
    }
}
