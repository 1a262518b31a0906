package org.jwd.passthrough;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Transport;
import org.eclipse.jetty.util.Promise;
import org.jwd.config.HealthConfig;
import org.jwd.topology.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a server can take end-to-end TLS connections. Passive: a refused connect marks it down at once (as
 * the dispatcher's health checks do), other connect failures count towards {@code health.fall}. Active, while
 * it is down: every {@code health.interval} a TCP connect to its {@code https_url} (opened and closed, no TLS
 * handshake); {@code health.rise} good ones in a row bring it back. The dispatcher's own checks run in the
 * webapp and see its plain {@code url}; this listener lives at the server level and checks what it uses.
 */
final class ServerHealth {
    private static final Logger LOG = LoggerFactory.getLogger(ServerHealth.class);

    private final HealthConfig config;
    private final ClientConnector connector;
    /** servers being probed: one probe loop each */
    private final Map<Server, Boolean> probing = new ConcurrentHashMap<>();

    ServerHealth(HealthConfig config, ClientConnector connector) {
        this.config = config;
        this.connector = connector;
    }

    void connected(Server server) {
        server.resetFailures(true);
    }

    void connectFailed(Server server, Throwable failure) {
        boolean refused = false;
        for (Throwable t = failure; t != null && !refused; t = t.getCause() == t ? null : t.getCause()) {
            refused = t instanceof ConnectException;
        }
        if (server.recordFailure(true, refused ? 1 : config.fall(), "end-to-end TLS: connect failed: " + failure)) {
            LOG.warn("jwd: server {} is down for end-to-end TLS ({}): {}", server.id(), server.config().httpsUrl(),
                    refused ? "connection refused" : failure.toString());
        }
        if (!server.healthy(true) && probing.putIfAbsent(server, Boolean.TRUE) == null) {
            schedule(server);
        }
    }

    private void schedule(Server server) {
        if (!connector.isRunning()) {
            probing.remove(server);
            return;
        }
        connector.getScheduler().schedule(() -> probe(server), config.interval().toMillis(), TimeUnit.MILLISECONDS);
    }

    private void probe(Server server) {
        if (server.healthy(true) || !connector.isRunning()) {
            probing.remove(server);
            return;
        }
        InetSocketAddress address;
        try {
            address = ClientTunnel.address(server);
        } catch (UnknownHostException e) {
            server.recordFailure(true, config.fall(), "end-to-end TLS: unknown host " + e.getMessage());
            schedule(server);
            return;
        }
        Map<String, Object> context = new ConcurrentHashMap<>();
        context.put(Transport.CONTEXT_KEY, Transport.TCP_IP);
        context.put(ClientConnectionFactory.CONTEXT_KEY, (ClientConnectionFactory) (endPoint, ctx) ->
                new AbstractConnection(endPoint, connector.getExecutor()) {
                    @Override
                    public void onOpen() {
                        super.onOpen();
                        getEndPoint().close();
                    }

                    @Override
                    public void onFillable() {
                    }
                });
        context.put(ClientConnector.CONNECTION_PROMISE_CONTEXT_KEY, Promise.<Connection>from(connection -> {
            if (server.recordSuccess(true, config.rise(), "end-to-end TLS: connect to " + address + " succeeded")) {
                LOG.info("jwd: server {} is up again for end-to-end TLS ({} good connects)", server.id(),
                        config.rise());
                probing.remove(server);
            } else {
                schedule(server);
            }
        }, failure -> {
            server.recordFailure(true, config.fall(), "end-to-end TLS: connect failed: " + failure);
            schedule(server);
        }));
        connector.connect(address, context);
    }
}
