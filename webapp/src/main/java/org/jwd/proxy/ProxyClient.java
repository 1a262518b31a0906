package org.jwd.proxy;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ClientConnector;
import org.jwd.runtime.Dispatcher;
import org.jwd.config.DispatcherConfig;
import org.jwd.limits.SlotAdmission;
import org.jwd.tls.ClientTls;
import org.jwd.tls.Reencryption;
import org.jwd.tls.TlsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The proxy's HTTP client towards the servers, set up as the configuration says. */
final class ProxyClient {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyClient.class);
    private static final int MAX_REQUESTS_QUEUED_PER_SERVER = 65_536;
    /** Jetty's client pool's buckets: buffers of multiples of 2 KB up to 64 KB; no bound on a bucket's count. */
    private static final int BUFFER_FACTOR = 2048;
    private static final int MAX_POOLED_BUFFER = 65_536;
    private static final int UNBOUNDED_BUCKETS = -1;

    private ProxyClient() {
    }

    /** Timeouts, and room for the largest header jwd lets through ({@code jwd.max_header_size}). */
    static HttpClient configure(HttpClient client, Dispatcher dispatcher) {
        DispatcherConfig config = dispatcher.config();
        client.setConnectTimeout(config.forwarding().connectTimeout().toMillis());
        client.setIdleTimeout(config.forwarding().idleTimeout().toMillis());
        // A header jwd lets through must fit into the request it forwards; the client's own bound (8 KB) would
        // fail it with 502. Plus room for the X-Forwarded-* headers jwd adds.
        client.setMaxRequestHeadersSize(Math.max(client.getMaxRequestHeadersSize(), dispatcher.state().limits().maxHeaderSize() + 4096));
        // The client's own bound on requests waiting for one of a server's connections (1,024) must not be the
        // limit that bites: with 4,000 keep-alive clients (src/bench/run connections) it answered thousands of them
        // 502/503 and refused the health checks' requests too, so both servers were taken for down. What a server
        // may queue is jwd's own setting (server.<id>.max_queue); this only bounds the memory of a flood.
        client.setMaxRequestsQueuedPerDestination(MAX_REQUESTS_QUEUED_PER_SERVER);
        // Each server's connections, one exchange at a time (HTTP/1.1). Jetty's pools scan their entries for a free
        // one, and under thousands of clients the pools are full, so each request scanned them about twice (a
        // tenth of jwd's CPU at 4,000 connections, and a lock for each refused reservation): a stack of the idle
        // ones instead (docs/performance.md).
        int connections = config.forwarding().connectionsPerServer();
        client.setMaxConnectionsPerDestination(connections);
        client.getTransport().setConnectionPoolFactory(server -> new ServerConnectionPool(server, connections));
        return client;
    }

    /** The client's scheduler, for the queue timeouts of requests waiting for a connection slot. */
    static SlotAdmission.Timer timer(HttpClient client) {
        return (task, delay) -> client.getScheduler().schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The client's buffers: a pool that keeps one for every server connection reading a response at once. The
     * client's own pool keeps at most half its threads' worth of buffers of a size ({@code HttpClient.doStart}), so
     * with hundreds of server connections reading at once nearly every response allocated a direct buffer of its own
     * (219,000 in 40 s at 4,000 client connections), and the ones the pool dropped held up to 280 MB of native memory
     * until a collection freed them (docs/performance.md, "Memory per connection"). Idle buffers are kept up to
     * Jetty's default bound, an eighth of the heap.
     */
    static ClientConnector pooled(ClientConnector connector) {
        connector.setByteBufferPool(new ArrayByteBufferPool(0, BUFFER_FACTOR, MAX_POOLED_BUFFER, UNBOUNDED_BUCKETS));
        return connector;
    }

    /**
     * Re-encryption: the servers' certificates are checked against the truststore and their host names; jwd's client
     * certificate ({@code wdisp/ssl_auth}) is presented and renewed with its file.
     */
    static ClientConnector secure(ClientConnector connector, ClientTls clientTls, TlsConfig tls) {
        try {
            connector.setSslContextFactory(clientTls.newFactory());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("jwd: cannot open " + TlsConfig.TRUSTSTORE + " " + tls.servers().trustStore()
                    + " or " + Reencryption.CRED + ": " + e.getMessage(), e);
        }
        if (!tls.verifyHostname()) {
            LOG.warn("jwd: {}=false: a server's certificate need not name the host of its https_url",
                    TlsConfig.VERIFY_HOSTNAME);
        }
        return connector;
    }
}
