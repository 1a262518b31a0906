package org.jwd.passthrough;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Transport;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.jwd.topology.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's side of an end-to-end TLS connection. It first reads the start of the ClientHello (the SNI name
 * when a logon group is chosen by it), then has a server chosen and connects to it; a server that cannot be
 * reached is reported to {@link ServerHealth} and the next one is tried, which is safe because nothing has
 * been sent to it. Once connected, the bytes read so far go first, and then both directions are piped.
 *
 * <pre>
 * client --TLS bytes--> ClientTunnel --(read hello, choose, connect)--> ServerTunnel --TLS bytes--> server
 *        <------------------------------- piped both ways, never decrypted ---------------------
 * </pre>
 */
final class ClientTunnel extends TunnelEnd {
    private static final Logger LOG = LoggerFactory.getLogger(ClientTunnel.class);
    /** A ClientHello is a few hundred bytes, rarely more than a few kilobytes; past this, stop looking for SNI. */
    static final int MAX_HELLO = 32 * 1024;

    private final PassthroughConnectionFactory factory;
    private final ByteBufferPool bufferPool;
    private ByteBuffer hello = BufferUtil.allocate(4096);
    /** the servers that could not be reached for this connection (only touched by one connect at a time) */
    private final List<Server> failed = new ArrayList<>(1);
    private InetAddress clientAddress;
    private String serverName;
    /** false until a server is connected: reads go to {@link #hello} until then */
    private volatile boolean piping;
    /** the server's side once connected */
    private volatile ServerTunnel serverSide;

    ClientTunnel(EndPoint endPoint, Executor executor, ByteBufferPool bufferPool, PassthroughConnectionFactory factory) {
        super(endPoint, executor, bufferPool);
        this.factory = factory;
        this.bufferPool = bufferPool;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        fillInterested();
    }

    @Override
    public void onFillable() {
        if (piping) {
            super.onFillable();
        } else {
            readHello();
        }
    }

    private void readHello() {
        try {
            while (true) {
                if (BufferUtil.space(hello) == 0) {
                    ByteBuffer bigger = BufferUtil.allocate(hello.capacity() * 2);
                    BufferUtil.append(bigger, hello);
                    hello = bigger;
                }
                int filled = getEndPoint().fill(hello);
                if (filled < 0) {
                    LOG.debug("{} left before sending its ClientHello", this);
                    close();
                    return;
                }
                if (filled == 0) {
                    fillInterested();
                    return;
                }
                if (!factory.routesBySni()) {
                    choose(null);
                    return;
                }
                ClientHello parsed = ClientHello.parse(hello);
                if (parsed.complete() || hello.remaining() >= MAX_HELLO) {
                    choose(parsed.serverName());
                    return;
                }
            }
        } catch (IOException e) {
            LOG.debug("cannot read the ClientHello of {}", this, e);
            close();
        }
    }

    private void choose(String sni) {
        SocketAddress remote = getEndPoint().getRemoteSocketAddress();
        if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            close();
            return;
        }
        this.clientAddress = inet.getAddress();
        this.serverName = sni;
        connect();
    }

    /** Chooses a server (skipping those that failed for this connection) and connects to it. */
    private void connect() {
        ServerChooser.Choice choice = factory.chooser().choose(clientAddress, serverName, failed);
        if (choice == null) {
            LOG.debug("{}: no HTTPS-enabled server can take it (tried {})", this, failed);
            close();
            return;
        }
        Server server = choice.server();
        server.requestStarted(choice.bound());
        LOG.debug("{} (SNI {}) -> server {}: {}", this, serverName, server.id(), choice.reason());
        InetSocketAddress address;
        try {
            address = address(server);
        } catch (UnknownHostException e) {
            connectFailed(server, e);
            return;
        }
        Map<String, Object> context = new HashMap<>();
        context.put(Transport.CONTEXT_KEY, Transport.TCP_IP);
        context.put(ClientConnectionFactory.CONTEXT_KEY, (ClientConnectionFactory) (endPoint, ctx) ->
                new ServerTunnel(endPoint, getExecutor(), bufferPool, this, server));
        context.put(ClientConnector.CONNECTION_PROMISE_CONTEXT_KEY,
                Promise.<Connection>from(connection -> factory.health().connected(server),
                        failure -> connectFailed(server, failure)));
        factory.clientConnector().connect(address, context);
    }

    static InetSocketAddress address(Server server) throws UnknownHostException {
        URI url = server.config().httpsUrl();
        int port = url.getPort() < 0 ? 443 : url.getPort();
        InetSocketAddress address = new InetSocketAddress(url.getHost(), port);
        if (address.isUnresolved()) {
            throw new UnknownHostException(url.getHost());
        }
        return address;
    }

    private void connectFailed(Server server, Throwable failure) {
        LOG.debug("{}: cannot connect to server {}", this, server.id(), failure);
        server.requestFinished(true);
        factory.health().connectFailed(server, failure);
        failed.add(server);
        if (getEndPoint().isOpen()) {
            connect();
        }
    }

    /** The server's side is open: what the client sent so far goes first, then both directions are piped. */
    void connected(ServerTunnel server) {
        serverSide = server;
        if (!getEndPoint().isOpen()) {
            server.close();
            return;
        }
        server.getEndPoint().write(Callback.from(() -> {
            piping = true;
            pipeTo(server);
            server.pipeTo(this);
        }, failure -> {
            server.getEndPoint().close(failure);
            getEndPoint().close(failure);
        }), hello);
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        ServerTunnel server = serverSide;
        if (server != null) {
            // also when the client left between the connect and the start of piping
            server.getEndPoint().close(cause);
        }
    }

    @Override
    public String toConnectionString() {
        return "end-to-end TLS connection from " + getEndPoint().getRemoteSocketAddress();
    }
}
