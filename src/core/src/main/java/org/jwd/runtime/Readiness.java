package org.jwd.runtime;

import java.time.Instant;
import java.util.Collection;
import java.util.function.LongSupplier;

import org.jwd.discovery.SystemStatus;
import org.jwd.sessiontable.ClusterState;
import org.jwd.topology.Server;

/**
 * Whether this dispatcher should get traffic, as {@code /jwd/health/ready} tells a load balancer in front of
 * several nodes (HAProxy's {@code option httpchk}, a Kubernetes readiness probe). Not ready:
 * <ol>
 *   <li>while starting: until the webapp has started and every server's first health check has come back (at most
 *       twice {@code health.timeout} and a second), so that "ready" means a server was seen to answer;</li>
 *   <li>while stopping: from the moment the stop begins ({@link #stopping()}: a SIGTERM, the webapp's stop), so
 *       that a graceful stop can count on the load balancer sending nothing new;</li>
 *   <li>with no server up, in any group or system;</li>
 *   <li>in cluster mode, while the session table's Terracotta server cannot be reached: this node would bind new
 *       sessions apart from the others.</li>
 * </ol>
 */
public final class Readiness {
    private final Dispatcher dispatcher;
    private final LongSupplier clock;
    private volatile long startedAt = -1;
    private volatile boolean checkedOnce;
    private volatile boolean stopping;

    /** The answer: ready or not, and why, in words for the probe's body. */
    public record Answer(boolean ready, String reason) {
    }

    public Readiness(Dispatcher dispatcher, LongSupplier clockMillis) {
        this.dispatcher = dispatcher;
        this.clock = clockMillis;
    }

    /** The dispatcher serves from now on ({@code nowMillis}); the first health checks are on their way. */
    public void started(long nowMillis) {
        startedAt = nowMillis;
    }

    /** The stop has begun: not ready from now on, whatever comes. */
    public void stopping() {
        stopping = true;
    }

    public boolean isStopping() {
        return stopping;
    }

    public Answer now() {
        if (stopping) {
            return new Answer(false, "stopping");
        }
        if (startedAt < 0) {
            return new Answer(false, "starting");
        }
        Collection<Server> servers = dispatcher.state().topology().servers().values();
        if (!checkedOnce) {
            long checked = servers.stream().filter(Server::checked).count();
            long grace = 2 * dispatcher.config().health().timeout().toMillis() + 1000;
            if (checked < servers.size() && clock.getAsLong() - startedAt < grace) {
                return new Answer(false, "starting: " + checked + " of " + servers.size()
                        + " servers have answered their first health check");
            }
            checkedOnce = true;
        }
        long up = servers.stream().filter(s -> s.state() == Server.State.UP).count();
        if (up == 0) {
            return new Answer(false, "no server is up (" + servers.size() + " servers: " + states(servers) + ")"
                    + discoveryNote());
        }
        ClusterState cluster = dispatcher.sessionTable().clusterState();
        if (cluster == ClusterState.CONNECTING || cluster == ClusterState.DISCONNECTED) {
            return new Answer(false, "cluster mode: the session table's Terracotta server cannot be reached ("
                    + cluster.name().toLowerCase(java.util.Locale.ROOT) + ")");
        }
        return new Answer(true, "ready: " + up + " of " + servers.size() + " servers up" + discoveryNote());
    }

    /**
     * What the probe's reader should know of discovery: that jwd serves from a view it kept (started while the
     * message server was away) or from the last good one (the message server stopped answering), and since when.
     */
    private String discoveryNote() {
        StringBuilder note = new StringBuilder();
        for (SystemStatus s : dispatcher.discovery().status()) {
            String system = s.system().equals("-") ? "" : " of system " + s.system();
            if (s.keptSince() > 0) {
                note.append("; runs on the kept view").append(system).append(" (of ")
                        .append(Instant.ofEpochMilli(s.keptSince())).append(") since ")
                        .append(Instant.ofEpochMilli(Math.max(startedAt, 0))).append(": ").append(s.source())
                        .append(" has not answered");
            } else if (s.failingSince() > 0) {
                note.append("; runs on the last good view").append(system).append(" (of ")
                        .append(Instant.ofEpochMilli(s.refreshedAt())).append(") since ")
                        .append(Instant.ofEpochMilli(s.failingSince())).append(": ").append(s.source())
                        .append(" does not answer");
            }
        }
        return note.toString();
    }

    private static String states(Collection<Server> servers) {
        return String.join(", ", servers.stream().map(s -> s.id() + " " + s.state().name()
                .toLowerCase(java.util.Locale.ROOT)).toList());
    }

    @Override
    public String toString() {
        return "Readiness[" + now() + "]";
    }
}
