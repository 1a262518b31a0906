package org.jwd.proxy;

import org.eclipse.jetty.client.AbstractConnectionPool;
import org.eclipse.jetty.client.Destination;

/**
 * A server's connections, each carrying one exchange at a time (HTTP/1.1, as Jetty's {@code DuplexConnectionPool}),
 * kept in an {@link IdleStackPool} so that finding a free one does not scan them all.
 */
final class ServerConnectionPool extends AbstractConnectionPool {
    ServerConnectionPool(Destination server, int maxConnections) {
        super(server, () -> new IdleStackPool<>(maxConnections), 1);
    }
}
