package org.jwd.passthrough;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.EndPoint;
import org.jwd.topology.Server;

/** The server's side of an end-to-end TLS connection: opened by jwd's {@code ClientConnector}. */
final class ServerTunnel extends TunnelEnd {
    private final ClientTunnel client;
    private final Server server;
    private final AtomicBoolean finished = new AtomicBoolean();

    ServerTunnel(EndPoint endPoint, Executor executor, ByteBufferPool bufferPool, ClientTunnel client, Server server) {
        super(endPoint, executor, bufferPool);
        this.client = client;
        this.server = server;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        client.connected(this);
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        if (finished.compareAndSet(false, true)) {
            // The connection counted as a request in flight on its server while it was open.
            server.requestFinished(false);
        }
    }
}
