package org.jwd.termination;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * A further HTTPS listener made like the {@code ssl} module's connector, which Jetty's {@code ssl}, {@code https},
 * {@code alpn} and {@code http2} modules built (TLS, then ALPN choosing HTTP/2 or HTTP/1.1): the same protocols, each
 * a factory of its own with the same {@code HttpConfiguration} (and so the same secure request customizer), the same
 * socket settings; only the address, the port and the TLS factory differ. A connection factory belongs to one
 * connector (it is a bean whose life the connector manages), so none is shared.
 */
final class HttpsConnectors {
    private HttpsConnectors() {
    }

    /** @throws IllegalStateException when {@code template} has a protocol this does not know how to copy */
    static ServerConnector copy(Server server, ServerConnector template, SslContextFactory.Server ssl, String host,
                                int port) {
        List<ConnectionFactory> factories = new ArrayList<>();
        for (ConnectionFactory factory : template.getConnectionFactories()) {
            factories.add(copy(factory, ssl));
        }
        ServerConnector connector = new ServerConnector(server, template.getAcceptors(), template.getSelectorManager()
                .getSelectorCount(), factories.toArray(ConnectionFactory[]::new));
        connector.setName("jwd-https-" + host + ":" + port);
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(template.getIdleTimeout());
        connector.setAcceptQueueSize(template.getAcceptQueueSize());
        connector.setReuseAddress(template.getReuseAddress());
        connector.setReusePort(template.isReusePort());
        connector.setAcceptedTcpNoDelay(template.getAcceptedTcpNoDelay());
        return connector;
    }

    private static ConnectionFactory copy(ConnectionFactory factory, SslContextFactory.Server ssl) {
        if (factory instanceof SslConnectionFactory tls) {
            return new SslConnectionFactory(ssl, tls.getNextProtocol());
        }
        if (factory instanceof ALPNServerConnectionFactory alpn) {
            ALPNServerConnectionFactory copy = new ALPNServerConnectionFactory(alpn.getNegotiatedProtocols()
                    .toArray(String[]::new));
            copy.setDefaultProtocol(alpn.getDefaultProtocol());
            return copy;
        }
        if (factory instanceof HTTP2ServerConnectionFactory h2) {
            // as jetty-http2.xml does for the ssl module's factory: suites HTTP/2 forbids last
            ssl.setCipherComparator(HTTP2Cipher.COMPARATOR);
            ssl.setUseCipherSuitesOrder(true);
            HTTP2ServerConnectionFactory copy = new HTTP2ServerConnectionFactory(h2.getHttpConfiguration());
            copy.setMaxConcurrentStreams(h2.getMaxConcurrentStreams());
            copy.setInitialStreamRecvWindow(h2.getInitialStreamRecvWindow());
            copy.setInitialSessionRecvWindow(h2.getInitialSessionRecvWindow());
            copy.setMaxSettingsKeys(h2.getMaxSettingsKeys());
            copy.setRateControlFactory(h2.getRateControlFactory());
            return copy;
        }
        if (factory instanceof HttpConnectionFactory http) {
            return new HttpConnectionFactory(http.getHttpConfiguration());
        }
        throw new IllegalStateException("jwd-https: the ssl connector's " + factory + " is no protocol jwd copies to"
                + " a further HTTPS listener (TLS, ALPN, HTTP/2, HTTP/1.1)");
    }
}
