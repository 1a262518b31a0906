package org.jwd.passthrough;

import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.jwd.balancing.Balancers;
import org.jwd.config.DispatcherConfig;
import org.jwd.tls.PassthroughConfig;
import org.jwd.topology.Topology;

/**
 * The connection factory of the end-to-end TLS listener (SAP's {@code PROT=ROUTER}): each accepted connection
 * becomes a {@link ClientTunnel}, which is joined to a server through this factory's {@link ClientConnector}
 * (Jetty's non-blocking client side: the server's selector threads, thread pool and buffers, no thread per
 * connection). Nothing is decrypted: the client sees the server's certificate, the server the client's TLS.
 */
public final class PassthroughConnectionFactory extends AbstractConnectionFactory {
    /** How the listener appears in Jetty's log: {@code {jwd-passthrough, (jwd-passthrough)}{host:port}}. */
    public static final String PROTOCOL = "jwd-passthrough";
    /** Bytes per read: a TLS record is at most 16 KB plus a little. */
    private static final int BUFFER_SIZE = 32 * 1024;

    private final PassthroughConfig config;
    private final ServerChooser chooser;
    private final ClientConnector clientConnector;
    private final ServerHealth health;

    public PassthroughConnectionFactory(Server server, DispatcherConfig dispatcherConfig, PassthroughConfig config) {
        super(PROTOCOL);
        this.config = config;
        setInputBufferSize(BUFFER_SIZE);
        Topology topology = Topology.of(dispatcherConfig);
        ClientAddressTable table = new ClientAddressTable(config.contextTimeout().toNanos(),
                config.maxClientIpEntries(), System::nanoTime);
        this.chooser = new ServerChooser(dispatcherConfig, topology, config, table,
                group -> Balancers.create(group, dispatcherConfig));
        this.clientConnector = new ClientConnector();
        clientConnector.setExecutor(server.getThreadPool());
        clientConnector.setScheduler(server.getScheduler());
        clientConnector.setByteBufferPool(server.getByteBufferPool());
        clientConnector.setConnectTimeout(dispatcherConfig.forwarding().connectTimeout());
        clientConnector.setIdleTimeout(dispatcherConfig.forwarding().idleTimeout());
        addBean(clientConnector);
        this.health = new ServerHealth(dispatcherConfig.health(), clientConnector);
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        return configure(new ClientTunnel(endPoint, connector.getExecutor(), connector.getByteBufferPool(), this),
                connector, endPoint);
    }

    boolean routesBySni() {
        return config.routesBySni();
    }

    ServerChooser chooser() {
        return chooser;
    }

    ClientConnector clientConnector() {
        return clientConnector;
    }

    ServerHealth health() {
        return health;
    }

    @Override
    public String toString() {
        return PROTOCOL + "[" + config + ", " + chooser + "]";
    }
}
